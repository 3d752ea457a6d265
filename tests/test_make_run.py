"""`make run` builds the links of its emails from where it serves: SITE_URL follows PORT (the
README's `PORT=9000 make run`), and a SITE_URL given outright wins. The target runs for real,
with a stand-in for the virtualenv's python that records each command and its SITE_URL."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
# The dev server stays up a moment when asked, so the worker started beside it gets going.
RECORDER = """#!/bin/sh
echo "SITE_URL=$SITE_URL $*" >> "{log}"
if [ "$2" = runserver ]; then sleep "${{SERVE_SECONDS:-0}}"; fi
"""

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs GNU make")


def _make_run(tmp_path: Path, *arguments: str, **environment: str) -> list[str]:
    """The commands `make run` started (each with the SITE_URL it saw), in a stand-in venv."""
    venv, log = tmp_path / "venv", tmp_path / "commands.log"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(RECORDER.format(log=log))
    python.chmod(0o755)
    (venv / ".installed-runtime").touch()  # newer than pyproject.toml: nothing to install
    env = {k: v for k, v in os.environ.items() if k not in ("SITE_URL", "PORT", "MAKEFLAGS")}
    subprocess.run(
        ["make", "--no-print-directory", "-s", "run", f"VENV={venv}", *arguments],
        cwd=REPOSITORY,
        env={**env, **environment},
        check=True,
        timeout=60,
        capture_output=True,
    )
    return log.read_text().splitlines()


def test_site_url_follows_the_port(tmp_path: Path) -> None:
    commands = _make_run(tmp_path, "PORT=9123", SERVE_SECONDS="1")

    assert "SITE_URL=http://127.0.0.1:9123 manage.py runserver 127.0.0.1:9123" in commands
    started = {line.split(" ", 2)[2].split()[0] for line in commands}
    assert {"migrate", "seed_demo", "db_worker", "deliver_webhooks", "runserver"} <= started
    assert all(line.startswith("SITE_URL=http://127.0.0.1:9123 ") for line in commands)


def test_site_url_defaults_to_the_default_port(tmp_path: Path) -> None:
    commands = _make_run(tmp_path)

    assert "SITE_URL=http://127.0.0.1:8000 manage.py runserver 127.0.0.1:8000" in commands


def test_a_site_url_given_outright_wins(tmp_path: Path) -> None:
    commands = _make_run(tmp_path, "PORT=9123", SITE_URL="https://plans.example.org")

    assert all(line.startswith("SITE_URL=https://plans.example.org ") for line in commands)
