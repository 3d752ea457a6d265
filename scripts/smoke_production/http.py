"""HTTP over loopback as a browser behind a TLS proxy would speak it (stdlib only)."""

from __future__ import annotations

import http.client
import json
import uuid
from typing import Any


class Response:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")


class Browser:
    """Cookies kept by hand: the servers see https (X-Forwarded-Proto), so cookies are Secure,
    which a plain-http client library would not send back."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(
        self,
        port: int,
        method: str,
        path: str,
        *,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float = 30,
    ) -> Response:
        all_headers = {
            "Host": f"127.0.0.1:{port}",
            "X-Forwarded-Proto": "https",
            **(headers or {}),
        }
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        try:
            connection.request(method, path, body=body, headers=all_headers)
            answer = connection.getresponse()
            content = answer.read()
            for header, value in answer.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            return Response(answer.status, dict(answer.getheaders()), content)
        finally:
            connection.close()

    def get(self, port: int, path: str, **options: Any) -> Response:
        return self.request(port, "GET", path, **options)

    def post_json(self, port: int, path: str, data: object) -> Response:
        return self.request(
            port,
            "POST",
            path,
            body=json.dumps(data).encode(),
            headers={"Content-Type": "application/json", "Accept": "application/json"},
        )

    def post_multipart(
        self, port: int, path: str, fields: dict[str, str], files: dict[str, tuple[str, bytes]]
    ) -> Response:
        boundary = uuid.uuid4().hex
        parts: list[bytes] = []
        for name, value in fields.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n".encode()
            )
        for name, (filename, content) in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'.encode()
                + content
                + b"\r\n"
            )
        parts.append(f"--{boundary}--\r\n".encode())
        origin = f"https://127.0.0.1:{port}"
        return self.request(
            port,
            "POST",
            path,
            body=b"".join(parts),
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Origin": origin,
                "Referer": f"{origin}/plans/",
            },
            timeout=60,
        )


def api_get(port: int, path: str, key: str) -> Response:
    return Browser().get(
        port, path, headers={"Authorization": f"Bearer {key}", "Accept": "application/json"}
    )


def api_session_check(port: int, key: str) -> Response:
    return Browser().request(
        port,
        "POST",
        "/api/v1/auth/session/api-key",
        headers={"Authorization": f"Bearer {key}", "Accept": "application/json"},
    )
