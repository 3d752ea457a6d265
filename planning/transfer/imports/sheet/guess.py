"""Which field each column of one sheet is, guessed from its header and its first values
(docs/subsystems/import-mapping.md "Guesses"). Deterministic and explained: every guess says
why ('"Byggnad" is Swedish for Building'), so a person can judge it.

In order, for each column: a header that is a synonym of a field (HEADER_SYNONYMS, any of the
seven languages); a header that contains one (the longest wins: "Actual cost" before "cost");
a header close to one (difflib, a typo or an inflection); then the values of the columns still
unguessed: years, dates, statuses, kinds, condition grades, intervals, money. A field is given
to one column only: the first guessed in that order, then left to right.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from planning.transfer.imports.sheet.fields import (
    FIELDS_BY_KEY,
    HEADER_SYNONYMS,
    IGNORE,
    KIND_BY_WORD,
    LANGUAGES,
    STATUS_BY_WORD,
    header_words,
)
from planning.transfer.imports.sheet.values import currency_named, day, money

# How close a header must be to a synonym for difflib's ratio to count it (0-1).
CLOSE_ENOUGH = 0.84


@dataclass(frozen=True)
class ColumnGuess:
    field: str  # a SHEET_FIELDS key, IGNORE when nothing fits
    reason: str


_SYNONYMS: list[tuple[str, str, str]] = sorted(
    (
        (header_words(word), field, language)
        for field, languages in HEADER_SYNONYMS.items()
        for language, words in languages.items()
        for word in words
    ),
    key=lambda entry: (-len(entry[0]), entry[0]),
)
_EXACT: dict[str, tuple[str, str]] = {}
for _words, _field, _language in _SYNONYMS:
    _EXACT.setdefault(_words, (_field, _language))


def _languages(words: str) -> str:
    """The languages a synonym belongs to, for the reason ("Swedish, Norwegian")."""
    found = [
        LANGUAGES[language]
        for language, synonyms in HEADER_SYNONYMS[_EXACT[words][0]].items()
        if words in {header_words(word) for word in synonyms}
    ]
    return ", ".join(found)


def header_guess(title: str) -> tuple[ColumnGuess, int] | None:
    """The field a header names and how sure (3 the same words, 2 contains, 1 close), or None."""
    words = header_words(title)
    if not words:
        return None
    label = lambda field: FIELDS_BY_KEY[field].label  # noqa: E731
    if words in _EXACT:
        field, _language = _EXACT[words]
        reason = f'"{title}" is {_languages(words)} for {label(field)}'
        return ColumnGuess(field, reason), 3
    padded = f" {words} "
    for synonym, field, _language in _SYNONYMS:  # longest first
        if len(synonym) > 2 and f" {synonym} " in padded:
            reason = f'"{title}" contains "{synonym}" ({_languages(synonym)}: {label(field)})'
            return ColumnGuess(field, reason), 2
    close = difflib.get_close_matches(words, list(_EXACT), n=1, cutoff=CLOSE_ENOUGH)
    if close:
        field = _EXACT[close[0]][0]
        reason = f'"{title}" is close to "{close[0]}" ({_languages(close[0])}: {label(field)})'
        return ColumnGuess(field, reason), 1
    return None


_YEAR = re.compile(r"\s*(19|20|21)\d\d\s*")
_INTERVAL = re.compile(
    r"(?i)\s*(every\s+|var\s+|hvert?\s+|alle\s+|joka\s+|elke\s+|om\s+de\s+)?\d{1,3}\s*"
    r"(years?|yrs?|y|år|ar|aar|jahre?n?|jaar|vuotta|v|vuoden\s+välein)\.?\s*"
)
_GRADE = re.compile(r"(?i)\s*tg\s*[0-3]\s*")


def _is_year(value: object) -> bool:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return 1900 <= value <= 2199
    return isinstance(value, str) and bool(_YEAR.fullmatch(value))


def _is_date(value: object) -> bool:
    if isinstance(value, datetime.date):
        return True
    if not isinstance(value, str) or _is_year(value):
        return False
    found = day(value)
    return isinstance(found, str) and found != value and bool(re.match(r"\d{4}-", found))


def _is_money(value: object, decimal_comma: bool) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float | Decimal):
        return True
    read = money(value, decimal_comma=decimal_comma)
    return isinstance(read, Decimal)


def value_guess(values: Sequence[object], *, decimal_comma: bool) -> ColumnGuess | None:
    """What a column's first values look like, when every filled one looks the same."""
    filled = [value for value in values if value is not None and str(value).strip()]
    if not filled:
        return None
    texts = [value for value in filled if isinstance(value, str)]

    def every(test: object) -> bool:
        return all(test(value) for value in filled)  # type: ignore[operator]

    if every(_is_year):
        return ColumnGuess("year", "its values are years")
    if every(_is_date):
        return ColumnGuess("completed_on", "its values are dates")
    if texts and len(texts) == len(filled):
        if every(lambda value: header_words(value) in STATUS_BY_WORD):
            return ColumnGuess("status", "its values are statuses (planned, done, ...)")
        if every(lambda value: header_words(value) in KIND_BY_WORD):
            return ColumnGuess("kind", "its values are kinds of action (repair, ...)")
        if every(lambda value: bool(_GRADE.fullmatch(value))):
            return ColumnGuess("condition", "its values are condition grades (TG0-TG3)")
        if every(lambda value: bool(_INTERVAL.fullmatch(value))):
            return ColumnGuess("interval", "its values are intervals in years")
        if every(lambda value: currency_named(value) is not None and len(value.strip()) <= 3):
            return ColumnGuess("currency", "its values are currencies")
    if every(lambda value: _is_money(value, decimal_comma)):
        marked = any(currency_named(value) for value in texts)
        large = any(
            isinstance(read := money(value, decimal_comma=decimal_comma), Decimal)
            and (read >= 100 or read != read.to_integral())
            for value in filled
        )
        if marked or large:
            return ColumnGuess("cost", "its values are amounts of money")
    return None


def columns_guessed(
    headers: Sequence[str], samples: Sequence[Sequence[object]], *, decimal_comma: bool
) -> list[ColumnGuess]:
    """A guess for every column: `headers` the first row's titles, `samples` the first data
    rows. Each field goes to one column at most (see the module's docstring)."""
    guesses: list[ColumnGuess | None] = [None] * len(headers)
    taken: set[str] = set()
    by_header = [header_guess(title) for title in headers]
    for sureness in (3, 2, 1):
        for index, found in enumerate(by_header):
            if found is None or found[1] != sureness or guesses[index] is not None:
                continue
            guess = found[0]
            if guess.field in taken:
                continue
            guesses[index] = guess
            taken.add(guess.field)
    for index in range(len(headers)):
        if guesses[index] is not None:
            continue
        values = [row[index] if index < len(row) else None for row in samples]
        value_guessed = value_guess(values, decimal_comma=decimal_comma)
        if value_guessed is None:
            continue
        guess = value_guessed
        if guess.field in taken and guess.field == "year":
            guess = ColumnGuess("install_year", "its values are years (the planned year is taken)")
        if guess.field in taken and guess.field == "cost":
            guess = ColumnGuess("actual_cost", "its values are amounts (the cost is taken)")
        if guess.field not in taken:
            guesses[index] = guess
            taken.add(guess.field)
    return [
        guess or ColumnGuess(IGNORE, "nothing in its header or values says") for guess in guesses
    ]
