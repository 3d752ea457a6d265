"""core.env: typed environment values, refused at start-up when they do not parse."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.env import env_ports


@pytest.mark.parametrize(
    ("raw", "ports"),
    [
        (None, {443, 8443}),
        ("", {443, 8443}),
        ("443", {443}),
        (" 443 , 9443,443", {443, 9443}),
        ("1,65535", {1, 65535}),
    ],
)
def test_env_ports_reads_a_comma_separated_list(
    monkeypatch: pytest.MonkeyPatch, raw: str | None, ports: set[int]
) -> None:
    if raw is None:
        monkeypatch.delenv("WEBHOOK_ALLOWED_PORTS", raising=False)
    else:
        monkeypatch.setenv("WEBHOOK_ALLOWED_PORTS", raw)
    assert env_ports("WEBHOOK_ALLOWED_PORTS", [443, 8443]) == frozenset(ports)


@pytest.mark.parametrize(
    "raw", ["https", "443;8443", "443,,8443", "0", "65536", "-443", "4 43", "٤٤٣"]
)
def test_env_ports_refuses_anything_else(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("WEBHOOK_ALLOWED_PORTS", raw)
    with pytest.raises(ImproperlyConfigured, match="WEBHOOK_ALLOWED_PORTS must be comma-separated"):
        env_ports("WEBHOOK_ALLOWED_PORTS", [443, 8443])
