"""What a column of one sheet can be (docs/subsystems/import-mapping.md "Fields"), and what
people call it in English, Swedish, Norwegian, Danish, Finnish, German and Dutch.

A synonym is written as `header_words` normalises a header: lowercased, accents and the
Nordic letters folded (å ä -> a, ö ø -> o, æ -> ae, ß -> ss), every run of other characters
one space. The table is data, not code, so a missing word is one line to add.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

IGNORE = ""
# The place columns, from the top of the tree down, and the node kind each level makes.
PLACE_FIELDS = ("site", "building", "part", "component")
PLACE_KINDS = {"site": "site", "building": "building", "part": "system", "component": "component"}
# What the deepest place of a row gets from the row (a component's facts).
NODE_VALUE_FIELDS = ("code", "quantity", "unit", "install_year", "condition")
# What makes a row an action (a row with none of them is a component without an action).
ACTION_VALUE_FIELDS = (
    "title",
    "kind",
    "year",
    "cost",
    "interval",
    "status",
    "completed_on",
    "actual_cost",
)


@dataclass(frozen=True)
class SheetField:
    key: str
    label: str
    # The plan format's column it fills (planning.transfer.imports.columns); "" for a place
    # (which makes nodes) and the currency (which is the plan's).
    column: str


SHEET_FIELDS = (
    SheetField("site", "Site (place, level 1)", ""),
    SheetField("building", "Building (place, level 2)", ""),
    SheetField("part", "Part / system (place, level 3)", ""),
    SheetField("component", "Component (place, level 4)", ""),
    SheetField("title", "Action title", "title"),
    SheetField("kind", "Action kind", "kind"),
    SheetField("year", "Planned year", "planned_year"),
    SheetField("cost", "Estimated cost", "estimated_cost"),
    SheetField("quantity", "Quantity", "quantity"),
    SheetField("unit", "Unit", "unit"),
    SheetField("code", "Catalog code", "code"),
    SheetField("interval", "Interval (years)", "interval_years"),
    SheetField("status", "Status", "status"),
    SheetField("completed_on", "Completed on", "completed_on"),
    SheetField("actual_cost", "Actual cost", "actual_cost"),
    SheetField("condition", "Condition grade (0-3)", "condition_grade"),
    SheetField("install_year", "Install year", "install_year"),
    SheetField("currency", "Currency", ""),
)
FIELDS_BY_KEY = {field.key: field for field in SHEET_FIELDS}
FIELD_CHOICES = [(IGNORE, "Not imported"), *((field.key, field.label) for field in SHEET_FIELDS)]

LANGUAGES = {
    "en": "English",
    "sv": "Swedish",
    "no": "Norwegian",
    "da": "Danish",
    "fi": "Finnish",
    "de": "German",
    "nl": "Dutch",
}

# field -> language -> header words, written as header_words writes them.
HEADER_SYNONYMS: dict[str, dict[str, tuple[str, ...]]] = {
    "site": {
        "en": ("site", "property", "estate", "campus", "location"),
        "sv": ("fastighet", "omrade", "anlaggning", "fastighetsbeteckning"),
        "no": ("eiendom", "anlegg", "eiendomsnavn"),
        "da": ("ejendom", "afdeling", "matrikel"),
        "fi": ("kiinteisto", "kohde", "alue"),
        "de": ("liegenschaft", "grundstuck", "standort", "anwesen"),
        "nl": ("locatie", "complex", "terrein", "vastgoed"),
    },
    "building": {
        "en": ("building", "house", "block"),
        "sv": ("byggnad", "hus"),
        "no": ("bygning", "bygg"),
        "da": ("bygning",),
        "fi": ("rakennus", "talo"),
        "de": ("gebaude", "haus"),
        "nl": ("gebouw", "pand"),
    },
    "part": {
        "en": ("part", "system", "building part", "group", "section"),
        "sv": ("byggdel", "del", "system"),
        "no": ("bygningsdel", "del"),
        "da": ("bygningsdel", "del"),
        "fi": ("rakennusosa", "osa", "jarjestelma"),
        "de": ("gewerk", "bauteilgruppe", "bereich", "anlage"),
        "nl": ("bouwdeel", "onderdeel", "systeem"),
    },
    "component": {
        "en": ("component", "item", "asset", "element"),
        "sv": ("komponent", "objekt"),
        "no": ("komponent",),
        "da": ("komponent",),
        "fi": ("komponentti", "rakenneosa"),
        "de": ("komponente", "bauteil", "bauelement"),
        "nl": ("component", "element"),
    },
    "title": {
        "en": ("title", "action", "measure", "task", "description", "activity", "work"),
        "sv": ("atgard", "beskrivning", "aktivitet", "titel"),
        "no": ("tiltak", "beskrivelse", "aktivitet"),
        "da": ("handling", "beskrivelse", "indsats", "aktivitet"),
        "fi": ("toimenpide", "kuvaus", "tehtava"),
        "de": ("massnahme", "beschreibung", "tatigkeit", "titel"),
        "nl": ("maatregel", "actie", "omschrijving", "activiteit", "werkzaamheid"),
    },
    "kind": {
        "en": ("kind", "type", "action type", "category"),
        "sv": ("typ", "atgardstyp", "kategori"),
        "no": ("type", "tiltakstype", "kategori"),
        "da": ("type", "art", "kategori"),
        "fi": ("tyyppi", "laji"),
        "de": ("art", "typ", "massnahmenart", "kategorie"),
        "nl": ("soort", "categorie"),
    },
    "year": {
        "en": ("year", "planned year", "due year", "plan year"),
        "sv": ("ar", "planerat ar", "atgardsar"),
        "no": ("ar", "planlagt ar", "tiltaksar"),
        "da": ("ar", "aar", "planlagt ar"),
        "fi": ("vuosi", "suunniteltu vuosi", "toteutusvuosi"),
        "de": ("jahr", "geplantes jahr", "planjahr", "ausfuhrungsjahr"),
        "nl": ("jaar", "gepland jaar", "uitvoeringsjaar", "planjaar"),
    },
    "cost": {
        "en": ("cost", "estimated cost", "price", "budget", "estimate"),
        "sv": ("kostnad", "belopp", "pris", "uppskattad kostnad", "budget"),
        "no": ("kostnad", "belop", "pris", "estimert kostnad"),
        "da": ("omkostning", "pris", "belob", "udgift"),
        "fi": ("kustannus", "hinta", "kustannusarvio"),
        "de": ("kosten", "betrag", "preis", "geschatzte kosten"),
        "nl": ("kosten", "bedrag", "prijs", "begroting", "raming"),
    },
    "quantity": {
        "en": ("quantity", "qty"),
        "sv": ("antal", "mangd"),
        "no": ("antall", "mengde"),
        "da": ("antal", "maengde"),
        "fi": ("maara", "lukumaara"),
        "de": ("menge", "anzahl"),
        "nl": ("aantal", "hoeveelheid"),
    },
    "unit": {
        "en": ("unit",),
        "sv": ("enhet",),
        "no": ("enhet",),
        "da": ("enhed",),
        "fi": ("yksikko",),
        "de": ("einheit",),
        "nl": ("eenheid",),
    },
    "code": {
        "en": ("code", "catalog code"),
        "sv": ("kod",),
        "no": ("kode",),
        "da": ("kode",),
        "fi": ("koodi",),
        "de": ("schlussel", "kennung"),
        "nl": ("code",),
    },
    "interval": {
        "en": ("interval", "cycle", "frequency", "interval years", "every"),
        "sv": ("intervall", "cykel", "frekvens"),
        "no": ("intervall", "syklus", "frekvens"),
        "da": ("interval", "cyklus", "frekvens"),
        "fi": ("intervalli", "toistovali", "jakso"),
        "de": ("intervall", "zyklus", "turnus"),
        "nl": ("interval", "cyclus", "frequentie"),
    },
    "status": {
        "en": ("status", "state"),
        "sv": ("status",),
        "no": ("status",),
        "da": ("status",),
        "fi": ("tila",),
        "de": ("status",),
        "nl": ("status",),
    },
    "completed_on": {
        "en": ("completed on", "completed", "done on", "date done"),
        "sv": ("utford", "utford datum", "utfordatum", "klar datum"),
        "no": ("utfort", "utfort dato", "ferdig dato"),
        "da": ("udfort", "udfort dato", "afsluttet"),
        "fi": ("valmistunut", "tehty", "valmistumispaiva", "toteutettu"),
        "de": ("erledigt am", "erledigt", "ausgefuhrt am"),
        "nl": ("uitgevoerd op", "uitgevoerd", "datum gereed", "gereed"),
    },
    "actual_cost": {
        "en": ("actual cost", "final cost", "outturn"),
        "sv": ("verklig kostnad", "faktisk kostnad", "utfall"),
        "no": ("faktisk kostnad", "virkelig kostnad"),
        "da": ("faktisk omkostning", "faktisk pris"),
        "fi": ("toteutunut kustannus", "todellinen kustannus"),
        "de": ("istkosten", "ist kosten", "tatsachliche kosten"),
        "nl": ("werkelijke kosten",),
    },
    "condition": {
        "en": ("condition", "condition grade", "grade"),
        "sv": ("skick", "tillstand", "tillstandsgrad", "tg"),
        "no": ("tilstand", "tilstandsgrad", "tg"),
        "da": ("tilstand", "stand"),
        "fi": ("kunto", "kuntoluokka"),
        "de": ("zustand", "zustandsnote"),
        "nl": ("conditie", "staat", "conditiescore"),
    },
    "install_year": {
        "en": ("install year", "installed", "year installed", "installation year"),
        "sv": ("installationsar", "byggar", "installerad"),
        "no": ("installasjonsar", "byggear"),
        "da": ("installationsar", "opforelsesar"),
        "fi": ("asennusvuosi", "rakennusvuosi"),
        "de": ("einbaujahr", "baujahr"),
        "nl": ("installatiejaar", "bouwjaar"),
    },
    "currency": {
        "en": ("currency",),
        "sv": ("valuta",),
        "no": ("valuta",),
        "da": ("valuta",),
        "fi": ("valuutta",),
        "de": ("wahrung",),
        "nl": ("valuta",),
    },
}


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# Action kinds and statuses as the seven languages write them (a value, not a header).
KIND_WORDS: dict[str, tuple[str, ...]] = {
    "inspection": _words(
        "inspection check besiktning kontroll inspektion tilsyn tarkastus prufung prüfung "
        "inspectie keuring"
    ),
    "repair": _words(
        "repair maintenance reparation underhall underhåll reparasjon vedlikehold vedligehold "
        "korjaus huolto reparatur instandsetzung wartung reparatie herstel onderhoud"
    ),
    "replacement": _words(
        "replacement replace renewal byte utbyte ersattning ersättning utskifting utskiftning "
        "bytte udskiftning fornyelse uusiminen vaihto ersatz austausch erneuerung vervanging "
        "vernieuwing"
    ),
}
STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "planned": _words("planned planerad planlagt planlagd suunniteltu geplant gepland open öppen"),
    "done": _words(
        "done completed finished klar utförd utført ferdig udført färdig valmis tehty "
        "erledigt ausgeführt gedaan uitgevoerd gereed"
    ),
    "cancelled": _words(
        "cancelled canceled struken avbruten strøket kansellert avlyst aflyst annulleret "
        "peruttu peruutettu storniert abgesagt entfällt geannuleerd vervallen"
    ),
}

_FOLDED = str.maketrans({"ø": "o", "æ": "ae", "ß": "ss", "đ": "d", "ł": "l", "œ": "oe"})
_UNIT = re.compile(r"\([^)]*\)|\[[^\]]*\]")


def header_words(text: object) -> str:
    """A header or value as the tables write their words: lowercase, accents and Nordic letters
    folded, a parenthesised unit dropped, any other run of characters one space."""
    folded = unicodedata.normalize("NFKD", str(text or "").lower().translate(_FOLDED))
    letters = "".join(char for char in folded if not unicodedata.combining(char))
    letters = _UNIT.sub(" ", letters)
    return " ".join(re.findall(r"[a-z0-9]+", letters))


def _word_table(words: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {header_words(word): code for code, synonyms in words.items() for word in synonyms}


KIND_BY_WORD = {**_word_table(KIND_WORDS), **{code: code for code in KIND_WORDS}}
STATUS_BY_WORD = {**_word_table(STATUS_WORDS), **{code: code for code in STATUS_WORDS}}


def sheet_template_rows(*, year: int) -> list[tuple[object, ...]]:
    """The one-sheet template: the English headers and two example rows (an action, and a
    component without one), planned from `year`."""
    return [
        (
            "Site",
            "Building",
            "Part",
            "Component",
            "Title",
            "Kind",
            "Year",
            "Cost",
            "Interval",
            "Status",
            "Quantity",
            "Unit",
            "Install year",
            "Condition",
        ),
        (
            "Harbour estate",
            "House 1",
            "Roof",
            "Roofing felt",
            "Replace roofing felt",
            "Replacement",
            year + 2,
            185000,
            30,
            "Planned",
            420,
            "m2",
            1994,
            2,
        ),
        (
            "Harbour estate",
            "House 1",
            "Heating",
            "Boiler",
            "Service boiler",
            "Repair",
            year,
            4500,
            2,
            "Planned",
            1,
            "pcs",
            2012,
            1,
        ),
    ]
