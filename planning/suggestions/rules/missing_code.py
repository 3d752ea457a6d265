"""Rule 1, missing_code: a component without a classification code, with up to three codes
of the catalog whose words its name shares (`prefill_code_ids`). Pure: no database."""

from __future__ import annotations

import re
from collections.abc import Iterable

from planning.models import ActionStatus, NodeKind, Severity, SuggestionType
from planning.suggestions.rules.records import CodeRecord, PlanData, WantedSuggestion
from planning.suggestions.rules.texts import node_named

MAX_PREFILL_CODES = 3


_WORD = re.compile(r"[^\W_]+")


def _tokens(text: str) -> frozenset[str]:
    return frozenset(word for word in _WORD.findall(text.lower()) if len(word) > 1)


def code_tokens(code: CodeRecord) -> frozenset[str]:
    return _tokens(code.name) | _tokens(code.keywords.replace(",", " "))


def prefill_code_ids(
    node_name: str, catalog: Iterable[tuple[CodeRecord, frozenset[str]]]
) -> list[str]:
    """Up to 3 catalog codes whose name or keywords share the most words with `node_name`.

    Ranked by the number of shared words (more first), ties by code then id; codes that share
    no word are not offered.
    """
    words = _tokens(node_name)
    if not words:
        return []
    scored = [
        (-len(words & tokens), code.code, code.id) for code, tokens in catalog if words & tokens
    ]
    scored.sort()
    return [code_id for _, _, code_id in scored[:MAX_PREFILL_CODES]]


def missing_code_suggestions(data: PlanData) -> dict[str, WantedSuggestion]:
    planned = ActionStatus.PLANNED.value
    nodes_with_live_action = {a.node_id for a in data.actions if a.status == planned}
    catalog = [(code, code_tokens(code)) for code in data.codes.values()]
    prefills: dict[str, list[str]] = {}  # by node name: many nodes share one
    wanted: dict[str, WantedSuggestion] = {}
    for node in data.nodes.values():
        if node.kind != NodeKind.COMPONENT or node.code_id is not None:
            continue
        has_live = node.id in nodes_with_live_action
        fingerprint = f"missing_code:{node.id}"
        prefill = prefills.get(node.name)
        if prefill is None:
            prefill = prefills[node.name] = prefill_code_ids(node.name, catalog)
        named = node_named(node, data)
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.MISSING_CODE,
            severity=Severity.WARNING if has_live else Severity.INFO,
            title=f"Assign a classification code to {named}",
            body=(
                f"The component {named} has no classification code, so its costs and "
                "service life cannot be checked against reference values."
                + (" It has planned actions." if has_live else "")
            ),
            structure_node_id=node.id,
            recommended_action_json={
                "action": "assign_code",
                "prefill_code_ids": list(prefill),
            },
        )
    return wanted
