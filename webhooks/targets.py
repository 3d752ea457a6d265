"""The SSRF guard: which URLs an endpoint may point at, and the addresses to connect to.

With `WEBHOOK_ALLOW_PRIVATE_TARGETS` off (the default) a URL must be https and every address
its host resolves to must be a public one: loopback, private, link-local, shared (CGNAT),
multicast, reserved and unspecified addresses are refused, IPv4-mapped IPv6 included. The
check runs when an endpoint is saved and again before every delivery, and the delivery then
connects to exactly the addresses that passed (webhooks.delivery), so a DNS answer that changes
between the check and the connection cannot point the POST somewhere else. Cloud metadata
addresses are refused even with the setting on: nothing legitimate listens there.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA_ADDRESSES = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack, ...
        ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    }
)


class TargetRefused(Exception):
    """The URL may not receive webhooks; the message says why, for the owner to read."""


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str  # as written in the URL (the Host header and the TLS server name)
    port: int
    path: str  # path and query, at least "/"
    addresses: tuple[str, ...]  # what to connect to, every one checked


def _address_refused(address: IpAddress) -> str | None:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address in METADATA_ADDRESSES:
        return "a cloud metadata address"
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        return None
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if address.is_private or not address.is_global:
        return "a private or reserved address"
    return None


def _resolve(host: str, port: int) -> list[IpAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise TargetRefused(f"The host “{host}” cannot be resolved.") from error
    addresses: list[IpAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def url_parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of a URL the guard accepts the form of; TargetRefused else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise TargetRefused("Enter a valid URL.") from error
    scheme = parts.scheme.lower()
    allowed = {"https", "http"} if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS else {"https"}
    if scheme not in allowed:
        raise TargetRefused("The URL must start with https://.")
    if not parts.hostname:
        raise TargetRefused("The URL has no host.")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("The URL must not contain a user name or password.")
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return scheme, parts.hostname, port or (443 if scheme == "https" else 80), path


def target_check(url: str) -> Target:
    """The URL's target if the guard allows it; TargetRefused (with the reason) otherwise."""
    scheme, host, port, path = url_parse(url)
    addresses = _resolve(host, port)
    if not addresses:
        raise TargetRefused(f"The host “{host}” has no address.")
    for address in addresses:
        refused = _address_refused(address)
        if refused:
            raise TargetRefused(f"The host “{host}” resolves to {refused} ({address}).")
    return Target(scheme, host, port, path, tuple(str(a) for a in addresses))
