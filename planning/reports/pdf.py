"""The board report printed (docs/subsystems/board-report.md): its content
(planning.reports.content) laid out by the template `planning/report/board.html` with
static/css/board-report.css, and printed to PDF by WeasyPrint (`report_pdf`): HTML and CSS with
paged media (page size, running footer with page numbers) rendered in-process, with no browser to
start or keep alive in a worker."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string

from planning.figures.prices import TODAY
from planning.models import Plan
from planning.reports.content import STEP_FIGURES, Progress, ReportContent, report_content

STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "board-report.css"
# Drawing the PDF is the report job's last step (STEP_FIGURES is the content's).
STEP_PDF = ("Drawing the PDF", 100)


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
    stylesheet = weasyprint.CSS(filename=str(STYLESHEET))
    pdf: bytes = weasyprint.HTML(string=html).write_pdf(stylesheets=[stylesheet])
    if progress:
        progress(STEP_PDF[0], STEP_PDF[1])
    return pdf


def report_filename(plan: Plan, made_on: date) -> str:
    return f"plan-{plan.number}-board-report-{made_on.isoformat()}.pdf"
