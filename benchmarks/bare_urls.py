"""The product's URLs plus /bench/bare, used only by benchmarks/bench_session_check.py."""

from django.urls import path

from benchmarks.bare_views import bare_api_key_lookup
from config.urls import handler500
from config.urls import urlpatterns as product_urlpatterns

__all__ = ["handler500", "urlpatterns"]

urlpatterns = [path("bench/bare", bare_api_key_lookup), *product_urlpatterns]
