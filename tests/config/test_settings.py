"""Settings come from the environment and refuse an unsafe production configuration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k" * 20 + "Q7-v!x" * 8
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": STRONG_KEY,
    "DJANGO_ALLOWED_HOSTS": "maintplan.example.com",
    "DATABASE_URL": "sqlite:////tmp/maintplan-settings-test.sqlite3",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
}


def run_django(args, env_overrides):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(env_overrides)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"DJANGO_SECRET_KEY": ""}, "DJANGO_SECRET_KEY"),
        (
            {"DJANGO_SECRET_KEY": "django-insecure-development-key-do-not-use-in-production"},
            "DJANGO_SECRET_KEY",
        ),
        ({"DJANGO_SECRET_KEY": "too-short"}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_SECRET_KEY": "a" * 60}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_SECRET_KEY": "abcd" * 20}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_SECRET_KEY": "django-insecure-" + "Q7-v!x" * 10}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be a boolean"),
        ({"DB_CONN_MAX_AGE": "forever"}, "DB_CONN_MAX_AGE must be an integer"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL must be one of"),
    ],
)
def test_production_refuses_unsafe_or_invalid_settings(overrides, expected):
    env = {**PRODUCTION_ENV, **overrides}
    if overrides.get("DJANGO_SECRET_KEY") == "":
        env.pop("DJANGO_SECRET_KEY")

    result = run_django(["check"], env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert expected in result.stderr


def test_deploy_check_is_clean_with_documented_production_settings():
    result = run_django(["check", "--deploy", "--fail-level", "WARNING"], PRODUCTION_ENV)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_deploy_check_warns_when_the_cache_is_per_process():
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != "REDIS_URL"}

    result = run_django(["check", "--deploy", "--fail-level", "WARNING"], env)

    assert result.returncode != 0
    assert "maintplan.W001" in result.stderr + result.stdout
    assert "REDIS_URL" in result.stderr + result.stdout


def test_local_defaults_start_without_any_variable():
    result = run_django(["check"], {})

    assert result.returncode == 0, result.stderr
