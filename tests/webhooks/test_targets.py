"""The SSRF guard: what an endpoint may point at, with private targets off (the default)."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from webhooks.targets import TargetRefused, target_check


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Names this test resolves itself; any other name goes to the real resolver."""
    names: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in names:
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in names[host]
            ]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return names


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "a loopback address"),
        ("10.0.0.1", "a private or reserved address"),
        ("192.168.1.20", "a private or reserved address"),
        ("172.16.5.4", "a private or reserved address"),
        ("169.254.169.254", "a cloud metadata address"),
        ("169.254.1.1", "a link-local address"),
        ("100.64.0.1", "a private or reserved address"),
        ("0.0.0.0", "a private or reserved address"),  # noqa: S104
        ("224.0.0.1", "a multicast address"),
        ("::1", "a loopback address"),
        ("fd00:ec2::254", "a cloud metadata address"),
        ("fe80::1", "a link-local address"),
        ("::ffff:127.0.0.1", "a loopback address"),
    ],
)
def test_a_name_resolving_to_a_non_public_address_is_refused(
    dns: dict[str, list[str]], address: str, reason: str
) -> None:
    dns["hooks.example.com"] = ["93.184.215.14", address]
    with pytest.raises(TargetRefused, match=f"resolves to {reason}"):
        target_check("https://hooks.example.com/in")


@pytest.mark.parametrize("host", ["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]"])
def test_an_address_in_the_url_is_refused(host: str) -> None:
    with pytest.raises(TargetRefused, match="resolves to a"):
        target_check(f"https://{host}/in")


def test_localhost_is_refused() -> None:
    with pytest.raises(TargetRefused, match="loopback"):
        target_check("https://localhost:8443/in")


def test_plain_http_is_refused() -> None:
    with pytest.raises(TargetRefused, match="must start with https://"):
        target_check("http://93.184.215.14/in")


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://hooks.example.com/", "must start with https://"),
        ("https:///path-only", "has no host"),
        ("https://user:pw@hooks.example.com/", "user name or password"),
        ("https://hooks.example.com:99999/", "valid URL"),
        ("https://no-such-host.invalid/", "cannot be resolved"),
    ],
)
def test_a_malformed_url_is_refused_with_the_reason(url: str, message: str) -> None:
    with pytest.raises(TargetRefused, match=message):
        target_check(url)


def test_a_public_https_target_passes_with_its_checked_addresses(
    dns: dict[str, list[str]],
) -> None:
    dns["hooks.example.com"] = ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"]
    target = target_check("https://hooks.example.com/maintplan?team=7")
    assert (target.scheme, target.host, target.port, target.path) == (
        "https",
        "hooks.example.com",
        443,
        "/maintplan?team=7",
    )
    assert target.addresses == ("93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c")


def test_with_private_targets_allowed_loopback_http_passes_but_metadata_never(
    settings: Any,
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert target_check("http://127.0.0.1:9000/in").addresses == ("127.0.0.1",)
    with pytest.raises(TargetRefused, match="cloud metadata"):
        target_check("http://169.254.169.254/latest/meta-data/")
