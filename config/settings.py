"""Maintplan settings, read from the environment.

Every variable has a default that is safe for local use (`make run`); a production deployment
sets at least DJANGO_DEBUG=false, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS, DATABASE_URL and
DJANGO_EMAIL_BACKEND. With debug off the process refuses to start on the development secret key
or an email backend that writes mail to the console or a file (see README, "Configuration").
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from core.env import env_bool, env_choice, env_int, env_list, env_ports, env_str
from core.files import files_storage
from core.mail import email_backend_writes_locally

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(env_str("MAINTPLAN_DATA_DIR", str(BASE_DIR / "data")))

DEVELOPMENT_SECRET_KEY = "django-insecure-development-key-do-not-use-in-production"  # noqa: S105

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", DEVELOPMENT_SECRET_KEY)
# With debug off, a key that Django's own deploy check (security.W009) calls weak stops the
# process here, instead of a warning nobody reads: under 50 characters, under 5 distinct
# characters, or the "django-insecure-" prefix of generated development keys.
if not DEBUG and (
    SECRET_KEY == DEVELOPMENT_SECRET_KEY
    or len(SECRET_KEY) < 50
    or len(set(SECRET_KEY)) < 5
    or SECRET_KEY.startswith("django-insecure-")
):
    raise ImproperlyConfigured(
        "DJANGO_DEBUG is off but DJANGO_SECRET_KEY is unset, the development key, or weak "
        "(fewer than 50 characters, fewer than 5 distinct characters, or the "
        "'django-insecure-' prefix). Generate one with: python -c 'import secrets; "
        "print(secrets.token_urlsafe(64))'"
    )

# Django's technical 404 page (every URL pattern) instead of the app's under DEBUG.
DEBUG_TECHNICAL_404 = env_bool("DJANGO_DEBUG_TECHNICAL_404", False)

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks",
    "django_tasks_db",
    "axes",
    "csp",
    "core",
    "api",
    "jobs",
    "accounts",
    "organisations",
    "planning",
    "apikeys",
    "webhooks",
    "platform_api",
]

MIDDLEWARE = [
    "core.observability.RequestContextMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "api.middleware.ApiHttpsRequiredMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The signed-in person (or an API key's service account) is who acts (accounts.actor).
    "accounts.middleware.ActorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Under DEBUG (make run) an HTML 404 is the app's page, as in production (core/not_found.py).
    "core.not_found.AppNotFoundPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Cache-Control: no-store on every answer to a signed-in browser.
    "accounts.middleware.NoStoreWhenSignedInMiddleware",
    # Turns a login refused by the lockout (axes.backends) into its 429 answer.
    "axes.middleware.AxesMiddleware",
    # Last, so every other middleware's headers reach its 413 and nothing has read the body yet.
    "api.middleware.ApiBodyLimitMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{DATA_DIR / 'maintplan.sqlite3'}")
DATABASES = {
    # Health checks: a persistent connection that died (a database restart) is replaced at
    # the start of the next request instead of failing it.
    "default": dj_database_url.parse(
        DATABASE_URL,
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60, minimum=0),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    # IMMEDIATE makes a writing transaction take SQLite's write lock at BEGIN, so two
    # concurrent writers queue (up to `timeout`) instead of failing half-way with
    # "database is locked"; WAL lets readers go on meanwhile.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    DATABASES["default"]["CONN_MAX_AGE"] = 0
# PostgreSQL: the API's key and plan lookups run as statements each connection prepares once
# (docs/subsystems/api-lookup.md "The key and the plan of a request"). Off behind a pooler
# that shares server connections between clients per transaction.
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Background jobs: the job queue is a table of the database (`manage.py db_worker` runs it).
# Two queues: "default" for `manage.py db_worker`, "webhooks" (the delivery attempts) for
# `manage.py deliver_webhooks`, which runs WEBHOOK_DELIVERY_THREADS attempts at once, at most one
# per endpoint (docs/subsystems/webhooks.md "Dispatcher: one slow receiver delays nobody else").
TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default", "webhooks"]}
}
WEBHOOK_DELIVERY_THREADS = env_int("WEBHOOK_DELIVERY_THREADS", 8, minimum=1)
# A web change or an import is followed by a sync of the plan this many seconds later, so
# webhook receivers hear of new suggestions without anyone listing them.
SYNC_AFTER_CHANGE_SECONDS = env_int("SYNC_AFTER_CHANGE_SECONDS", 5, minimum=0)
# How often the events process (`manage.py deliver_webhooks`) looks for plans with changes no
# sync has taken in (made in the admin, a shell, raw SQL) and syncs them: their events follow
# within this many seconds plus the sync (docs/subsystems/sync.md "Changes from anywhere").
PENDING_SYNC_SWEEP_SECONDS = env_int("PENDING_SYNC_SWEEP_SECONDS", 10, minimum=1)
# A running import holds a lease of this length on its row, renewed as it reports progress; an
# import whose lease ran out is taken for dead (its worker was killed) and run again (jobs.leases);
# after IMPORT_MAX_ATTEMPTS starts the import fails for good.
IMPORT_LEASE_SECONDS = env_int("IMPORT_LEASE_SECONDS", 30, minimum=1)
IMPORT_MAX_ATTEMPTS = env_int("IMPORT_MAX_ATTEMPTS", 3, minimum=1)
# Per-account shares of the one job queue (docs/subsystems/limits.md "Shares of the job queue"),
# counted under the account's row lock: imports not yet finished (queued or running), and test-event
# deliveries still pending.
IMPORTS_QUEUED_MAX = env_int("IMPORTS_QUEUED_MAX", 2, minimum=1)
WEBHOOK_TEST_EVENTS_PENDING_MAX = env_int("WEBHOOK_TEST_EVENTS_PENDING_MAX", 3, minimum=1)
REPORTS_QUEUED_MAX = env_int("REPORTS_QUEUED_MAX", 2, minimum=1)
# Board reports (planning.reports.jobs): a running one holds its lease this long (printing the PDF
# cannot renew it midway, so it is longer than the largest plan takes); a plan keeps its newest
# REPORTS_KEPT_PER_PLAN finished reports.
REPORT_LEASE_SECONDS = env_int("REPORT_LEASE_SECONDS", 180, minimum=1)
REPORT_MAX_ATTEMPTS = env_int("REPORT_MAX_ATTEMPTS", 2, minimum=1)
REPORTS_KEPT_PER_PLAN = env_int("REPORTS_KEPT_PER_PLAN", 5, minimum=1)

# --- Cache (throttling counters). Point REDIS_URL at Redis when running several servers. ----
REDIS_URL = env_str("REDIS_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "maintplan"}
    ),
    # Rendered whole suggestion lists (platform_api.list_cache): entries of up to tens
    # of MB, so the per-process fallback keeps only a few.
    "suggestion_lists": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "maintplan-suggestion-lists",
            "OPTIONS": {"MAX_ENTRIES": 4, "CULL_FREQUENCY": 2},
        }
    ),
    # Progress of running jobs (planning.transfer.imports.jobs), written by the worker and read by
    # the web process: it must be shared between processes, so without Redis it is files.
    "progress": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "progress"),
        }
    ),
}

# --- Accounts -------------------------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "planning:plan_list"
LOGOUT_REDIRECT_URL = "accounts:login"
# Every password check goes through django-axes first: a lockout per (account, address) pair,
# and across addresses a per-account delay (accounts.lockout; docs/subsystems/limits.md has
# the numbers). The counters live in the default cache (Redis with REDIS_URL).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Lines of Profile > Security log older than this are deleted by `manage.py api_key_notices`.
SECURITY_LOG_DAYS = env_int("SECURITY_LOG_DAYS", 90, minimum=1)
AXES_HANDLER = "accounts.lockout.AccountCeilingCacheHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1))
LOGIN_ACCOUNT_FAILURE_LIMIT = env_int("LOGIN_ACCOUNT_FAILURE_LIMIT", 30, minimum=1)
LOGIN_ACCOUNT_MAX_DELAY_MINUTES = env_int("LOGIN_ACCOUNT_MAX_DELAY_MINUTES", 60, minimum=1)
# A refused attempt during the lockout does not extend it (the Retry-After stays true).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"
AXES_CLIENT_IP_CALLABLE = "api.throttling.client_address"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
AXES_VERBOSE = False
# The attempts live in the cache, so axes' admin pages (its database tables) would stay empty.
AXES_ENABLE_ADMIN = False
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Email (password reset, key expiry reminders, disabled webhooks): console unless set -----
EMAIL_BACKEND = env_str("DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
# A reset email's link logs its reader in: with debug off, mail written to stdout (the default)
# or to a file would hand it to whoever reads the logs, so the process does not start.
if not DEBUG and email_backend_writes_locally(EMAIL_BACKEND):
    raise ImproperlyConfigured(
        f"DJANGO_DEBUG is off but the email backend {EMAIL_BACKEND!r} writes mail to the console "
        "or a file, password reset links included. Set DJANGO_EMAIL_BACKEND to "
        "django.core.mail.backends.smtp.EmailBackend and EMAIL_HOST/EMAIL_PORT to your server."
    )
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# Where links in emails point (the address people open the web app at; core.mail.site_link):
# never the Host header of the request that caused the email.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Maintplan <maintplan@localhost>")

# --- I18N / static ---------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every request otherwise
STATICFILES_DIRS = [BASE_DIR / "static"]
# Photos and documents: the data folder's files/, or S3 (core.files; never a public URL).
STORAGES = {
    "default": files_storage(files_root=DATA_DIR / "files"),
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024

# --- Security (on whenever debug is off; `manage.py check --deploy` is clean then) ----------
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("DJANGO_BEHIND_TLS_PROXY", False) else None
)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", not DEBUG)
# Plain http under /api is refused with 403 instead (api.middleware.ApiHttpsRequiredMiddleware).
SECURE_REDIRECT_EXEMPT = [r"^api(/|$)"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", SECURE_HSTS_SECONDS > 0)
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy of every answer (django-csp): scripts and style sheets only from this
# origin, never inline (the pages load their JavaScript from static files). Style *attributes*
# stay allowed: they cannot run code, and the planning grid indents rows with them.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "style-src-attr": ["'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}
DEFAULT_EXCEPTION_REPORTER_FILTER = "core.observability.RedactingExceptionReporterFilter"

# --- API ---------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JsonObjectParser"],
    # OPTIONS answers 405 in the envelope instead of DRF's metadata document.
    "DEFAULT_METADATA_CLASS": None,
    # Client address for per-address throttling: REMOTE_ADDR unless the operator says how many
    # proxies append to X-Forwarded-For (a client can write that header itself).
    "NUM_PROXIES": env_int("DJANGO_NUM_PROXIES", 0, minimum=0),
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "api.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
# Read on every request (api.throttling): tests and operators change them without a restart.
MAINTPLAN_THROTTLE_RATES = {
    "auth": env_str("AUTH_THROTTLE_RATE", "20/minute"),
    "api_key": env_str("API_KEY_THROTTLE_RATE", "600/minute"),
    # Every key of one account together: more keys do not buy more requests.
    "api_user": env_str("API_USER_THROTTLE_RATE", "1200/minute"),
    # Failed authentications under /api/v1: per address and presented key; per address (ceiling).
    "api_auth_failure": env_str("API_AUTH_FAILURE_THROTTLE_RATE", "20/minute"),
    "api_auth_failure_address": env_str("API_AUTH_FAILURE_ADDRESS_THROTTLE_RATE", "300/minute"),
    # The members form's "add by email" per account: its answer tells whether an email has an
    # account, so it must not serve as an oracle.
    "member_add": env_str("MEMBER_ADD_THROTTLE_RATE", "30/hour"),
    # Password reset requests (accounts.throttles): per client address, and per email as typed
    # from any address, counted whether or not an account has it.
    "password_reset_address": env_str("PASSWORD_RESET_ADDRESS_THROTTLE_RATE", "10/hour"),
    "password_reset_account": env_str("PASSWORD_RESET_ACCOUNT_THROTTLE_RATE", "3/hour"),
}
API_KEY_PREFIX = env_str("API_KEY_PREFIX", "mpk_")
API_ACCESS_REQUIRES_GRANT = env_bool("API_ACCESS_REQUIRES_GRANT", True)
API_KEY_LAST_USED_RESOLUTION_SECONDS = 60
# Keys of one account that are neither revoked nor expired (docs/subsystems/limits.md "Limits").
API_KEYS_MAX_ACTIVE = env_int("API_KEYS_MAX_ACTIVE", 20, minimum=1)
# Largest request body under /api/ (api.middleware.ApiBodyLimitMiddleware); larger is a 413.
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 1024 * 1024, minimum=1)

# --- Suggestions -------------------------------------------------------------------------------
SUGGESTION_COST_THRESHOLDS = {"info": 0.25, "warning": 0.5, "critical": 1.0}
SUGGESTION_TIMING_THRESHOLDS = {"info": 2, "warning": 5}
IMPORT_MAX_BYTES = env_int("IMPORT_MAX_BYTES", 32 * 1024 * 1024, minimum=1)

# --- Webhooks (docs/subsystems/webhooks.md "Webhooks") -----------------------------------------
# Off: only https URLs whose host resolves to public addresses (checked at save and at each
# delivery). On, for development and tests: http and loopback/private receivers too.
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", False)
# The ports a webhook URL may name while private targets are off (webhooks.targets).
WEBHOOK_ALLOWED_PORTS = env_ports("WEBHOOK_ALLOWED_PORTS", [443, 8443])

# --- Plan size (docs/subsystems/limits.md "Limits"): imports, additions and generate_plan stop
# here.
PLAN_MAX_NODES = env_int("PLAN_MAX_NODES", 50_000, minimum=1)
PLAN_MAX_ACTIONS = env_int("PLAN_MAX_ACTIONS", 250_000, minimum=0)
# The currency a new plan starts with (an ISO 4217 code; each plan can change its own).
PLAN_DEFAULT_CURRENCY = env_str("PLAN_DEFAULT_CURRENCY", "EUR").strip().upper()
if not (len(PLAN_DEFAULT_CURRENCY) == 3 and PLAN_DEFAULT_CURRENCY.isalpha()):
    raise ImproperlyConfigured(
        f"PLAN_DEFAULT_CURRENCY must be a 3-letter currency code, got {PLAN_DEFAULT_CURRENCY!r}"
    )

# --- Logging: one JSON object per line on stdout, secrets redacted by a filter -------------
LOG_LEVEL = env_choice("LOG_LEVEL", "INFO", {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"})
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "core.observability.RedactSecretsFilter"},
        "database_unavailable": {"()": "core.observability.DatabaseUnavailableFilter"},
    },
    "formatters": {"json": {"()": "core.observability.JsonFormatter"}},
    "handlers": {
        "stdout": {
            "class": "core.observability.StdoutHandler",
            "formatter": "json",
            "filters": ["redact"],
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        # The request line comes from our middleware; Django's own access lines would repeat it.
        "django.server": {"level": "WARNING", "propagate": True},
        # django-axes logs every successful login at INFO; its failures and lockouts are WARNING.
        "axes": {"level": "WARNING", "propagate": True},
        # A 503 for an unreachable database leaves here as a WARNING line (see the filter).
        "django.request": {
            "level": "ERROR",
            "propagate": True,
            "filters": ["database_unavailable"],
        },
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Maintplan integration API",
    "DESCRIPTION": (
        "Read maintenance plans (nodes, actions, projects, history, adopted versions), list "
        "and act on their suggestions, replay events, and check an API key. Every response is "
        "the envelope `{success, message, messageKey, data, traceId}`. Authenticate with "
        "`Authorization: Bearer <key>`; keys are created under Profile > Integrations > API keys."
    ),
    "VERSION": "1.0.0",
    "SERVERS": [{"url": "/api/v1", "description": "This server"}],
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "SCHEMA_PATH_PREFIX_TRIM": True,
    "SERVE_INCLUDE_SCHEMA": False,
    "PREPROCESSING_HOOKS": ["api.openapi.public_operations_only"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.openapi.add_response_headers",
        "api.openapi.open_enums",
    ],
    "ENUM_NAME_OVERRIDES": {
        "SuggestionTypeEnum": "planning.models.SuggestionType",
        "SeverityEnum": "planning.models.Severity",
        "FundingGoalEnum": "planning.models.FundingGoal",
        "SuggestionChangeEnum": "planning.suggestions.events.SuggestionChange",
        "EventTypeEnum": "platform_api.endpoints.events.LISTED_EVENT_TYPES",
    },
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "displayOperationId": True},
}
