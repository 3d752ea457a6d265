"""The board report printed (docs/subsystems/board-report.md): its content
(planning.reports.content) laid out by the template `planning/report/board.html` with
static/css/board-report.css, and printed to PDF by WeasyPrint (`report_pdf`): HTML and CSS with
paged media (page size, running footer with page numbers) rendered in-process, with no browser to
start or keep alive in a worker.

The printer fetches nothing but its own files (`report_url_fetcher`): the stylesheet and fonts
shipped in the `FONTS` folder. Every other URL (http, https, data, ftp, any other file) is refused,
so a URL that ever reached the HTML (the template escapes everything it is given, but a printer
that fetches is one escaping slip from a request to an internal address or a read of a local
file) reaches no server and reads no file; WeasyPrint leaves the resource out and prints the
rest."""

from __future__ import annotations

import mimetypes
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from django.conf import settings
from django.template.loader import render_to_string

from planning.figures.prices import TODAY
from planning.models import Plan
from planning.reports.content import STEP_FIGURES, Progress, ReportContent, report_content

STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "board-report.css"
# Fonts the stylesheet may name with @font-face (none today: DejaVu Sans comes from the system
# through fontconfig, which no URL reaches).
FONTS = Path(settings.BASE_DIR) / "static" / "fonts"
# Drawing the PDF is the report job's last step (STEP_FIGURES is the content's).
STEP_PDF = ("Drawing the PDF", 100)


class ReportFetchRefused(Exception):
    """A URL the report's printer does not fetch."""


def report_url_fetcher(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """WeasyPrint's URL fetcher for the report: the stylesheet and the files under FONTS, read
    from disk, as `file:` URLs; ReportFetchRefused for anything else (another scheme, a host, a
    path elsewhere, `..` included: the path is resolved before it is compared)."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        raise ReportFetchRefused(
            f"The report fetches only its own files, not {parts.scheme}: URLs."
        )
    path = Path(url2pathname(parts.path)).resolve()
    own = path == STYLESHEET.resolve() or path.is_relative_to(FONTS.resolve())
    if not own or not path.is_file():
        raise ReportFetchRefused("The report fetches only its own stylesheet and fonts.")
    return {
        "string": path.read_bytes(),
        "mime_type": mimetypes.guess_type(path.name)[0] or "application/octet-stream",
        "filename": path.name,
    }


def report_html(content: ReportContent) -> str:
    return render_to_string("planning/report/board.html", {"report": content, "plan": content.plan})


def report_pdf(
    *, plan: Plan, prices: str = TODAY, today: date | None = None, progress: Progress | None = None
) -> bytes:
    """The board report of `plan` as PDF bytes."""
    # WeasyPrint loads its text-layout libraries (Pango) when imported: only here, so a process
    # that never prints a report never needs them.
    import weasyprint

    content = report_content(plan=plan, prices=prices, today=today, progress=progress)
    if progress:
        progress(STEP_FIGURES[0], STEP_FIGURES[1])
    html = report_html(content)
    stylesheet = weasyprint.CSS(url=STYLESHEET.resolve().as_uri(), url_fetcher=report_url_fetcher)
    document = weasyprint.HTML(string=html, url_fetcher=report_url_fetcher)
    pdf: bytes = document.write_pdf(stylesheets=[stylesheet])
    if progress:
        progress(STEP_PDF[0], STEP_PDF[1])
    return pdf


def report_filename(plan: Plan, made_on: date) -> str:
    return f"plan-{plan.number}-board-report-{made_on.isoformat()}.pdf"
