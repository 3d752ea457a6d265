"""A one-sheet import through its mapping page (planning.web.views.import_mapping) and the job
(planning.transfer.imports.sheet.mapped): the preview's rows and problems by the rows a person
counts, the mapping remembered per organisation, the plan's tree from the place columns, the
currency from the file or the form, and the file refused whole with every problem."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import Workbook, load_workbook

from planning.models import (
    Action,
    ImportMapping,
    Plan,
    PlanImport,
    PlanImportFormat,
    PlanImportStatus,
    StructureNode,
)
from tests.conftest import run_queued_jobs
from tests.factories import OrganisationFactory

pytestmark = pytest.mark.usefixtures("starter_catalog")

Y = timezone.now().year
HEADER: list[object] = [
    "Fastighet",
    "Byggnad",
    "Byggdel",
    "Komponent",
    "Åtgärd",
    "År",
    "Kostnad",
    "Status",
]
ROWS: list[list[object]] = [
    ["Norra", "Hus 1", "Tak", "Takpapp", "Byte av takpapp", Y + 2, 185000, "Planerad"],
    ["Norra", "Hus 1", "Tak", "Hängrännor", None, None, None, None],
    ["norra", "Hus 1", "Fönster", "Fönster", "Målning", Y + 1, 42000.5, None],
    ["Södra", "Hus 2", None, None, "Besiktning", Y, 3000, "planerad"],
]


def _workbook(rows: Sequence[Sequence[object]]) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _upload(client: Client, content: bytes, name: str = "Underhållsplan.xlsx", **form: str) -> Any:
    return client.post(
        reverse("planning:plan_import"),
        {
            "import-plan_file": SimpleUploadedFile(name, content),
            "import-idempotency_key": name + str(len(content)),
            **{f"import-{key}": value for key, value in form.items()},
        },
    )


def _confirm(
    client: Client, captured: Any, upload: PlanImport, columns: list[str], **form: str
) -> Any:
    """Confirms the mapping; the job it queues on commit is then in the queue."""
    data = {f"column_{index}": field for index, field in enumerate(columns)}
    with captured(execute=True):
        return client.post(
            reverse("planning:plan_import_mapping", args=[upload.pk]),
            {**data, "currency": "SEK", "name": "", "confirm": "1", **form},
        )


GUESSED = ["site", "building", "part", "component", "title", "year", "cost", "status"]


def test_a_sheet_goes_to_its_mapping_page_with_the_guesses_and_a_preview(
    client: Client, user: Any
) -> None:
    client.force_login(user)

    response = _upload(client, _workbook([HEADER, *ROWS]))

    upload = PlanImport.objects.get()
    assert (upload.file_format, upload.status) == (PlanImportFormat.SHEET, PlanImportStatus.MAPPING)
    assert response["Location"] == reverse("planning:plan_import_mapping", args=[upload.pk])
    page = client.get(response["Location"])
    html = page.content.decode()
    form = page.context["form"]
    assert [form[f"column_{i}"].value() for i in range(len(HEADER))] == GUESSED
    assert "&quot;Byggnad&quot; is Swedish for Building (place, level 2)" in html
    rows = page.context["preview"].rows
    assert [row.place for row in rows] == [
        ["Norra", "Hus 1", "Tak", "Takpapp"],
        ["Norra", "Hus 1", "Tak", "Hängrännor"],
        ["Norra", "Hus 1", "Fönster", "Fönster"],  # "norra" is the same site
        ["Södra", "Hus 2"],
    ]
    assert rows[1].action is None  # a component without an action
    assert rows[2].action is not None and rows[2].action["kind"] == "Replacement"  # the default
    assert "Amounts will be read as <strong>EUR</strong>" in html  # the catalog's
    assert not PlanImport.objects.filter(status=PlanImportStatus.QUEUED).exists()  # no job yet


def test_the_preview_lists_problems_by_the_rows_a_person_counts(client: Client, user: Any) -> None:
    client.force_login(user)
    bad: list[list[object]] = [
        ["Norra", "Hus 1", "Tak", "Takpapp", "Byte", "20x8", 100, None],  # row 2
        [None, None, None, None, "Utan plats", Y, 100, None],  # row 3
        ["Norra", "Hus 1", "Tak", "Takpapp", None, Y, -5, "klar"],  # row 4
    ]
    _upload(client, _workbook([HEADER, *bad]))
    upload = PlanImport.objects.get()

    page = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))

    assert page.context["preview"].problems == [
        'row 2: År: must be a whole number (a year), got "20x8"',
        'row 3: has no place: fill in at least one of "Fastighet", "Byggnad", "Byggdel", '
        '"Komponent"',
        "row 4: Åtgärd: is required",
        "row 4: Kostnad: Cannot be negative.",
    ]
    assert "problems in these rows" in page.content.decode()


def test_a_cost_of_nan_or_infinity_is_a_problem_of_its_row_not_a_crash(
    client: Client, user: Any
) -> None:
    client.force_login(user)
    lines = [";".join(str(cell) for cell in HEADER)]
    lines += [f"Norra;Hus 1;Tak;Takpapp;Byte;{Y};{cost};" for cost in ("NaN", "Infinity")]
    _upload(client, "\n".join(lines).encode(), name="plan.csv")
    upload = PlanImport.objects.get()

    page = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))

    assert page.status_code == 200
    problems = page.context["preview"].problems
    assert [problem.split(":")[0] for problem in problems] == ["row 2", "row 3"]
    assert all("Kostnad" in problem for problem in problems)


def test_a_row_numbered_with_other_digits_is_read_not_a_crash(client: Client, user: Any) -> None:
    """`str.isdigit` is true of "²", which `int` cannot read: the reader takes such a row as the
    next one, as openpyxl does a row without a number."""
    client.force_login(user)
    source = io.BytesIO(_workbook([HEADER, *ROWS]))
    patched = io.BytesIO()
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(patched, "w") as copy:
        for item in original.infolist():
            data = original.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b'<row r="2"', '<row r="\u00b2"'.encode())
            copy.writestr(item, data)

    _upload(client, patched.getvalue())
    upload = PlanImport.objects.get()
    page = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))

    assert page.status_code == 200
    assert [row.number for row in page.context["preview"].rows] == list(range(2, 2 + len(ROWS)))


def test_a_mapping_without_a_place_is_refused_beside_the_columns(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    _upload(client, _workbook([HEADER, *ROWS]))
    upload = PlanImport.objects.get()

    response = _confirm(
        client,
        django_capture_on_commit_callbacks,
        upload,
        ["", "", "", "", "title", "year", "cost", "cost"],
    )

    assert response.status_code == 200
    assert response.context["preview"].mapping_problems == [
        "Choose a place column (Site, Building, Part or Component): the plan's nodes come from "
        "them.",
        'Estimated cost is chosen for more than one column ("Kostnad" and "Status").',
    ]
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.MAPPING


def test_the_confirmed_sheet_becomes_the_plan_with_its_tree_and_actions(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    _upload(client, _workbook([HEADER, *ROWS]))
    upload = PlanImport.objects.get()

    response = _confirm(client, django_capture_on_commit_callbacks, upload, GUESSED, currency="SEK")

    assert response["Location"] == reverse("planning:plan_import_detail", args=[upload.pk])
    assert run_queued_jobs() == 1
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.DONE, upload.problems
    plan = Plan.objects.get()
    assert (plan.name, plan.currency) == ("Underhållsplan", "SEK")
    nodes = {
        (node.name, node.kind, node.parent.name if node.parent else None)
        for node in StructureNode.objects.filter(plan=plan).select_related("parent")
    }
    assert nodes == {
        ("Norra", "site", None),
        ("Hus 1", "building", "Norra"),
        ("Tak", "system", "Hus 1"),
        ("Takpapp", "component", "Tak"),
        ("Hängrännor", "component", "Tak"),
        ("Fönster", "system", "Hus 1"),
        ("Fönster", "component", "Fönster"),
        ("Södra", "site", None),
        ("Hus 2", "building", "Södra"),
    }
    actions = sorted(
        Action.objects.filter(plan=plan).values_list(
            "node__name", "title", "kind", "planned_year", "estimated_cost"
        )
    )
    assert actions == [
        ("Fönster", "Målning", "replacement", Y + 1, Decimal("42000.50")),
        ("Hus 2", "Besiktning", "replacement", Y, Decimal("3000.00")),
        ("Takpapp", "Byte av takpapp", "replacement", Y + 2, Decimal("185000.00")),
    ]
    page = client.get(reverse("planning:plan_import_detail", args=[upload.pk]))
    assert page["Location"] == reverse("planning:plan_detail", args=[plan.number])


def test_a_currency_column_comes_before_the_forms_choice(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    rows: list[list[object]] = [["Site", "Building", "Title", "Year", "Cost", "Currency"]]
    rows += [["A", "B", "Paint", Y + 1, 100, "nok"], ["A", "C", "Roof", Y + 2, 200, "NOK"]]
    _upload(client, _workbook(rows))
    upload = PlanImport.objects.get()
    page = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))
    assert "Amounts will be read as <strong>NOK</strong> (from the file: row 2)" in (
        page.content.decode()
    )

    _confirm(
        client,
        django_capture_on_commit_callbacks,
        upload,
        ["site", "building", "title", "year", "cost", "currency"],
    )
    run_queued_jobs()

    assert Plan.objects.get().currency == "NOK"


def test_the_mapping_is_remembered_for_the_same_headers(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    _upload(client, _workbook([HEADER, *ROWS]), name="first.xlsx")
    first = PlanImport.objects.get()
    chosen = [*GUESSED[:6], "actual_cost", ""]  # "Kostnad" was the actual cost, Status left out
    _confirm(client, django_capture_on_commit_callbacks, first, chosen)
    saved = ImportMapping.objects.get()
    assert (saved.organisation, saved.columns) == (user.personal_organisation, chosen)

    # The same headers in another case: the mapping confirmed is chosen again.
    _upload(
        client, _workbook([[str(title).upper() for title in HEADER], *ROWS]), name="second.xlsx"
    )
    second = PlanImport.objects.get(filename="second.xlsx")
    page = client.get(reverse("planning:plan_import_mapping", args=[second.pk]))

    form = page.context["form"]
    assert [form[f"column_{i}"].value() for i in range(len(HEADER))] == chosen
    assert 'id="mapping-saved"' in page.content.decode()
    # Another organisation's file with these headers gets the guesses.
    other = OrganisationFactory.create()
    assert not ImportMapping.objects.filter(organisation=other).exists()


def test_the_whole_file_is_refused_with_every_problem_and_nothing_written(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)
    rows = [HEADER, *ROWS] + [
        ["Norra", "Hus 9", None, None, f"Åtgärd {n}", Y, 1, None] for n in range(30)
    ]
    rows.append(["Norra", "Hus 9", None, None, "Sist", "nästa år", 1, None])  # row 36
    _upload(client, _workbook(rows))
    upload = PlanImport.objects.get()

    _confirm(client, django_capture_on_commit_callbacks, upload, GUESSED)
    run_queued_jobs()

    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.REJECTED
    assert upload.problems == ['row 36: År: must be a whole number (a year), got "nästa år"']
    assert not Plan.objects.exists()
    page = client.get(reverse("planning:plan_import_detail", args=[upload.pk])).content.decode()
    assert "row 36: År: must be a whole number (a year), got &quot;nästa år&quot;" in page
    assert "one sheet as you keep it" in page  # what a corrected file may be


def test_a_csv_wider_than_64_columns_is_refused_on_its_page(client: Client, user: Any) -> None:
    client.force_login(user)
    _upload(client, (",".join(f"c{n}" for n in range(70)) + "\n").encode(), name="wide.csv")
    upload = PlanImport.objects.get()

    response = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))

    assert response["Location"] == reverse("planning:plan_import_detail", args=[upload.pk])
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.REJECTED
    assert upload.problems == ["wide.csv row 1: has 70 columns; a table has at most 64"]


def test_the_template_is_one_sheet_whose_headers_are_guessed_back(client: Client) -> None:
    response = client.get(reverse("planning:plan_import_sheet_template"))

    content = b"".join(response.streaming_content)  # type: ignore[attr-defined]
    sheet = load_workbook(io.BytesIO(content)).worksheets[0]
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert len(rows) == 3 and rows[0][:4] == ["Site", "Building", "Part", "Component"]
    from planning.transfer.imports.sheet.guess import columns_guessed

    guesses = columns_guessed(rows[0], rows[1:], decimal_comma=False)  # type: ignore[arg-type]
    assert "" not in [guess.field for guess in guesses]


def test_the_plan_list_says_what_is_accepted(client: Client, user: Any) -> None:
    client.force_login(user)
    html = client.get(reverse("planning:plan_list")).content.decode()
    assert "one sheet as you keep it" in html
    assert reverse("planning:plan_import_sheet_template") in html
    assert "A JSON file or a CSV pair" not in client.get("/").content.decode()


def test_a_new_sheet_replaces_the_one_still_waiting_for_its_mapping(
    client: Client, user: Any
) -> None:
    client.force_login(user)
    _upload(client, _workbook([HEADER, *ROWS]), name="first.xlsx")
    first = PlanImport.objects.get()

    _upload(client, _workbook([HEADER, *ROWS[:2]]), name="second.xlsx")

    assert list(PlanImport.objects.values_list("filename", flat=True)) == ["second.xlsx"]
    assert client.get(reverse("planning:plan_import_mapping", args=[first.pk])).status_code == 404


def _marked_encrypted(content: bytes, part: str) -> bytes:
    """`content` with `part` marked encrypted (bit 0 of its entries' flags), as a part of a
    workbook saved with a password is."""
    data = bytearray(content)
    # (signature, where the flags are, where the name's length is, where the name starts)
    for signature, flags_at, length_at, name_at in (
        (b"PK\x03\x04", 6, 26, 30),
        (b"PK\x01\x02", 8, 28, 46),
    ):
        at = data.find(signature)
        while at >= 0:
            length = int.from_bytes(data[at + length_at : at + length_at + 2], "little")
            if data[at + name_at : at + name_at + length] == part.encode():
                data[at + flags_at] |= 0x1
            at = data.find(signature, at + 4)
    return bytes(data)


def test_a_workbook_with_a_password_is_refused_with_a_reason_not_a_500(
    client: Client, user: Any
) -> None:
    client.force_login(user)
    sheet = _workbook([["Site", "Title"], ["A", "B"]])
    _upload(client, _marked_encrypted(sheet, "xl/worksheets/sheet1.xml"))
    upload = PlanImport.objects.get()

    response = client.get(reverse("planning:plan_import_mapping", args=[upload.pk]))

    assert response["Location"] == reverse("planning:plan_import_detail", args=[upload.pk])
    upload.refresh_from_db()
    assert upload.status == PlanImportStatus.REJECTED
    assert upload.problems[0].startswith("Underhållsplan.xlsx: not a readable Excel workbook")
    assert "encrypted" in upload.problems[0]
