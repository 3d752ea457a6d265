"""Where uploaded files are kept: the `default` entry of Django's STORAGES, from the environment
(docs/subsystems/surveys-and-files.md "Storage"). The file system under the data folder, or an
S3-compatible store (django-storages) when STORAGE_S3_BUCKET is set; never served from a public
URL either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.env import env_str


def files_storage(*, files_root: Path) -> dict[str, Any]:
    """The `default` storage: S3 with the STORAGE_S3_* variables, else `files_root`."""
    bucket = env_str("STORAGE_S3_BUCKET", "").strip()
    if not bucket:
        # No base_url: nothing under it is served by a web server.
        return {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(files_root), "base_url": None},
        }
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": env_str("STORAGE_S3_ENDPOINT_URL", "").strip() or None,
            "region_name": env_str("STORAGE_S3_REGION", "").strip() or None,
            "access_key": env_str("STORAGE_S3_ACCESS_KEY", "").strip() or None,
            "secret_key": env_str("STORAGE_S3_SECRET_KEY", "").strip() or None,
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
        },
    }
