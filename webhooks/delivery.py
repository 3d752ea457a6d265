"""One POST of a webhook: to the addresses the SSRF guard checked, never following a redirect,
within DELIVERY_TIMEOUT_SECONDS of wall-clock time.

The limit is a deadline for the whole attempt, not a per-read timeout: before connecting,
sending and each read of the answer the socket's timeout is cut to the time left, so a receiver
that drips its answer a byte at a time is cut off when the time is spent (a timeout), as one
that never answers is.

`Sender` keeps the connection alive for the next POST to the same target (a run of one
endpoint's deliveries, webhooks.delivery_runs); `post` opens one of its own.

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
        before the answer is read; `Sender` closes the socket when it is done with it."""


def _socket_open(address: str, port: int, timeout: float | None) -> socket.socket:
    """A TCP connection to the checked address. No Nagle delay: on a kept-alive connection
    `http.client` sends the headers and the body in two writes, and the body would otherwise
    wait for the receiver's delayed ACK of the headers (40 ms on Linux)."""
    sock = socket.create_connection((address, port), timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = _socket_open(self._address, self.port, self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(
        self, host: str, port: int, *, address: str, timeout: float, context: ssl.SSLContext
    ) -> None:
        super().__init__(host, port, timeout=timeout, context=context)
        self._address = address

    def connect(self) -> None:
        sock = _socket_open(self._address, self.port, self.timeout)
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


class Sender:
    """Posts to one target after another over a connection kept alive between them (a run of
    one endpoint's deliveries, webhooks.delivery_runs): the connection is reused only for the
    same scheme, host name, port and checked addresses, and only after an answer that was read
    whole and did not ask to close. A kept connection the receiver closed meanwhile is replaced
    by a fresh one once, within the same deadline. Close it (or use it as a context manager)."""

    def __init__(self) -> None:
        self._connection: http.client.HTTPConnection | None = None
        self._sock: socket.socket | None = None
        self._key: tuple[object, ...] = ()

    def __enter__(self) -> Sender:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
        if self._sock is not None:
            self._sock.close()
        self._connection, self._sock, self._key = None, None, ()

    def post(self, target: Target, *, body: bytes, headers: dict[str, str]) -> PostOutcome:
        """POSTs `body`; a 2xx answered within the timeout is delivered, anything else is not."""
        started = time.monotonic()
        deadline = started + DELIVERY_TIMEOUT_SECONDS
        all_headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers}
        key = (target.scheme, target.host, target.port, target.addresses)
        if self._connection is not None and self._key != key:
            self.close()
        error = "no address"
        status_code: int | None = None
        if self._connection is not None:
            try:
                status_code = self._exchange(target, all_headers, body, deadline)
            except TimeoutError:
                self.close()
                return _outcome(started, None, "timeout")
            except (OSError, http.client.HTTPException):
                self.close()  # closed by the receiver while idle: a fresh connection below
            else:
                return _outcome(started, status_code, _judged(started, status_code))
        for address in target.addresses:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                error = "timeout"
                break
            self._connection = _connection(target, address, remaining)
            self._key = key
            try:
                self._connection.connect()
                self._sock = self._connection.sock
                status_code = self._exchange(target, all_headers, body, deadline)
            except TimeoutError:
                self.close()
                error = "timeout"
                break  # the time is spent: no other address
            except ssl.SSLError as failure:
                self.close()
                error = f"TLS error: {failure.reason or failure}"[:200]
                continue
            except (OSError, http.client.HTTPException) as failure:
                self.close()
                error = f"connection failed: {type(failure).__name__}"
                continue
            error = _judged(started, status_code)
            break
        return _outcome(started, status_code, error)

    def _exchange(
        self, target: Target, headers: dict[str, str], body: bytes, deadline: float
    ) -> int:
        """One request and its answer on the open connection; keeps the connection when the
        answer was read whole and may be followed by another request, else closes it."""
        connection, sock = self._connection, self._sock
        assert connection is not None and sock is not None
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        connection.request("POST", target.path, body=body, headers=headers)
        connection.sock = _DeadlineSocket(sock, deadline)  # type: ignore[assignment]
        response = connection.getresponse()  # closes the connection if the answer says so
        response.read(_RESPONSE_BYTES_READ)
        if connection.sock is None or not response.isclosed():
            self.close()
        else:
            connection.sock = sock
        return response.status


def _judged(started: float, status_code: int) -> str:
    """The error of an answered attempt: empty for a 2xx within the deadline."""
    if time.monotonic() - started > DELIVERY_TIMEOUT_SECONDS:
        return "timeout"
    if 200 <= status_code < 300:
        return ""
    if 300 <= status_code < 400:
        return "redirect not followed"
    return f"HTTP {status_code}"


def _outcome(started: float, status_code: int | None, error: str) -> PostOutcome:
    duration_ms = round((time.monotonic() - started) * 1000)
    return PostOutcome(status_code=status_code, duration_ms=duration_ms, error=error)


def post(target: Target, *, body: bytes, headers: dict[str, str]) -> PostOutcome:
    """One POST on a connection of its own (see `Sender.post`)."""
    with Sender() as sender:
        return sender.post(target, body=body, headers=headers)
