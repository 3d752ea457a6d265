"""Email in production: no backend that writes mail to the console or a file with debug off,
and links from SITE_URL (core.mail, core.checks.email_backend_check)."""

from __future__ import annotations

import pytest
from django.core.mail.backends.console import EmailBackend as ConsoleEmailBackend

from core.checks import email_backend_check
from core.mail import email_backend_writes_locally, site_link
from tests.config.test_settings import PRODUCTION_ENV, run_django

CONSOLE = "django.core.mail.backends.console.EmailBackend"
FILE = "django.core.mail.backends.filebased.EmailBackend"
SMTP = "django.core.mail.backends.smtp.EmailBackend"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


class LoudBackend(ConsoleEmailBackend):
    """A project's own backend built on the console one."""


@pytest.mark.parametrize(
    ("backend", "writes_locally"),
    [
        (CONSOLE, True),
        (FILE, True),
        (f"{__name__}.LoudBackend", True),
        (SMTP, False),
        (LOCMEM, False),
    ],
)
def test_console_and_file_backends_write_mail_locally(backend, writes_locally):
    assert email_backend_writes_locally(backend) is writes_locally


@pytest.mark.parametrize("backend", [None, CONSOLE, FILE])
def test_debug_off_refuses_to_start_when_mail_would_be_written_locally(backend):
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DJANGO_EMAIL_BACKEND"}
    if backend is not None:
        env["DJANGO_EMAIL_BACKEND"] = backend

    result = run_django(["check"], env)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "writes mail to the console or a file" in result.stderr
    assert "DJANGO_EMAIL_BACKEND" in result.stderr


def test_an_email_backend_that_cannot_be_imported_stops_the_process():
    env = {**PRODUCTION_ENV, "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.smpt.EmailBackend"}

    result = run_django(["check"], env)

    assert result.returncode != 0
    assert "cannot be imported" in result.stderr


def test_deploy_check_reports_the_console_backend_as_an_error():
    # Debug on (the local defaults) starts, but is not ready to deploy.
    result = run_django(["check", "--deploy"], {})

    assert result.returncode != 0
    assert "maintplan.E001" in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("backend", "ids"),
    [(CONSOLE, ["maintplan.E001"]), (f"{__name__}.LoudBackend", ["maintplan.E001"]), (SMTP, [])],
)
def test_the_email_check_errs_on_any_backend_that_writes_locally(settings, backend, ids):
    settings.EMAIL_BACKEND = backend

    assert [message.id for message in email_backend_check()] == ids


def test_links_are_built_from_site_url(settings):
    settings.SITE_URL = "https://maintplan.example.com"

    assert site_link("/profile/") == "https://maintplan.example.com/profile/"
