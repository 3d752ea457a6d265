"""How the rules' titles and bodies write money and name nodes: `money` (the plain figure a
program reads, also kept in the recommended action), `money_for_people` (the same text as the
page shows it, through planning.core.money.money_format), `node_named` and `place_of` (where a
person finds a node). Pure: no database."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from planning.core.money import money_format
from planning.models import CENT
from planning.suggestions.rules.records import NodeRecord, PlanData


def money(value: Decimal) -> str:
    """An amount as a program reads it, rounded half up to the cent ("1234.50": the API's
    decimal string, docs/integrators.md); a person reads it through `money_for_people`."""
    # str() of a Decimal with exponent -2 is plain notation ("0.00", "1234.50").
    return str(value.quantize(CENT, rounding=ROUND_HALF_UP))


# The money figures a rule writes into a title or body, each also kept in the recommended action.
_MONEY_KEPT = (
    ("reference", "expected_cost"),
    ("reference", "actual"),
    (None, "total_cost"),
    (None, "excess"),
    (None, "total"),
    (None, "budget"),
)


def money_for_people(text: str, *, recommended: Mapping[str, Any], currency: str) -> str:
    """A title or body as the page shows it: each money figure the rule wrote with `money()`
    (plain, for the API: docs/integrators.md) in the page's notation with the currency
    ("138330.00" -> "138,330.00 EUR"). Only the figures the recommended action keeps are
    rewritten, so a quantity or a year that happens to look like money never is."""
    for section, key in _MONEY_KEPT:
        holder = recommended.get(section, {}) if section else recommended
        figure = holder.get(key) if isinstance(holder, Mapping) else None
        if isinstance(figure, str) and figure:
            text = re.sub(
                rf"(?<![\d.,]){re.escape(figure)}(?![\d])",
                money_format(Decimal(figure), currency),
                text,
            )
    return text


def place_of(node: NodeRecord, data: PlanData) -> str:
    """The label of the node's anchor: its building's, else its root's ("" when unknown)."""
    anchor = node.building_id or node.root_id
    place = data.places.get(anchor)
    if place is None:
        record = data.nodes.get(anchor)
        place = record.name if record is not None else ""
    return place


def node_named(node: NodeRecord, data: PlanData) -> str:
    """How a text names a node so that a person can find it: “Windows” in House 3 (Block A); a
    building by its label alone; a root outside every building by its name."""
    if node.building_id == node.id:
        return place_of(node, data) or node.name
    if node.root_id == node.id and node.building_id is None:
        return f"“{node.name}”"
    place = place_of(node, data)
    return f"“{node.name}” in {place}" if place else f"“{node.name}”"
