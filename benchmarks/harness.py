"""What the benchmarks share: a production-like environment, a user with a key, gunicorn on a
free loopback port, percentiles. Run the benchmarks under scripts/with-postgres.sh."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_environment(settings_module: str = "config.settings") -> dict[str, str]:
    """Production settings (debug off) on loopback, against DATABASE_URL's PostgreSQL."""
    env = dict(os.environ)
    if not env.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("run under scripts/with-postgres.sh (DATABASE_URL must be PostgreSQL)")
    env.update(
        DJANGO_SETTINGS_MODULE=settings_module,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(64),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_HSTS_SECONDS="0",
        # Debug off refuses the console email backend; nothing measured here sends mail, and
        # SMTP to a port nobody listens on would fail loudly if something did.
        DJANGO_EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1",
        EMAIL_PORT=str(free_port()),
        # The throttle still runs (cache read and write per request) but never refuses.
        API_KEY_THROTTLE_RATE="100000000/second",
        API_USER_THROTTLE_RATE="100000000/second",
        PYTHONPATH=str(ROOT),
    )
    return env


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def migrate_and_create_key(env: dict[str, str]) -> tuple[str, str]:
    """Migrates, creates a user with API access and one key; returns (email, raw key)."""
    manage(env, "migrate", "--noinput", "-v", "0")
    email = f"bench-{secrets.token_hex(4)}@example.com"
    script = (
        "from accounts.models import User\n"
        "from apikeys.services import api_access_set\n"
        f"user = User.objects.create_user(email={email!r}, password=None, name='Bench')\n"
        "api_access_set(user=user, enabled=True)\n"
    )
    manage(env, "shell", "-v", "0", "-c", script)
    raw_key = manage(env, "issue_api_key", email, "--name", "benchmark").strip()
    return email, raw_key


def start_gunicorn(env: dict[str, str], port: int, log: Path, *options: str) -> Any:
    """gunicorn on 127.0.0.1:`port` with `options`, once it accepts connections."""
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "config.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        *options,
    ]
    with log.open("wb") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=output, stderr=output)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited early; see {log}:\n{log.read_text()[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not start listening within 30 s")


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile of `values` (any order)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]
