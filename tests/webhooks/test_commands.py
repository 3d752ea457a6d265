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
        (["nobody@example.com", "https://93.184.215.14/"], "No account has the email address"),
        (["{email}", "http://93.184.215.14/"], "must start with https://"),
        (["{email}", "https://127.0.0.1/"], "cannot receive webhooks"),
        (["{email}", "https://93.184.215.14/", "--plan", "{other}"], "cannot see plan"),
        (["--org", "no-such-organisation", "https://93.184.215.14/"], "No organisation has"),
    ],
)
def test_add_webhook_refuses_with_a_clear_error(user: Any, args: list[str], message: str) -> None:
    other = PlanFactory.create()
    filled = [a.format(email=user.email, other=other.number) for a in args]
    with pytest.raises(CommandError, match=message):
        _add_webhook(*filled)
    assert not WebhookEndpoint.objects.exists()


def test_add_webhook_for_an_organisation_takes_its_plans_only(user: Any) -> None:
    from organisations.services import organisation_create
    from planning.plans.services.plans import plan_create

    co_op = organisation_create(name="Harbour Co-op", owner=user)
    mine = plan_create(owner=user, name="Harbour 1", organisation=co_op)
    personal = plan_create(owner=user, name="Mine")

    printed = _add_webhook(
        "--org", co_op.slug, "https://93.184.215.14/", "--plan", str(mine.number)
    )
    with pytest.raises(CommandError, match="cannot see plan"):
        _add_webhook("--org", co_op.slug, "https://93.184.215.14/", "--plan", str(personal.number))

    endpoint = WebhookEndpoint.objects.get()
    assert printed.startswith("whsec_")
    assert (endpoint.organisation, endpoint.owner, list(endpoint.plans.all())) == (
        co_op,
        None,
        [mine],
    )
