from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import Client

from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from planning.catalog.services import code_catalog_defaults_load
from tests.factories import TEST_PASSWORD, UserFactory
from tests.openapi_contract import assert_conforms

# Playwright's sync API runs an event loop in the test thread; the ORM calls made by fixtures in
# that same thread are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_configure(config: pytest.Config) -> None:
    """`MAINTPLAN_TEST_CLOCK=2026-12-31T23:58` runs the whole suite as if started then (the
    clock keeps ticking from there): a test that passes only on some days is found on a
    machine's own day instead of in CI's December (README.md, "Other targets")."""
    moment = os.environ.get("MAINTPLAN_TEST_CLOCK")
    if moment:
        import time_machine

        time_machine.travel(moment, tick=True).start()


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> None:
    """PBKDF2's deliberate slowness costs ~0.3 s per login in tests and proves nothing here."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def _files_in_a_temporary_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Uploaded photos and documents go to a folder of the test session, never to data/."""
    from django.conf import settings
    from django.test.utils import override_settings

    files = tmp_path_factory.mktemp("files")
    storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    with override_settings(
        STORAGES={**settings.STORAGES, "default": {**storage, "OPTIONS": {"location": files}}}
    ):
        yield


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    """Throttle counters and rendered lists live in caches; every test starts with none."""
    for alias in ("default", "suggestion_lists", "progress"):
        caches[alias].clear()
    yield
    for alias in ("default", "suggestion_lists", "progress"):
        caches[alias].clear()


@pytest.fixture(autouse=True)
def _public_responses_match_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every response of a public operation that any test receives must match the schema."""
    original = Client.request

    def request_and_check(self: Client, **request: Any) -> Any:
        response = original(self, **request)
        assert_conforms(request["REQUEST_METHOD"], request["PATH_INFO"], response)
        return response

    monkeypatch.setattr(Client, "request", request_and_check)


@pytest.fixture
def user(db: Any) -> Any:
    return UserFactory(password=TEST_PASSWORD)


@pytest.fixture
def api_user(user: Any) -> Any:
    """The `user` fixture with API access switched on (the policy is on by default)."""
    api_access_set(user=user, enabled=True)
    return user


@pytest.fixture
def api_key_and_raw(api_user: Any) -> tuple[ApiKey, str]:
    """A live API key of `api_user` and its raw value (shown once, never stored)."""
    return api_key_create(user=api_user, name="ERP sync")


@pytest.fixture
def raw_key(api_key_and_raw: tuple[ApiKey, str]) -> str:
    """The raw key of `api_key_and_raw`, as the `Authorization: Bearer` header takes it."""
    return api_key_and_raw[1]


@pytest.fixture
def starter_catalog(db: Any) -> None:
    """The starter catalog of migration 0003. A transactional test (browser, concurrency) empties
    every table after it ran, migration data included, so tests that need the catalog ask for it.
    """
    code_catalog_defaults_load()


@pytest.fixture
def requires_postgres(db: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run `make test-postgres`)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium driven by Playwright; never a downloaded browser."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's chromium package (see .ci/run)")
        pytest.skip("no browser: install Debian's `chromium` package to run browser tests")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """Opens pages in fresh browser contexts (`new_page(**context_options)`, e.g.
    `permissions=[...]`) on the live server; a console error in any of them fails the test."""
    contexts: list[Any] = []
    console_errors: list[str] = []

    def open_page(**context_options: Any) -> Any:
        context = browser.new_context(base_url=live_server.url, **context_options)
        contexts.append(context)
        opened = context.new_page()
        opened.on(
            "console", lambda msg: console_errors.append(msg.text) if msg.type == "error" else None
        )
        opened.on("pageerror", lambda exc: console_errors.append(str(exc)))
        return opened

    yield open_page
    for context in contexts:
        context.close()
    assert console_errors == [], f"browser console errors: {console_errors}"


@pytest.fixture
def page(new_page: Callable[..., Any]) -> Any:
    """A page in a fresh browser context whose console errors fail the test."""
    return new_page()


def browser_login(page: Any, email: str, password: str = TEST_PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url("**/plans/**")


def run_queued_jobs() -> int:
    """Runs every due job of the django-tasks-db queue in this thread, as `manage.py db_worker`
    would (without its connection handling, which would end a test's transaction); returns how
    many ran. A job that fails fails the test."""
    from django_tasks_db.models import DBTaskResult

    count = 0
    while (result := DBTaskResult.objects.ready().first()) is not None:
        result.claim("tests")
        task_result = result.task_result
        try:
            result.task.call(*task_result.args, **task_result.kwargs)
        except BaseException as error:
            result.set_failed(error)
            raise
        result.set_successful(None)
        count += 1
    return count


@pytest.fixture
def suggestion_events_only() -> Any:
    """Only `suggestions.changed` events are written (the plan data events' receiver is off),
    for tests that count the outbox's suggestion events; tests/webhooks/test_plan_events.py
    covers the plan data events."""
    from planning.core.writes import plan_changed
    from webhooks.plan_events import plan_data_changes_receive

    plan_changed.disconnect(dispatch_uid="webhooks.plan_data")
    yield
    plan_changed.connect(plan_data_changes_receive, dispatch_uid="webhooks.plan_data")
