"""The columns of one sheet guessed from its headers in seven languages and from its values
(planning.transfer.imports.sheet.guess), on sheets made as a person's spreadsheet would be, and
the values read as such sheets write them (planning.transfer.imports.sheet.values)."""

from __future__ import annotations

import datetime
import io
from collections.abc import Sequence
from decimal import Decimal

import pytest
from openpyxl import Workbook, load_workbook

from planning.transfer.imports.sheet import values
from planning.transfer.imports.sheet.guess import columns_guessed, header_guess
from planning.transfer.imports.sheet.preview import sheet_preview, sheet_sample
from planning.transfer.imports.sheet.source import is_one_sheet, sheet_source

FIELDS = ["site", "building", "part", "component", "title", "kind", "year", "cost", "interval"]
FIELDS += ["status", "quantity", "unit", "condition"]

HEADERS = {
    "en": ["Property", "Building", "Building part", "Component", "Action", "Type", "Year",
           "Estimated cost (EUR)", "Interval", "Status", "Quantity", "Unit", "Condition"],
    "sv": ["Fastighet", "Byggnad", "Byggdel", "Komponent", "Åtgärd", "Åtgärdstyp", "År",
           "Kostnad (kr)", "Intervall", "Status", "Antal", "Enhet", "Tillståndsgrad"],
    "no": ["Eiendom", "Bygning", "Bygningsdel", "Komponent", "Tiltak", "Tiltakstype", "År",
           "Estimert kostnad", "Syklus", "Status", "Antall", "Enhet", "Tilstandsgrad"],
    "da": ["Ejendom", "Bygning", "Bygningsdel", "Komponent", "Indsats", "Kategori", "År",
           "Omkostning", "Cyklus", "Status", "Antal", "Enhed", "Tilstand"],
    "fi": ["Kiinteistö", "Rakennus", "Rakennusosa", "Komponentti", "Toimenpide", "Tyyppi",
           "Vuosi", "Kustannusarvio", "Toistoväli", "Tila", "Määrä", "Yksikkö", "Kuntoluokka"],
    "de": ["Liegenschaft", "Gebäude", "Gewerk", "Bauteil", "Maßnahme", "Maßnahmenart", "Jahr",
           "Geschätzte Kosten", "Zyklus", "Status", "Menge", "Einheit", "Zustand"],
    "nl": ["Complex", "Gebouw", "Bouwdeel", "Element", "Maatregel", "Soort", "Jaar",
           "Kosten (€)", "Cyclus", "Status", "Hoeveelheid", "Eenheid", "Conditie"],
}  # fmt: skip


def _workbook(rows: Sequence[Sequence[object]], title: str = "Sheet1") -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = title
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


@pytest.mark.parametrize("language", list(HEADERS))
def test_the_headers_of_each_language_are_guessed(language: str) -> None:
    content = _workbook(
        [
            HEADERS[language],
            [
                "North",
                "House 1",
                "Roof",
                "Felt",
                "Relay",
                "Replacement",
                2030,
                1200,
                30,
                "planned",
                120,
                "m2",
                2,
            ],
        ]
    )
    sample = sheet_sample(content, f"{language}.xlsx")

    guesses = columns_guessed(
        sample.headers, [cells for _n, cells in sample.rows], decimal_comma=False
    )

    assert [guess.field for guess in guesses] == FIELDS
    assert all(guess.reason for guess in guesses)


def test_a_guess_says_why() -> None:
    assert header_guess("Byggnad") is not None
    guess, sureness = header_guess("Byggnad")  # type: ignore[misc]
    assert (guess.field, sureness) == ("building", 3)
    assert guess.reason == '"Byggnad" is Swedish for Building (place, level 2)'
    contains, _sure = header_guess("Actual cost incl. VAT")  # type: ignore[misc]
    assert contains.field == "actual_cost"  # the longest synonym it contains, not "cost"
    close, _sure = header_guess("Byggnader")  # type: ignore[misc]
    assert close.field == "building" and "close to" in close.reason


def test_a_semicolon_csv_with_decimal_commas_is_guessed_and_read() -> None:
    content = (
        "Fastighet;Hus;Vad;När;Belopp;Klart\n"
        "Norra;Hus 1;Byte av tak;2031;1.234,50;utförd\n"
        "Norra;Hus 2;Målning;2029;950,25;planerad\n"
    ).encode()
    sample = sheet_sample(content, "plan.csv")
    assert (sample.separator, sample.decimal_comma) == (";", True)

    guesses = columns_guessed(sample.headers, [c for _n, c in sample.rows], decimal_comma=True)

    # "Vad", "När", "Belopp" and "Klart" are no synonyms: their values tell.
    assert [guess.field for guess in guesses] == ["site", "building", "", "year", "cost", "status"]
    assert guesses[3].reason == "its values are years"
    columns = [guess.field for guess in guesses]
    columns[2] = "title"
    preview = sheet_preview(sample, columns, currency_chosen="SEK")
    assert preview.problems == []
    costs = [row.action["estimated_cost"] for row in preview.rows if row.action]
    assert costs == [Decimal("1234.50"), Decimal("950.25")]
    assert [row.action["status"] for row in preview.rows if row.action] == ["Done", "Planned"]


def test_a_tab_separated_file_is_one_sheet_and_json_or_a_plan_workbook_are_not() -> None:
    assert is_one_sheet(b"Site\tBuilding\nA\tB\n")
    assert is_one_sheet(_workbook([["Site", "Building"], ["A", "B"]]))
    assert not is_one_sheet(b' \n{"name": "x", "nodes": []}')
    assert not is_one_sheet(_workbook([["ref", "name", "kind"]], title="Nodes"))


@pytest.mark.parametrize(
    ("written", "comma", "read"),
    [
        ("12 000 kr", False, Decimal("12000")),
        ("€ 1.234,50", False, Decimal("1234.50")),
        ("1,234.50", False, Decimal("1234.50")),
        ("12,000", False, Decimal("12000")),
        ("12,5", True, Decimal("12.5")),
        ("1.234", True, Decimal("1234")),
        ("SEK 950:-", False, Decimal("950")),
        ("many", False, "many"),
    ],
)
def test_money_is_read_as_people_write_it(written: str, comma: bool, read: object) -> None:
    assert values.money(written, decimal_comma=comma) == read


def test_intervals_grades_dates_kinds_and_statuses_in_their_languages() -> None:
    assert values.whole("10 år", words=True) == 10
    assert values.whole("every 5 years", words=True) == 5
    assert values.grade("TG2") == 2
    assert values.day("31.12.2024") == "2024-12-31"
    assert values.day(datetime.datetime(2024, 5, 1)) == "2024-05-01"
    assert values.day("31.02.2024") == "31.02.2024"  # no such day: the import says so
    assert [values.action_kind(word) for word in ("Utbyte", "Tarkastus", "Reparatur")] == [
        "replacement",
        "inspection",
        "repair",
    ]
    assert [values.action_status(word) for word in ("Utført", "Gepland", "Peruttu")] == [
        "done",
        "planned",
        "cancelled",
    ]


def test_the_previews_first_rows_are_the_values_the_import_reads() -> None:
    """A one-sheet workbook is read without openpyxl (sheet.xlsx_rows: the preview's first rows,
    the import's every row); its values are those openpyxl gives, dates, numbers and blanks
    included."""
    rows: list[list[object]] = [
        ["Site", "Building", "Title", "Year", "Cost", "Completed on", "Done", "Note"],
        ["A", "B", "Paint", 2030, 1200.5, datetime.datetime(2024, 5, 1), True, None],
        [None, None, None, None, None, None, None, None],
        ["A", 101, "=ignored", 2031, 7, None, False, "x" * 300],
    ]
    rows += [["A", f"B{n}", "Roof", 2030 + n, n * 10, None, None, "é"] for n in range(40)]
    content = _workbook(rows)
    sheet = load_workbook(io.BytesIO(content), read_only=True, data_only=True).worksheets[0]
    by_openpyxl = [list(row) for row in sheet.iter_rows(values_only=True)]
    imported = [cells for _n, cells in sheet_source(content, "sheet.xlsx").rows()]

    sample = sheet_sample(content, "sheet.xlsx")

    assert sample.headers == [str(title) for title in rows[0]]
    filled = [(n, cells) for n, cells in enumerate(by_openpyxl, 1) if any(cells)][1:21]
    assert sample.rows == filled
    assert [cells + [None] * (8 - len(cells)) for cells in imported] == by_openpyxl
    assert sample.rows[0] == (
        2,
        ["A", "B", "Paint", 2030, 1200.5, datetime.datetime(2024, 5, 1), True, None],
    )
