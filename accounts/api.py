"""JSON routes of the web app: password registration and login (not in the public schema)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import login
from django.utils.decorators import method_decorator
from django.views.decorators.debug import sensitive_post_parameters
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.forms import LoginForm, RegistrationForm
from accounts.payloads import user_payload
from accounts.services import user_register
from api.base import ApiView
from api.envelope import api_response
from api.errors import ApiError
from api.parsers import json_object_body
from api.throttling import ClientAddressThrottle


def _form_errors(form: Any) -> dict[str, list[str]]:
    return {field: [str(message) for message in errors] for field, errors in form.errors.items()}


@extend_schema(exclude=True)
@method_decorator(sensitive_post_parameters("password"), name="dispatch")
class UserRegisterApi(ApiView):
    throttle_classes = [ClientAddressThrottle]

    def post(self, request: Request) -> Response:
        form = RegistrationForm(json_object_body(request))
        if not form.is_valid():
            raise ApiError("validation.failed", errors=_form_errors(form))
        user = user_register(
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password"],
            name=form.cleaned_data["name"],
        )
        return api_response(
            request,
            user_payload(user),
            message="Account created.",
            message_key="auth.registered",
            status=201,
        )


@extend_schema(exclude=True)
@method_decorator(sensitive_post_parameters("password"), name="dispatch")
class UserLoginApi(ApiView):
    throttle_classes = [ClientAddressThrottle]

    def post(self, request: Request) -> Response:
        form = LoginForm(json_object_body(request), request=request._request)
        if not form.is_valid():
            if form.credentials_rejected:
                raise ApiError("auth.invalid_credentials")
            raise ApiError("validation.failed", errors=_form_errors(form))
        assert form.user is not None
        login(request._request, form.user)
        return api_response(
            request, user_payload(form.user), message="Logged in.", message_key="auth.logged_in"
        )
