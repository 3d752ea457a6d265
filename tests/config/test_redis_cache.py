"""With REDIS_URL the cache is Redis, shared by every process (a throwaway redis-server)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

from tests.config.test_settings import PRODUCTION_ENV, run_django

REDIS_SERVER = shutil.which("redis-server")


@pytest.fixture
def redis_url(tmp_path) -> Iterator[str]:
    if REDIS_SERVER is None:
        if os.environ.get("CI"):
            pytest.fail("CI must install Debian's redis-server package (see .ci/run)")
        pytest.skip("no redis-server: install Debian's `redis-server` package")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", ""],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            with socket.socket() as client:
                if client.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_two_processes_share_the_cache_through_redis(redis_url: str) -> None:
    env = {**PRODUCTION_ENV, "REDIS_URL": redis_url}
    write = "from django.core.cache import cache; cache.set('shared', 'yes', 60)"
    read = "from django.core.cache import cache; print(cache.get('shared'))"

    assert run_django(["shell", "-c", write], env).returncode == 0
    result = run_django(["shell", "-c", read], env)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "yes"
