from __future__ import annotations

import sys

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularSwaggerSplitView

from accounts import views as accounts_views
from api.base import ANSWERED_METHODS
from api.errors import (
    UNAVAILABLE_RETRY_AFTER,
    ApiError,
    api_not_found,
    database_unavailable,
    error_json_response,
)
from api.schema import PublicSchemaView
from core import health

api_v1: list[URLPattern | URLResolver] = [
    path("", include("accounts.api_urls")),
    path("", include("platform_api.urls")),
    # The public schema (api.schema): JSON, or YAML on request; ETag and gzip.
    path("schema/", PublicSchemaView.as_view(), name="api-schema"),
    # The split view serves the start-up script from its own URL (?script), so the page has no
    # inline script for the Content-Security-Policy to refuse.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema",
            template_name="api/swagger_ui.html",
            http_method_names=ANSWERED_METHODS,
        ),
        name="api-docs",
    ),
]

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("", accounts_views.home_page, name="home"),
    # Browsers ask for it on pages that name no icon (the admin): no icon, and no 404 either.
    path("favicon.ico", lambda request: HttpResponse(status=204), name="favicon"),
    path("accounts/", include("accounts.urls")),
    path("profile/", include("accounts.profile_urls")),
    path("", include("webhooks.urls")),
    path("", include("planning.web.urls.catalog")),
    path("", include("planning.web.urls.portfolio")),
    path("", include("apikeys.urls")),
    path("organisations/", include("organisations.urls")),
    path("invitations/", include("organisations.invitation_urls")),
    path("plans/", include("planning.web.urls.plans")),
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    # Everything else under /api/ is the JSON 404, whatever the method (CSRF-exempt like every
    # API view: a POST without a CSRF cookie is still a 404, not the CSRF failure page).
    re_path(r"^api(?:/.*)?$", csrf_exempt(api_not_found)),
]


def handler500(request: HttpRequest) -> HttpResponse:
    """The JSON envelope under /api/, Django's plain page elsewhere (never a traceback).

    An unreachable database (raised anywhere, a middleware's session read included) is a 503
    with Retry-After instead: the client may simply try again."""
    if database_unavailable(sys.exc_info()[1]):
        retry = {"Retry-After": str(UNAVAILABLE_RETRY_AFTER)}
        if request.path.startswith("/api/"):
            return error_json_response(request, ApiError("server.unavailable", headers=retry))
        page = HttpResponse(render_to_string("503.html"), status=503, headers=retry)
        return page
    if request.path.startswith("/api/"):
        return error_json_response(request, ApiError("server.error"))
    return defaults.server_error(request)
