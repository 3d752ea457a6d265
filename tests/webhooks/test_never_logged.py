"""A signing secret appears in no log line and no database column, from its creation through
deliveries signed with it."""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from tests.apikeys.test_never_logged import all_log_output  # noqa: F401 (a fixture)
from tests.webhooks.conftest import Receiver
from webhooks.models import WebhookDelivery, WebhookEndpoint
from webhooks.tasks import webhook_deliver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("private_targets")]

SECRET = re.compile(r"whsec_[0-9A-Za-z]{32}")


def test_the_secret_is_in_no_log_line_and_no_database_column(
    client: Client,
    user: Any,
    receiver: Receiver,
    all_log_output: io.StringIO,  # noqa: F811
    caplog: Any,
) -> None:
    client.force_login(user)
    created = client.post(
        "/profile/integrations/webhooks/new/", {"url": receiver.url, "plan_scope": "all"}
    )
    (secret,) = SECRET.findall(client.get(created["Location"]).content.decode())
    endpoint = WebhookEndpoint.objects.get()
    client.post(f"/profile/integrations/webhooks/{endpoint.pk}/test/")
    webhook_deliver.call(delivery_id=WebhookDelivery.objects.get().pk, attempt=1)
    logging.getLogger("maintplan.webhooks").warning("a careless line: %s", secret)

    assert len(receiver.received) == 1
    logs = all_log_output.getvalue()
    assert endpoint.secret_encrypted in logs  # the capture saw the SQL that stores it
    assert secret not in logs and secret[6:] not in logs
    assert "whsec_[REDACTED]" in logs  # even a careless log line is redacted

    dump = io.StringIO()
    call_command("dumpdata", stdout=dump)
    assert endpoint.secret_encrypted in dump.getvalue()
    assert secret not in dump.getvalue() and secret[6:] not in dump.getvalue()
