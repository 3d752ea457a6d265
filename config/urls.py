from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import include, path, re_path
from django.views import defaults

from integrations.errors import ApiError, api_not_found, error_json_response

api_v1 = [
    path("", include("accounts.api_urls")),
    path("", include("integrations.api_urls")),
    path("", include("planning.api_urls")),
]

urlpatterns = [
    path("", lambda request: redirect("planning:plan_list"), name="home"),
    path("accounts/", include("accounts.urls")),
    path("profile/integrations/", include("integrations.urls")),
    path("plans/", include("planning.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    # Everything else under /api/ is the JSON 404, whatever the method.
    re_path(r"^api(?:/.*)?$", api_not_found),
]


def handler500(request: HttpRequest) -> HttpResponse:
    """The JSON envelope under /api/, Django's plain page elsewhere (never a traceback)."""
    if request.path.startswith("/api/"):
        return error_json_response(request, ApiError("server.error"))
    return defaults.server_error(request)
