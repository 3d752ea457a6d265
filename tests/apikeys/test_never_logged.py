"""The raw key appears in no log line, no admin page and no database column."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from tests.apikeys.conftest import session_check

KEY_PATTERN = re.compile(r"mpk_[0-9A-Za-z]{38}")


@pytest.fixture
def all_log_output() -> Iterator[io.StringIO]:
    """Everything the real JSON handler on the root logger writes, at DEBUG, SQL included."""
    root = logging.getLogger()
    (handler,) = [h for h in root.handlers if h.get_name() == "stdout"]
    assert isinstance(handler, logging.StreamHandler)
    captured = io.StringIO()
    handler.stream = captured  # core.observability.StdoutHandler: pins the stream
    sql_logger = logging.getLogger("django.db.backends")
    previous_levels = root.level, sql_logger.level
    root.setLevel(logging.DEBUG)
    sql_logger.setLevel(logging.DEBUG)
    connection.force_debug_cursor = True  # django.db.backends logs every statement
    try:
        yield captured
    finally:
        connection.force_debug_cursor = False
        root.setLevel(previous_levels[0])
        sql_logger.setLevel(previous_levels[1])
        handler.stream = None


def test_raw_key_is_in_no_log_line_and_no_database_column(
    client: Client, user: Any, all_log_output: io.StringIO, caplog: Any
) -> None:
    api_access_set(user=user, enabled=True)
    client.force_login(user)

    created = client.post("/profile/integrations/api-keys/new/", {"name": "Lifecycle"}, follow=True)
    (raw,) = set(KEY_PATTERN.findall(created.content.decode()))
    api_key = ApiKey.objects.get(owner=user)

    assert session_check(client, f"Bearer {raw}").status_code == 200
    assert session_check(client, f"Bearer {raw}", body="{broken").status_code == 400
    assert session_check(client, f"Bearer  {raw}").status_code == 401
    assert session_check(client, f"Bearer {raw[:-1]}").status_code == 401
    client.get("/profile/integrations/api-keys/")
    client.post(f"/profile/integrations/api-keys/{api_key.pk}/revoke/")
    assert session_check(client, f"Bearer {raw}").status_code == 401

    logs = all_log_output.getvalue()
    assert '"logger": "maintplan.request"' in logs  # the capture did see the request lines
    assert api_key.key_hash in logs  # ... and the SQL of the lookup
    assert raw not in logs
    assert raw[4:-6] not in logs  # not even the random part without prefix and checksum
    assert raw not in caplog.text

    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert api_key.key_hash in dump.getvalue()
    assert raw not in dump.getvalue()
    assert raw[4:-6] not in dump.getvalue()


def test_admin_shows_neither_raw_key_nor_hash(client: Client, superuser: Any) -> None:
    api_key, raw = api_key_create(user=superuser, name="Admin's key")
    client.force_login(superuser)
    changelist = client.get("/admin/integrations/apikey/")
    detail = client.get(f"/admin/integrations/apikey/{api_key.pk}/change/")
    assert changelist.status_code == 200
    assert detail.status_code == 200
    for page in (changelist, detail):
        html = page.content.decode()
        assert "Admin&#x27;s key" in html
        assert raw not in html
        assert api_key.key_hash not in html


def test_admin_cannot_add_a_key(client: Client, superuser: Any) -> None:
    client.force_login(superuser)
    assert client.get("/admin/integrations/apikey/add/").status_code == 403


def test_admin_revoke_action_revokes(client: Client, superuser: Any) -> None:
    api_key, _raw = api_key_create(user=superuser, name="x")
    client.force_login(superuser)
    client.post(
        "/admin/integrations/apikey/",
        {"action": "revoke_selected", "_selected_action": [str(api_key.pk)]},
    )
    api_key.refresh_from_db()
    assert api_key.revoked_at is not None
