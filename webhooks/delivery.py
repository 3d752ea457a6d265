"""One POST of a webhook: to the addresses the SSRF guard checked, never following a redirect,
within DELIVERY_TIMEOUT_SECONDS of wall-clock time.

The limit is a deadline for the whole attempt, not a per-read timeout: before connecting,
sending and each read of the answer the socket's timeout is cut to the time left, so a receiver
that drips its answer a byte at a time is cut off when the time is spent (a timeout), as one
that never answers is.

The connection goes to an address from `Target.addresses` while the Host header and the TLS
server name (and certificate check) use the URL's host name, so a DNS answer that changes after
the check cannot redirect the request (DNS rebinding).
"""

from __future__ import annotations

import http.client
import io
import socket
import ssl
import time
from dataclasses import dataclass
from typing import Any

from webhooks.targets import Target

DELIVERY_TIMEOUT_SECONDS = 10.0
USER_AGENT = "Maintplan-Webhooks/1"
_RESPONSE_BYTES_READ = 64 * 1024


class _DeadlineReader(io.RawIOBase):
    """The answer's bytes, each read given only the time left before `deadline`."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("the delivery's deadline passed")
        self._sock.settimeout(remaining)
        return self._sock.recv_into(buffer)


class _DeadlineSocket:
    """What `http.client.HTTPResponse` is handed instead of the socket: its `makefile` reads
    under the deadline."""

    def __init__(self, sock: socket.socket, deadline: float) -> None:
        self._sock = sock
        self._deadline = deadline

    def makefile(self, mode: str) -> io.BufferedReader:
        assert mode == "rb"
        return io.BufferedReader(_DeadlineReader(self._sock, self._deadline))

    def close(self) -> None:
        """A no-op: `http.client` closes the connection once the answer says it will close,
        before the answer is read; `post` closes the socket when it is done."""


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(
        self, host: str, port: int, *, address: str, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class PostOutcome:
    status_code: int | None  # None: no answer (refused, timeout, TLS error)
    duration_ms: int
    error: str  # empty when delivered

    @property
    def delivered(self) -> bool:
        return not self.error


def _connection(target: Target, address: str, timeout: float) -> http.client.HTTPConnection:
    if target.scheme == "https":
        return _PinnedHTTPSConnection(
            target.host,
            target.port,
            address=address,
            timeout=timeout,
            context=ssl.create_default_context(),
        )
    return _PinnedHTTPConnection(target.host, target.port, address=address, timeout=timeout)


def post(target: Target, *, body: bytes, headers: dict[str, str]) -> PostOutcome:
    """POSTs `body`; a 2xx answered within the timeout is delivered, anything else is not."""
    started = time.monotonic()
    all_headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **headers,
    }
    error = "no address"
    status_code: int | None = None
    deadline = started + DELIVERY_TIMEOUT_SECONDS
    for address in target.addresses:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            error = "timeout"
            break
        connection = _connection(target, address, remaining)
        sock: socket.socket | None = None
        try:
            connection.connect()
            sock = connection.sock
            assert sock is not None
            sock.settimeout(max(deadline - time.monotonic(), 0.001))
            connection.request("POST", target.path, body=body, headers=all_headers)
            connection.sock = _DeadlineSocket(sock, deadline)  # type: ignore[assignment]
            response = connection.getresponse()
            status_code = response.status
            response.read(_RESPONSE_BYTES_READ)
        except TimeoutError:
            error = "timeout"
            break  # the time is spent: no other address
        except ssl.SSLError as failure:
            error = f"TLS error: {failure.reason or failure}"[:200]
            continue
        except (OSError, http.client.HTTPException) as failure:
            error = f"connection failed: {type(failure).__name__}"
            continue
        finally:
            connection.close()
            if sock is not None:
                sock.close()
        elapsed = time.monotonic() - started
        if elapsed > DELIVERY_TIMEOUT_SECONDS:
            error = "timeout"
        elif 200 <= status_code < 300:
            error = ""
        elif 300 <= status_code < 400:
            error = "redirect not followed"
        else:
            error = f"HTTP {status_code}"
        break
    duration_ms = round((time.monotonic() - started) * 1000)
    return PostOutcome(status_code=status_code, duration_ms=duration_ms, error=error)
