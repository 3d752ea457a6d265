"""The product's routes plus two that fail, to test the 500 answers."""

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ApiView
from config.urls import handler500
from config.urls import urlpatterns as product_urlpatterns

SECRET_IN_ERROR = "Bearer mpk_leakedSecretValue0123456789abcdefXYZ"


class ExplodingApi(ApiView):
    def get(self, request: Request) -> Response:
        raise RuntimeError(f"boom with {SECRET_IN_ERROR}")


def exploding_plain_view(request):
    raise RuntimeError(f"plain boom with {SECRET_IN_ERROR}")


urlpatterns = [
    path("api/v1/test/explode", ExplodingApi.as_view()),
    path("api/v1/test/explode-plain", exploding_plain_view),
    *product_urlpatterns,
]

__all__ = ["handler500", "urlpatterns"]
