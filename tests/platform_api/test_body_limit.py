"""Request bodies under /api/ over API_MAX_BODY_BYTES are a 413 envelope (api.middleware)."""

from __future__ import annotations

import http.client
import json
import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from django.contrib.auth import get_user_model
from django.core.signals import request_started
from django.db import close_old_connections
from django.test import Client
from django.test.client import ClientHandler

from apikeys.models import ApiKey
from tests.apikeys.conftest import SESSION_CHECK_URL
from tests.envelope import assert_envelope
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = 64
LOGIN_URL = "/api/v1/auth/login/user"
REGISTER_URL = "/api/v1/auth/register/user"
UNKNOWN_URL = "/api/v1/no/such/route"
ENVELOPE_FIELDS = {"success", "message", "messageKey", "data", "traceId"}


@pytest.fixture(autouse=True)
def _small_limit(settings: Any) -> None:
    settings.API_MAX_BODY_BYTES = LIMIT


def _json_of_size(size: int) -> str:
    """A JSON object of exactly `size` bytes."""
    body = json.dumps({"padding": ""})
    return json.dumps({"padding": "x" * (size - len(body))})


def _post(client: Client, path: str, body: str, **headers: Any) -> Any:
    return client.post(path, body, content_type="application/json", **headers)


def _asgi_post_chunked(path: str, chunks: list[bytes]) -> tuple[int, dict[str, str], bytes]:
    """POSTs `chunks` through the project's ASGI application as a chunked body: no
    Content-Length, the body in several messages, as an ASGI server hands it over."""
    from config.asgi import application

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }

    async def exchange() -> tuple[int, dict[str, str], bytes]:
        communicator = ApplicationCommunicator(application, scope)
        for index, chunk in enumerate(chunks):
            more_body = index < len(chunks) - 1
            await communicator.send_input(
                {"type": "http.request", "body": chunk, "more_body": more_body}
            )
        start = await communicator.receive_output(timeout=10)
        body = b""
        while True:
            message = await communicator.receive_output(timeout=10)
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        await communicator.wait(timeout=10)
        headers = {name.decode().lower(): value.decode() for name, value in start["headers"]}
        return start["status"], headers, body

    # As Django's own test clients do: the handler's close_old_connections would close the
    # connection that holds this test's transaction.
    request_started.disconnect(close_old_connections)
    try:
        return async_to_sync(exchange)()
    finally:
        request_started.connect(close_old_connections)


def _assert_chunked_413(status: int, headers: dict[str, str], body: bytes) -> None:
    envelope = json.loads(body)
    assert status == 413
    assert headers["content-type"].startswith("application/json")
    assert set(envelope) == ENVELOPE_FIELDS
    assert envelope["success"] is False
    assert envelope["messageKey"] == "request.too_large"
    assert envelope["data"] is None
    assert envelope["traceId"] == headers["x-request-id"]


# --- a declared Content-Length over the limit ------------------------------------------------


def test_big_body_on_the_session_check_is_413_and_the_key_is_not_used(
    client: Client, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw

    response = _post(
        client, SESSION_CHECK_URL, _json_of_size(LIMIT + 1), HTTP_AUTHORIZATION=f"Bearer {raw}"
    )

    body = assert_envelope(response, 413, "request.too_large")
    assert body["message"] == (
        f"The request body is too large: this API accepts at most {LIMIT} bytes."
    )
    api_key.refresh_from_db()
    assert api_key.last_used_at is None


def test_big_body_on_login_is_413_and_logs_nobody_in(client: Client, user: Any) -> None:
    padding = "x" * LIMIT
    body = json.dumps({"email": user.email, "password": TEST_PASSWORD, "padding": padding})

    response = _post(client, LOGIN_URL, body)

    assert_envelope(response, 413, "request.too_large")
    assert "sessionid" not in response.cookies
    user.refresh_from_db()
    assert user.last_login is None


def test_big_body_on_registration_is_413_and_creates_no_account(client: Client) -> None:
    body = json.dumps({"email": "new@example.com", "password": "x" * LIMIT, "name": "New"})

    response = _post(client, REGISTER_URL, body)

    assert_envelope(response, 413, "request.too_large")
    assert not get_user_model().objects.filter(email="new@example.com").exists()


@pytest.mark.parametrize("path", [UNKNOWN_URL, "/api/v2/anything", "/api"])
@pytest.mark.parametrize("method", ["post", "put", "patch"])
def test_big_body_on_an_unknown_path_is_413(client: Client, method: str, path: str) -> None:
    response = getattr(client, method)(
        path, _json_of_size(LIMIT + 1), content_type="application/json"
    )

    assert_envelope(response, 413, "request.too_large")


def test_body_of_exactly_the_limit_is_accepted(client: Client, raw_key: str) -> None:
    response = _post(
        client, SESSION_CHECK_URL, _json_of_size(LIMIT), HTTP_AUTHORIZATION=f"Bearer {raw_key}"
    )

    assert_envelope(response, 200, "auth.api_key_valid")


def test_big_body_outside_the_api_is_not_the_apis_business(client: Client) -> None:
    response = client.post("/accounts/login/", {"email": "a@example.com", "password": "x" * 200})

    assert response.status_code == 200
    assert not response["Content-Type"].startswith("application/json")


def test_default_limit_refuses_the_body_that_used_to_be_a_500(
    client: Client, settings: Any, user: Any
) -> None:
    """Before the limit, a body over DATA_UPLOAD_MAX_MEMORY_SIZE (5 MiB) on login was a 500."""
    settings.API_MAX_BODY_BYTES = 1024 * 1024
    body = json.dumps({"email": user.email, "password": "x" * (6 * 1024 * 1024)})

    response = _post(client, LOGIN_URL, body)

    body_json = assert_envelope(response, 413, "request.too_large")
    assert "1048576 bytes" in body_json["message"]


def test_body_over_djangos_own_limit_is_413_even_when_the_api_limit_is_higher(
    client: Client, settings: Any
) -> None:
    settings.API_MAX_BODY_BYTES = 10_000
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000

    response = _post(client, LOGIN_URL, _json_of_size(5_000))

    assert_envelope(response, 413, "request.too_large")


@pytest.mark.parametrize("path", [SESSION_CHECK_URL, LOGIN_URL, REGISTER_URL, UNKNOWN_URL])
def test_big_body_logs_nothing_at_error(
    client: Client, path: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        response = _post(client, path, _json_of_size(10 * LIMIT))

    assert response.status_code == 413
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert "Traceback" not in caplog.text


# --- a chunked body (no Content-Length), through the ASGI handler ----------------------------


@pytest.mark.parametrize("path", [SESSION_CHECK_URL, LOGIN_URL, UNKNOWN_URL])
def test_chunked_body_that_turns_out_too_big_is_413(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    chunks = [b'{"padding": "', b"x" * LIMIT, b'"}']

    with caplog.at_level(logging.INFO):
        status, headers, body = _asgi_post_chunked(path, chunks)

    _assert_chunked_413(status, headers, body)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_chunked_body_within_the_limit_goes_on_to_routing() -> None:
    status, _headers, body = _asgi_post_chunked(UNKNOWN_URL, [b'{"a":', b" 1}"])

    assert status == 404
    assert json.loads(body)["messageKey"] == "routing.not_found"


def test_chunked_body_reaches_the_view_under_asgi() -> None:
    """Issue 27, point 10: DRF reads no body without a Content-Length, so a chunked one was
    parsed as empty (`not json {{{` -> 200 on the session check). The login route parses
    the body before it asks the database, which this ASGI call cannot reach from its thread."""
    status, headers, body = _asgi_post_chunked(LOGIN_URL, [b"not ", b"json {{{"])

    assert (status, json.loads(body)["messageKey"]) == (400, "validation.malformed_json")
    assert headers["cache-control"] == "no-store"


# --- a chunked body through gunicorn's WSGI environ, and a server that cannot read one -------


class _NoSocket:
    def send(self, data: bytes) -> None: ...

    def sendall(self, data: bytes) -> None: ...


class _Answer:
    """A Django response with `json()`, as tests.envelope.assert_envelope reads one."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.status_code = response.status_code
        self.content = response.content

    def __getitem__(self, name: str) -> str:
        return str(self.response[name])

    def __contains__(self, name: str) -> bool:
        return name in self.response

    def json(self) -> Any:
        return json.loads(self.content)


def _chunked_request(path: str, chunks: list[bytes], headers: dict[str, str]) -> bytes:
    head = [f"POST {path} HTTP/1.1", "Host: testserver", "Transfer-Encoding: chunked"]
    head += [f"{name}: {value}" for name, value in headers.items()]
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks) + b"0\r\n\r\n"
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _through_gunicorn(raw: bytes, *, terminated: bool = True) -> _Answer:
    """Parses `raw` with gunicorn's own request parser and builds the WSGI environ exactly as
    a gunicorn worker does (chunks decoded, no CONTENT_LENGTH, `wsgi.input_terminated`), then
    runs Django's handler on it (the test client's, which leaves this test's database
    connection open). `terminated=False` drops the flag, as a server that does not decode
    chunks (wsgiref, runserver) passes the request."""
    from gunicorn.config import Config
    from gunicorn.http import wsgi as gunicorn_wsgi
    from gunicorn.http.parser import RequestParser

    cfg = Config()
    peer = ("127.0.0.1", 50000)
    request = next(iter(RequestParser(cfg, iter([raw]), peer)))
    _response, environ = gunicorn_wsgi.create(request, _NoSocket(), peer, ("testserver", 80), cfg)
    assert environ["wsgi.input_terminated"] is True and "CONTENT_LENGTH" not in environ
    if not terminated:
        del environ["wsgi.input_terminated"]
    return _Answer(ClientHandler(enforce_csrf_checks=False)(environ))


def test_a_chunked_body_under_gunicorn_is_read(raw_key: str) -> None:
    """Issue 27, point 10: `not json {{{` in chunks was a 200, the body read as empty."""
    auth = {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json"}

    malformed = _through_gunicorn(_chunked_request(SESSION_CHECK_URL, [b"not ", b"json {{{"], auth))
    valid = _through_gunicorn(_chunked_request(SESSION_CHECK_URL, [b'{"a"', b": 1}"], auth))

    assert_envelope(malformed, 400, "validation.malformed_json")  # Cache-Control: no-store
    assert_envelope(valid, 200, "auth.api_key_valid")


def test_a_chunked_login_under_gunicorn_logs_in(user: Any, settings: Any) -> None:
    settings.API_MAX_BODY_BYTES = 1024
    credentials = json.dumps({"email": user.email, "password": TEST_PASSWORD}).encode()
    chunks = [credentials[:10], credentials[10:]]

    answer = _through_gunicorn(
        _chunked_request(LOGIN_URL, chunks, {"Content-Type": "application/json"})
    )

    assert_envelope(answer, 200, "auth.logged_in")
    user.refresh_from_db()
    assert user.last_login is not None


def test_a_chunked_body_over_the_limit_under_gunicorn_is_413_and_the_key_is_not_used(
    api_key_and_raw: tuple[ApiKey, str],
) -> None:
    api_key, raw = api_key_and_raw
    auth = {"Authorization": f"Bearer {raw}", "Content-Type": "application/json"}
    chunks = [b'{"padding": "', b"x" * LIMIT, b'"}']

    answer = _through_gunicorn(_chunked_request(SESSION_CHECK_URL, chunks, auth))

    assert_envelope(answer, 413, "request.too_large")
    api_key.refresh_from_db()
    assert api_key.last_used_at is None


def test_a_chunked_body_of_exactly_the_limit_under_gunicorn_is_read(raw_key: str) -> None:
    auth = {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json"}
    body = _json_of_size(LIMIT).encode()

    answer = _through_gunicorn(_chunked_request(SESSION_CHECK_URL, [body[:7], body[7:]], auth))

    assert_envelope(answer, 200, "auth.api_key_valid")


@pytest.mark.parametrize("path", [SESSION_CHECK_URL, UNKNOWN_URL])
def test_a_server_that_cannot_end_a_chunked_body_gets_411(raw_key: str, path: str) -> None:
    auth = {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json"}

    answer = _through_gunicorn(_chunked_request(path, [b"{}"], auth), terminated=False)

    body = assert_envelope(answer, 411, "request.length_required")
    assert "Content-Length" in body["message"]


def test_the_development_server_answers_a_chunked_body_with_411(live_server: Any) -> None:
    """Django's own server (runserver, the tests' live server) does not decode chunks: a raw
    chunked request gets the 411 envelope, not a body read as empty."""
    host, port = live_server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.putrequest("POST", UNKNOWN_URL)
        connection.putheader("Transfer-Encoding", "chunked")
        connection.putheader("Content-Type", "application/json")
        connection.endheaders()
        connection.send(b"2\r\n{}\r\n0\r\n\r\n")
        response = connection.getresponse()
        status, cache_control, body = (
            response.status,
            response.getheader("Cache-Control"),
            json.loads(response.read()),
        )
    finally:
        connection.close()

    assert (status, body["messageKey"], cache_control) == (
        411,
        "request.length_required",
        "no-store",
    )
