"""The S3 path of the storage (STORAGE_S3_*, django-storages) against moto's server mode on this
machine: an upload lands in the bucket, is served through the app, and leaves it with its node."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.core.files.storage import storages
from django.test.utils import override_settings
from django.urls import reverse

from planning.models import PlanRole
from planning.plans.services.attachments import attachment_add
from planning.plans.services.nodes import node_delete
from tests.factories import PlanMembershipFactory, StructureNodeFactory
from tests.planning.photos import jpeg_bytes, photo_upload

moto_server = pytest.importorskip("moto.server")
boto3 = pytest.importorskip("boto3")

pytestmark = pytest.mark.django_db
BUCKET = "maintplan-files"
CREDENTIALS = {"access_key": "testing", "secret_key": "testing", "region_name": "eu-north-1"}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def s3_endpoint() -> Iterator[str]:
    port = _free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    try:
        boto3.client(
            "s3",
            endpoint_url=endpoint,
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            region_name="eu-north-1",
        ).create_bucket(
            Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "eu-north-1"}
        )
        storage = {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": endpoint,
                "default_acl": "private",
                "file_overwrite": False,
                **CREDENTIALS,
            },
        }
        with override_settings(STORAGES={**settings.STORAGES, "default": storage}):
            yield endpoint
    finally:
        server.stop()


def _keys(endpoint: str) -> list[str]:
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing",
        region_name="eu-north-1",
    )
    return sorted(item["Key"] for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []))


def test_a_photo_goes_to_the_bucket_is_served_by_the_app_and_leaves_with_its_node(
    s3_endpoint: str, client: Any, django_capture_on_commit_callbacks: Any
) -> None:
    assert type(storages["default"]).__name__ == "S3Storage"
    membership = PlanMembershipFactory.create(role=PlanRole.VIEWER)
    node = StructureNodeFactory.create(plan=membership.plan)
    content = jpeg_bytes((800, 600), gps=False)
    attachment = attachment_add(
        plan=node.plan, node=node, upload=photo_upload("roof.jpg", content), by=None
    )
    assert _keys(s3_endpoint) == sorted([str(attachment.file.name), str(attachment.thumbnail.name)])

    client.force_login(membership.user)
    url = reverse("planning:attachment_download", args=[node.plan.number, attachment.pk])
    response = client.get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == content
    assert s3_endpoint not in response.get("Location", "")  # served, never redirected

    with django_capture_on_commit_callbacks(execute=True):
        node_delete(node=node)
    assert _keys(s3_endpoint) == []
