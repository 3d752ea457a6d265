"""Deliveries over https: the connection goes to the checked address while the certificate is
verified for the URL's host name."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from webhooks import delivery
from webhooks.delivery import post
from webhooks.targets import target_check

pytestmark = pytest.mark.usefixtures("private_targets")


def _self_signed(directory: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@pytest.fixture
def tls_receiver(tmp_path: Path) -> Iterator[tuple[int, Path, list[str]]]:
    """An https receiver on 127.0.0.1 with a certificate for "localhost"; (port, cert, hosts)."""
    cert_path, key_path = _self_signed(tmp_path)
    hosts: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["Content-Length"]))
            hosts.append(self.headers["Host"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, key_path)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_port, cert_path, hosts
    server.shutdown()
    server.server_close()


def test_an_untrusted_certificate_is_a_failed_attempt(
    tls_receiver: tuple[int, Path, list[str]],
) -> None:
    port, _cert, hosts = tls_receiver
    outcome = post(target_check(f"https://localhost:{port}/in"), body=b"{}", headers={})
    assert outcome.status_code is None
    assert outcome.error.startswith("TLS error")
    assert hosts == []


def test_the_certificate_is_checked_for_the_host_name_at_the_pinned_address(
    tls_receiver: tuple[int, Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    port, cert, hosts = tls_receiver
    trusting = ssl.create_default_context(cafile=cert)  # trusts this certificate only
    monkeypatch.setattr(delivery.ssl, "create_default_context", lambda: trusting)
    # "localhost" may resolve to ::1 first; the receiver listens on 127.0.0.1.
    target = target_check(f"https://localhost:{port}/in")
    target = type(target)(target.scheme, target.host, target.port, target.path, ("127.0.0.1",))

    outcome = post(target, body=b"{}", headers={})

    assert (outcome.status_code, outcome.error) == (204, "")
    assert hosts == [f"localhost:{port}"]
