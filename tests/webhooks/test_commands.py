from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from planning.models import PlanRole
from tests.factories import PlanFactory, PlanMembershipFactory
from webhooks.models import WebhookEndpoint
from webhooks.signing import secret_decrypt

pytestmark = pytest.mark.django_db


def _add_webhook(*args: str) -> str:
    out = io.StringIO()
    call_command("add_webhook", *args, stdout=out)
    return out.getvalue()


def test_add_webhook_prints_the_secret_alone(user: Any) -> None:
    printed = _add_webhook(user.email, "https://93.184.215.14/hooks")
    endpoint = WebhookEndpoint.objects.get(owner=user)
    assert printed == secret_decrypt(endpoint.secret_encrypted) + "\n"
    assert endpoint.all_plans


def test_add_webhook_limited_to_plans(user: Any) -> None:
    plans = PlanFactory.create_batch(2)
    for plan in plans:
        PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    _add_webhook(
        user.email,
        "https://93.184.215.14/hooks",
        "--plan",
        str(plans[0].number),
        "--plan",
        str(plans[1].number),
    )
    endpoint = WebhookEndpoint.objects.get()
    assert not endpoint.all_plans and set(endpoint.plans.all()) == set(plans)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobody@example.com", "https://93.184.215.14/"], "No user with the email"),
        (["{email}", "http://93.184.215.14/"], "must start with https://"),
        (["{email}", "https://127.0.0.1/"], "loopback"),
        (["{email}", "https://93.184.215.14/", "--plan", "{other}"], "is not a member of plan"),
    ],
)
def test_add_webhook_refuses_with_a_clear_error(user: Any, args: list[str], message: str) -> None:
    other = PlanFactory.create()
    filled = [a.format(email=user.email, other=other.number) for a in args]
    with pytest.raises(CommandError, match=message):
        _add_webhook(*filled)
    assert not WebhookEndpoint.objects.exists()
