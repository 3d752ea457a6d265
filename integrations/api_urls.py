from __future__ import annotations

from django.urls import path

from integrations import api

urlpatterns = [
    path(
        "auth/session/api-key",
        api.ApiKeySessionCheckApi.as_view(),
        name="api-session-api-key",
    ),
]
