from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.webhooks.factories import endpoint_for

pytestmark = pytest.mark.django_db


def test_the_admin_shows_endpoints_without_their_secret(client: Client, user: Any) -> None:
    endpoint, secret = endpoint_for(user)
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))

    listing = client.get(reverse("admin:webhooks_webhookendpoint_changelist"))
    change = client.get(reverse("admin:webhooks_webhookendpoint_change", args=[endpoint.pk]))

    for page in (listing, change):
        assert page.status_code == 200
        body = page.content.decode()
        assert endpoint.url in body
        assert secret not in body and endpoint.secret_encrypted not in body
