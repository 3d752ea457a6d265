"""`GET /healthz` (the process answers) and `GET /readyz` (it can serve: the database answers,
every migration is applied, the cache answers), for load balancers and orchestrators.

200 `{"status": "ok", "checks": {...}}`, else 503 with `"status": "unavailable"` and the failing
check named in `checks`. Neither needs a login or reads a session, neither is cached, and their
request lines are logged at DEBUG (a probe every few seconds would drown the access log).
"""

from __future__ import annotations

import logging
import uuid

from django.core.cache import cache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger("maintplan.health")

_migrations_applied = False  # once true, stays true for this process's code


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok", "checks": {}})


def _database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _migrations() -> str:
    global _migrations_applied
    if not _migrations_applied:
        executor = MigrationExecutor(connection)
        if executor.migration_plan(executor.loader.graph.leaf_nodes()):
            return "pending"
        _migrations_applied = True
    return "ok"


def _cache() -> str:
    key = f"readyz:{uuid.uuid4().hex}"
    cache.set(key, "ok", 10)
    answer = cache.get(key)
    cache.delete(key)
    return "ok" if answer == "ok" else "no answer"


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    for name, check in (("database", _database), ("migrations", _migrations), ("cache", _cache)):
        if name == "migrations" and checks["database"] != "ok":
            checks[name] = "unknown"
            continue
        try:
            checks[name] = check()
        except Exception as error:
            logger.warning("readiness check %s failed: %s", name, type(error).__name__)
            checks[name] = "unreachable"
    ready = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503
    )
