"""A cell of one sheet read as what its column holds (docs/subsystems/import-mapping.md
"Values"): money as people write it (`12 000 kr`, `€ 1.234,50`, `1,234.50`), years and
intervals with their words (`10 år`, `every 5 years`), condition grades (`TG2`), dates in
the day-first orders of the seven languages, kinds and statuses in those languages.

Each reader gives the value in the plan format's terms, or the cell as it was when it cannot
read it, so the import's checks name the problem with the model's own message.
"""

from __future__ import annotations

import datetime
import math
import re
from decimal import Decimal, InvalidOperation

from planning.transfer.imports.sheet.fields import KIND_BY_WORD, STATUS_BY_WORD, header_words

# An ISO 4217 code or a sign written beside an amount.
CURRENCY_SIGNS = {"€": "EUR", "£": "GBP", "$": "USD", "¥": "JPY"}
_CURRENCY_CODE = re.compile(r"\b([A-Z]{3})\b")
KNOWN_CURRENCIES = frozenset(
    {"EUR", "SEK", "NOK", "DKK", "ISK", "CHF", "GBP", "USD", "PLN", "CZK", "JPY", "CAD", "AUD"}
)
# Words beside an amount that say nothing of which currency (kronor are three currencies).
_MONEY_WORDS = re.compile(
    r"(?i)\b(kr|kr\.|kronor|kroner|sek|nok|dkk|eur|euro|euros|usd|gbp|chf|isk|tkr|:-|,-)"
)
_SPACES = re.compile(r"[\s\u00a0\u202f\u2009']+")
_GROUPED = re.compile(r"-?\d{1,3}([.,]\d{3})+")


def currency_named(text: object) -> str | None:
    """The currency a header or cell names (`Cost (SEK)`, `€ 120`), if it names one."""
    if not isinstance(text, str):
        return None
    for sign, code in CURRENCY_SIGNS.items():
        if sign in text:
            return code
    for code in _CURRENCY_CODE.findall(text.upper()):
        if code in KNOWN_CURRENCIES:
            return code
    return None


def money(value: object, *, decimal_comma: bool) -> object:
    """An amount: a spreadsheet's number, or text with a currency and grouped thousands.

    With both marks, the last is the decimal one (`1.234,50`, `1,234.50`); with a comma alone,
    it is the decimal mark in a file whose separator is `;` or tab (`decimal_comma`), else
    a thousands mark when it groups three digits (`12,000`)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, float):
        return Decimal(repr(round(value, 6))) if math.isfinite(value) else value
    if isinstance(value, int | Decimal):
        return Decimal(value) if Decimal(value).is_finite() else value
    if not isinstance(value, str):
        return value
    text = _MONEY_WORDS.sub("", value)
    for sign in CURRENCY_SIGNS:
        text = text.replace(sign, "")
    text = _SPACES.sub("", text).rstrip(".-:")
    if not text:
        return None
    if "," in text and "." in text:
        decimal_mark = "," if text.rfind(",") > text.rfind(".") else "."
        grouping = "." if decimal_mark == "," else ","
        text = text.replace(grouping, "").replace(decimal_mark, ".")
    elif "," in text:
        if not decimal_comma and _GROUPED.fullmatch(text):
            text = text.replace(",", "")
        else:
            text = text.replace(",", ".")
    elif text.count(".") > 1 or (decimal_comma and _GROUPED.fullmatch(text)):
        text = text.replace(".", "")  # 1.234.567, or 1.234 where the comma is the decimal mark
    try:
        amount = Decimal(text)
    except InvalidOperation:
        return value
    return amount if amount.is_finite() else value  # "NaN", "Infinity": not an amount


_WHOLE = re.compile(r"\s*-?\d+\s*")
_ONE_NUMBER = re.compile(r"\D*?(\d{1,4})(?:[.,]0+)?\D*")
_GRADE = re.compile(r"(?i)\s*(?:tg|kl|klasse|class|grade)?\s*([0-3])\s*")


def whole(value: object, *, words: bool = False) -> object:
    """A whole number (a year, an interval): a spreadsheet's number or digits; with `words`,
    the one number of a text such as `10 år` or `every 5 years`."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Decimal) and value == value.to_integral() and value.adjusted() < 9:
        return int(value)
    if not isinstance(value, str):
        return value
    if _WHOLE.fullmatch(value):
        return int(value)
    if words and (match := _ONE_NUMBER.fullmatch(value)):
        return int(match.group(1))
    return value.strip() or None


def grade(value: object) -> object:
    """A condition grade 0-3, also as `TG2` (the Nordic standards' tillståndsgrad)."""
    if isinstance(value, str) and (match := _GRADE.fullmatch(value)):
        return int(match.group(1))
    return whole(value)


_DAY_FIRST = re.compile(r"\s*(\d{1,2})[./-](\d{1,2})[./-](\d{4})\s*")
_YEAR_FIRST = re.compile(r"\s*(\d{4})[./-](\d{1,2})[./-](\d{1,2})\s*")


def day(value: object) -> object:
    """A date as the plan format writes it (YYYY-MM-DD): a spreadsheet's date, an ISO date, or
    day first (`31.12.2024`, `31-12-2024`, `31/12/2024`), as the seven languages write it."""
    if isinstance(value, datetime.datetime):
        return value.date().isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if not isinstance(value, str):
        return value
    for pattern, order in ((_YEAR_FIRST, (0, 1, 2)), (_DAY_FIRST, (2, 1, 0))):
        if match := pattern.fullmatch(value):
            year, month, date = (int(match.group(index + 1)) for index in order)
            try:
                return datetime.date(year, month, date).isoformat()
            except ValueError:
                return value
    return value.strip() or None


def choice(value: object, words: dict[str, str]) -> object:
    """A kind or a status: its code, from its code, its label or a word of the seven languages."""
    if not isinstance(value, str):
        return value
    return words.get(header_words(value), value.strip() or None)


def action_kind(value: object) -> object:
    return choice(value, KIND_BY_WORD)


def action_status(value: object) -> object:
    return choice(value, STATUS_BY_WORD)


def text(value: object) -> str | None:
    """A cell as text: a number typed in a text column is its digits (`101`, not `101.0`)."""
    if value is None:
        return None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()[:10]
    shown = str(value).strip()
    return shown or None
