"""The SSRF guard: what an endpoint may point at, with private targets off (the default)."""

from __future__ import annotations

import ipaddress
import re
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from webhooks.targets import REFUSED_HOST, TargetRefused, target_check
from webhooks.tasks import webhook_deliver


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


def assert_host_refused(url: str, reason: str, caplog: pytest.LogCaptureFixture) -> None:
    """The guard refuses the URL's host with the one message for the owner, and logs `reason`
    (a regular expression) for the operator."""
    with (
        caplog.at_level("INFO", logger="maintplan.webhooks"),
        pytest.raises(TargetRefused) as refused,
    ):
        target_check(url)
    assert str(refused.value) == REFUSED_HOST.format(host=urlsplit(url).hostname)
    logged = [
        r.__dict__["reason"] for r in caplog.records if r.getMessage() == "webhook target refused"
    ]
    assert logged and re.search(reason, logged[-1]), logged


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
    dns: dict[str, list[str]], address: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    dns["hooks.example.com"] = ["93.184.215.14", address]
    assert_host_refused("https://hooks.example.com/in", f"resolves to {reason}", caplog)


@pytest.mark.parametrize("host", ["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]"])
def test_an_address_in_the_url_is_refused(host: str, caplog: pytest.LogCaptureFixture) -> None:
    assert_host_refused(f"https://{host}/in", "resolves to a", caplog)


def test_localhost_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    assert_host_refused("https://localhost:8443/in", "loopback", caplog)


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
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert target_check("http://127.0.0.1:9000/in").addresses == ("127.0.0.1",)
    assert_host_refused("http://169.254.169.254/latest/meta-data/", "cloud metadata", caplog)


# --- IPv6 forms of IPv4 addresses, and the IANA ranges Python 3.11 calls global (issue 27) ---


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        # NAT64 (RFC 6052): a translator delivers to the IPv4 address in the last 32 bits.
        ("64:ff9b::7f00:1", r"a loopback address \(127\.0\.0\.1 inside 64:ff9b::7f00:1\)"),
        ("64:ff9b::a00:1", r"a private or reserved address \(10\.0\.0\.1 inside"),
        ("64:ff9b::a9fe:a9fe", r"a cloud metadata address \(169\.254\.169\.254 inside"),
        # NAT64 for local use (RFC 8215) is not global whatever it carries.
        ("64:ff9b:1::7f00:1", "a private or reserved address"),
        ("64:ff9b:1::808:808", "a private or reserved address"),
        # 6to4: the IPv4 address is bits 16-47.
        ("2002:7f00:1::", r"a loopback address \(127\.0\.0\.1 inside 2002:7f00:1::\)"),
        ("2002:c0a8:114::1", r"a private or reserved address \(192\.168\.1\.20 inside"),
        ("2002:a9fe:a9fe::1", "a cloud metadata address"),
        # IPv4-mapped, IPv4-translated (SIIT) and IPv4-compatible forms.
        ("::ffff:a00:1", r"a private or reserved address \(10\.0\.0\.1 inside"),
        ("::ffff:0:7f00:1", r"a loopback address \(127\.0\.0\.1 inside"),
        ("::127.0.0.1", r"a loopback address \(127\.0\.0\.1 inside"),
        ("::8.8.8.8", "a private or reserved address"),  # deprecated form, never public
        # Teredo: the client is the last 32 bits inverted (here 127.0.0.1).
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", r"a loopback address \(127\.0\.0\.1 inside"),
        # Not globally reachable, yet global to Python 3.11's ipaddress.
        ("fec0::1", "a private or reserved address"),  # site-local
        ("3fff::1", "a private or reserved address"),  # documentation (RFC 9637)
        ("5f00::1", "a private or reserved address"),  # SRv6 (RFC 9602)
        ("192.0.0.8", "a private or reserved address"),  # IETF protocol assignments
    ],
)
def test_an_ipv6_form_of_a_non_public_address_is_refused(
    dns: dict[str, list[str]], address: str, reason: str, caplog: pytest.LogCaptureFixture
) -> None:
    dns["hooks.example.com"] = ["93.184.215.14", address]
    assert_host_refused("https://hooks.example.com/in", f"resolves to {reason}", caplog)


@pytest.mark.parametrize("host", ["[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[::ffff:10.0.0.1]"])
def test_an_ipv6_form_of_loopback_or_private_in_the_url_is_refused(
    host: str, caplog: pytest.LogCaptureFixture
) -> None:
    assert_host_refused(f"https://{host}/in", "resolves to a", caplog)


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::808:808",  # what DNS64 answers on an IPv6-only network for 8.8.8.8
        "::ffff:8.8.8.8",
        "2002:808:808::1",
    ],
)
def test_an_ipv6_form_of_a_public_ipv4_address_passes(
    dns: dict[str, list[str]], address: str
) -> None:
    dns["hooks.example.com"] = [address]
    expected = (str(ipaddress.ip_address(address)),)
    assert target_check("https://hooks.example.com/in").addresses == expected


def test_metadata_in_an_ipv6_form_is_refused_even_with_private_targets_allowed(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert target_check("http://[64:ff9b::7f00:1]:9000/in")  # development: loopback is fine
    for host in ("[64:ff9b::a9fe:a9fe]", "[2002:a9fe:a9fe::]", "[::ffff:169.254.169.254]"):
        assert_host_refused(f"http://{host}/latest/meta-data/", "cloud metadata", caplog)


# --- ports ------------------------------------------------------------------------------------


@pytest.mark.parametrize("port", [22, 80, 6379, 8080, 9443])
def test_a_port_other_than_443_or_8443_is_refused(port: int) -> None:
    with pytest.raises(
        TargetRefused, match=f"must use port 443 or 8443 \\(it names port {port}\\)"
    ):
        target_check(f"https://8.8.8.8:{port}/in")


@pytest.mark.parametrize(
    "url",
    ["https://93.184.215.14/in", "https://93.184.215.14:443/in", "https://93.184.215.14:8443/in"],
)
def test_ports_443_and_8443_pass(url: str) -> None:
    assert target_check(url).port in (443, 8443)


def test_the_allowed_ports_are_a_setting(settings: Any) -> None:
    settings.WEBHOOK_ALLOWED_PORTS = frozenset({9443})
    assert target_check("https://93.184.215.14:9443/in").port == 9443
    with pytest.raises(TargetRefused, match="must use port 9443"):
        target_check("https://93.184.215.14/in")


def test_with_private_targets_allowed_any_port_goes(settings: Any) -> None:
    """Development and tests run receivers on loopback at random ports."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert target_check("http://127.0.0.1:54321/in").port == 54321
    assert target_check("https://93.184.215.14:6379/in").port == 6379


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "error"),
    [
        ("https://8.8.8.8:6379/in", "must use port 443 or 8443"),
        ("https://[64:ff9b::7f00:1]/in", REFUSED_HOST.format(host="64:ff9b::7f00:1")),
    ],
)
def test_the_guard_runs_again_at_delivery(
    user: Any, settings: Any, monkeypatch: pytest.MonkeyPatch, url: str, error: str
) -> None:
    """An endpoint saved under looser rules (or before this check existed) posts nothing."""
    endpoint, _secret = endpoint_for(user)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(url=url)
    connections: list[Any] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connections.append(a))

    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    webhook_deliver.call(delivery_id=delivery.pk, attempt=1)

    attempt = WebhookAttempt.objects.get()
    assert attempt.status_code is None and error in attempt.error
    assert connections == []


# --- one message that names no address (issue 37, point 5) -------------------------------------


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("https://localhost/in", None),  # the real resolver: 127.0.0.1 and ::1
        ("https://hooks.example.com/in", ["10.1.2.3"]),
        ("https://hooks.example.com/in", ["93.184.215.14", "192.168.7.9"]),
        ("https://hooks.example.com/in", ["169.254.169.254"]),
        ("https://hooks.example.com/in", ["64:ff9b::a00:1"]),
        ("https://hooks.example.com/in", ["::ffff:127.0.0.1"]),
        ("https://no-such-host.invalid/in", None),  # does not resolve: the same answer
    ],
)
def test_a_refused_host_gets_one_message_that_names_no_address(
    dns: dict[str, list[str]], url: str, resolved: list[str] | None
) -> None:
    """Whether a name resolves, and to what, is no answer for a signed-in user to read: every
    refusal of a host's addresses is the same sentence, naming only the host as written."""
    if resolved is not None:
        dns["hooks.example.com"] = resolved
    host = url.split("/")[2]
    with pytest.raises(TargetRefused) as refused:
        target_check(url)
    assert str(refused.value) == REFUSED_HOST.format(host=host)
    message = str(refused.value).replace(host, "")
    assert not re.search(r"\d+\.\d+\.\d+\.\d+|[0-9a-f]*:[0-9a-f:.]+", message), message
    assert "127.0.0.1" not in str(refused.value) and "loopback" not in str(refused.value)
