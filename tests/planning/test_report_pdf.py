"""The board report's printer fetches nothing but its own stylesheet and fonts
(planning.reports.pdf, docs/subsystems/board-report.md "Why WeasyPrint"; issue 37, point 8):
a URL in the HTML, whatever put it there, reaches no server and reads no file."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from planning.models import Plan
from planning.reports import pdf as printer
from tests.factories import PlanFactory

pytestmark = pytest.mark.django_db


class _Recorder(http.server.BaseHTTPRequestHandler):
    paths: list[str]

    def do_GET(self) -> None:
        self.paths.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body { color: red; }")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def loopback_server() -> Iterator[tuple[str, list[str]]]:
    """An HTTP server on 127.0.0.1 that records every path asked of it."""
    paths: list[str] = []
    handler = type("Handler", (_Recorder,), {"paths": paths})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", paths
    finally:
        server.shutdown()
        server.server_close()


def test_the_printer_fetches_no_http_url(
    loopback_server: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """HTML that names an image, a stylesheet and a font on 127.0.0.1 and a local file: the
    report is still printed, and nothing was fetched."""
    base, paths = loopback_server
    secret = tmp_path / "secret.css"
    secret.write_text("body { color: red; }")
    html = (
        f'<html><head><link rel="stylesheet" href="{base}/sheet.css">'
        f'<link rel="stylesheet" href="file://{secret}">'
        f"<style>@import url({base}/imported.css);"
        f"@font-face {{ font-family: X; src: url({base}/font.woff2); }}</style></head>"
        f'<body style="font-family: X"><img src="{base}/pixel.png">'
        f'<img src="file:///etc/hostname">Report</body></html>'
    )
    monkeypatch.setattr(printer, "report_html", lambda content: html)
    plan: Plan = PlanFactory.create()

    pdf = printer.report_pdf(plan=plan)

    assert pdf.startswith(b"%PDF-")
    assert paths == []


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "https://127.0.0.1:8443/x.css",
        "http://169.254.169.254/latest/meta-data/",
        "file:///etc/passwd",
        "ftp://127.0.0.1/x",
        "data:text/css,body{}",
    ],
)
def test_the_fetcher_refuses_every_other_url(url: str) -> None:
    with pytest.raises(printer.ReportFetchRefused):
        printer.report_url_fetcher(url)


def test_the_fetcher_refuses_a_path_that_climbs_out_of_the_report_files() -> None:
    escaped = printer.STYLESHEET.resolve().parent / ".." / ".." / "css" / "app.css"
    with pytest.raises(printer.ReportFetchRefused):
        printer.report_url_fetcher(escaped.as_uri())
    with pytest.raises(printer.ReportFetchRefused):
        printer.report_url_fetcher(printer.STYLESHEET.as_uri() + "/../app.css")


def test_the_fetcher_serves_the_report_stylesheet() -> None:
    served = printer.report_url_fetcher(printer.STYLESHEET.resolve().as_uri())
    assert served["string"] == printer.STYLESHEET.read_bytes()
    assert served["mime_type"] == "text/css"


def test_the_report_reads_its_stylesheet_through_the_fetcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fetched: list[str] = []
    own = printer.report_url_fetcher

    def spy(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        fetched.append(url)
        return own(url, *args, **kwargs)

    monkeypatch.setattr(printer, "report_url_fetcher", spy)
    printer.report_pdf(plan=PlanFactory.create())
    assert fetched == [printer.STYLESHEET.resolve().as_uri()]
