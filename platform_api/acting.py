"""What every act of the platform shares (docs/subsystems/integrator-api.md "Acts"): who may act
(a `read_write` key whose holder may change the plan), the base view, and the body's known
fields."""

from __future__ import annotations

import uuid
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from api.base import IntegratorApiView
from api.errors import ApiError
from api.parsers import json_object_body
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey
from apikeys.selectors import key_holder_may_change_plan, plan_for_key
from planning.models import Plan
from platform_api.base import key_of
from platform_api.params import plan_number_parse

# A read_write key whose holder may only view the plan.
HOLDER_MAY_NOT_CHANGE = (
    "You may view this plan but not change it: a key acts with at most its holder's rights "
    "on the plan."
)


def may_act(request: Request, plan: Plan) -> None:
    """A key with the read_write permission whose holder may change the plan (the web app's
    rule). Checked once the plan is known to be one the key may read, so a plan it may not see
    is exactly a missing plan's 404 for any key."""
    api_key = key_of(request)
    if api_key.permission != ApiKey.Permission.READ_WRITE:
        raise ApiError("auth.insufficient_permission")
    if not key_holder_may_change_plan(api_key=api_key, plan=plan):
        raise ApiError("auth.insufficient_permission", HOLDER_MAY_NOT_CHANGE)


def uuid_or_none(raw: str) -> Any:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


class ActApi(IntegratorApiView):
    authentication_classes = [ApiKeyAuthentication]


def body_fields(request: Request, fields: set[str]) -> dict[str, Any]:
    """The body's `fields`; a field the request does not know is ignored, as on the session
    check and as the schema allows (a client may send fields a later version reads)."""
    body = json_object_body(request)
    return {name: value for name, value in body.items() if name in fields}


def acting_plan(request: Request, plan_number: str) -> Plan:
    """The plan of the path, for a key that may act on it (`may_act`)."""
    plan = plan_for_key(api_key=key_of(request), number=plan_number_parse(plan_number))
    may_act(request, plan)
    return plan


def body_validated(serializer: serializers.Serializer) -> dict[str, Any]:
    """The body's fields as `serializer` reads them, or 400 `validation.failed` naming each."""
    if not serializer.is_valid():
        raise ApiError("validation.failed", errors=serializer.errors)
    return dict(serializer.validated_data)
