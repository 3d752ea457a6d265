"""Settings for the benchmark server: the product's settings plus the bare comparison view."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.bare_urls"
