"""The SSRF guard: which URLs an endpoint may point at, and the addresses to connect to.

With `WEBHOOK_ALLOW_PRIVATE_TARGETS` off (the default) a URL must be https on a port of
`WEBHOOK_ALLOWED_PORTS` (443 and 8443), and every address its host resolves to must be a public
one: loopback, private, link-local, shared (CGNAT), multicast, reserved, documentation and
unspecified addresses are refused, and so is every IPv6 address that carries an IPv4 address
which is not public (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo): a
translator or tunnel on the way would deliver to that IPv4 address. The check runs when an
endpoint is saved and again before every delivery, and the delivery then connects to exactly
the addresses that passed (webhooks.delivery), so a DNS answer that changes between the check
and the connection cannot point the POST somewhere else. Cloud metadata addresses are refused
even with the setting on, in any of those IPv6 forms too: nothing legitimate listens there.

A host refused for its addresses gets one message, `REFUSED_HOST`, whatever the reason: a name that
does not resolve, one without addresses, one resolving to a loopback, private or metadata address
all read the same, and no message names a resolved address, so the form cannot be used to look up
internal names (docs/subsystems/webhooks.md "SSRF guard"). The reason, with the addresses, goes to
the server's log for the operator.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

logger = logging.getLogger("maintplan.webhooks")

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

METADATA_ADDRESSES = frozenset(
    {
        ipaddress.ip_address("169.254.169.254"),  # AWS, GCP, Azure, OpenStack, ...
        ipaddress.ip_address("fd00:ec2::254"),  # AWS over IPv6
        ipaddress.ip_address("100.100.100.200"),  # Alibaba Cloud
    }
)


class TargetRefused(Exception):
    """The URL may not receive webhooks; the message says why, for the owner to read (never
    naming a resolved address)."""


REFUSED_HOST = (
    "The host “{host}” cannot receive webhooks: its name must resolve to public internet "
    "addresses only."
)


@dataclass(frozen=True, slots=True)
class Target:
    scheme: str
    host: str  # as written in the URL (the Host header and the TLS server name)
    port: int
    path: str  # path and query, at least "/"
    addresses: tuple[str, ...]  # what to connect to, every one checked


# IPv4-compatible IPv6 (deprecated by RFC 4291): not public in itself, and it names an IPv4.
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
# Not globally reachable (the IANA special-purpose registries) although Python's ipaddress
# calls them global in some supported version (3.11 calls most of these global).
NON_GLOBAL_EXTRA = (
    ipaddress.ip_network("192.0.0.0/24"),  # IETF protocol assignments (3.11 knows only parts)
    IPV4_COMPATIBLE,
    ipaddress.ip_network("64:ff9b:1::/48"),  # NAT64 for local use (RFC 8215)
    ipaddress.ip_network("100::/64"),  # discard
    ipaddress.ip_network("2001:db8::/32"),  # documentation
    ipaddress.ip_network("3fff::/20"),  # documentation (RFC 9637)
    ipaddress.ip_network("5f00::/16"),  # SRv6 segment identifiers (RFC 9602)
    ipaddress.ip_network("fec0::/10"),  # site-local (deprecated)
)
# IPv6 prefixes whose last 32 bits are an IPv4 address a translator delivers to: the IPv6
# address is only a way of writing that IPv4 address, which alone decides.
IPV4_CARRIERS = (
    ipaddress.ip_network("::ffff:0:0/96"),  # IPv4-mapped
    ipaddress.ip_network("::ffff:0:0:0/96"),  # IPv4-translated (SIIT, RFC 2765)
    ipaddress.ip_network("64:ff9b::/96"),  # NAT64, well-known prefix (RFC 6052)
)


def _embedded_ipv4(address: IpAddress) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address leads to through a translator or tunnel."""
    if not isinstance(address, ipaddress.IPv6Address):
        return []
    found: list[ipaddress.IPv4Address] = []
    compatible = address in IPV4_COMPATIBLE and int(address) > 1  # not :: or ::1
    if compatible or any(address in carrier for carrier in IPV4_CARRIERS):
        found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    if address.sixtofour is not None:
        found.append(address.sixtofour)
    if address.teredo is not None:
        found.extend(address.teredo)  # the Teredo server and the client behind it
    return found


def _kind_refused(address: IpAddress) -> str | None:
    """Why ``address`` itself is not a public address, or None if it is."""
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_multicast:
        return "a multicast address"
    if (
        address.is_private
        or not address.is_global
        or address.is_reserved
        or address.is_unspecified
        or any(address in network for network in NON_GLOBAL_EXTRA)
    ):
        return "a private or reserved address"
    return None


def address_refusal(address: IpAddress) -> str | None:
    """Why the guard refuses to connect to ``address`` (its kind and the address), or None.
    For the server's log only: the owner's message names no address (`REFUSED_HOST`)."""
    embedded = _embedded_ipv4(address)
    for inner in (address, *embedded):
        if inner in METADATA_ADDRESSES:
            return _reason("a cloud metadata address", inner, address)
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS:
        return None
    for inner in embedded:
        refused = _kind_refused(inner)
        if refused:
            return _reason(refused, inner, address)
    if embedded and any(address in carrier for carrier in IPV4_CARRIERS):
        return None  # only a way of writing a public IPv4 address
    refused = _kind_refused(address)
    return _reason(refused, address, address) if refused else None


def _reason(kind: str, inner: IpAddress, address: IpAddress) -> str:
    return f"{kind} ({inner})" if inner == address else f"{kind} ({inner} inside {address})"


def _host_refused(host: str, reason: str) -> TargetRefused:
    logger.info("webhook target refused", extra={"host": host, "reason": reason})
    return TargetRefused(REFUSED_HOST.format(host=host))


def _resolve(host: str, port: int) -> list[IpAddress]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise _host_refused(host, f"cannot be resolved ({type(error).__name__})") from error
    addresses: list[IpAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])
        if address not in addresses:
            addresses.append(address)
    return addresses


def url_parse(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of a URL the guard accepts the form and port of;
    TargetRefused else. With private targets allowed (development, tests) any port goes."""
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
    port = port or (443 if scheme == "https" else 80)
    allowed_ports: frozenset[int] = settings.WEBHOOK_ALLOWED_PORTS
    if not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS and port not in allowed_ports:
        ports = " or ".join(str(p) for p in sorted(allowed_ports))
        raise TargetRefused(f"The URL must use port {ports} (it names port {port}).")
    return scheme, parts.hostname, port, path


def target_check(url: str) -> Target:
    """The URL's target if the guard allows it; TargetRefused otherwise (the URL's form and
    port: the reason; the host's addresses: `REFUSED_HOST`, whatever they are)."""
    scheme, host, port, path = url_parse(url)
    addresses = _resolve(host, port)
    if not addresses:
        raise _host_refused(host, "no address")
    for address in addresses:
        refused = address_refusal(address)
        if refused:
            raise _host_refused(host, f"resolves to {refused}")
    return Target(scheme, host, port, path, tuple(str(a) for a in addresses))
