"""A question type's own lint rules: what its construction fields must hold, and what its question must not name.

Each takes the draft's question, its construction, the supporting chunks' count and the language's rules (None: a
language without rules); the registry (`nodes.question_types`) names the ones each type runs.
"""

from __future__ import annotations

from collections.abc import Callable

from nodes.lint.entities import names
from nodes.lint.rules import Finding, LintRules
from state.draft import Construction

#: A type's rule: the findings on a draft of that type.
ConstructionRule = Callable[[str, Construction, int, LintRules | None], list[Finding]]


def one_compared_entity_per_chunk(
    question: str, construction: Construction, hops: int, rules: LintRules | None
) -> list[Finding]:
    """A comparison declares the entity it compares from each chunk: the answer and leakage rules read them."""
    compared = construction["compared_entities"]
    if len(compared) >= hops:
        return []
    return [
        (
            "construction",
            f"the comparison declares {len(compared)} compared entities for {hops} chunks; list in "
            "compared_entities every entity the question compares, one per chunk, as the question names it",
        )
    ]


def hidden_entity_declared_and_unnamed(
    question: str, construction: Construction, hops: int, rules: LintRules | None
) -> list[Finding]:
    """A composition declares the intermediate entity of its chain, and its question never names it."""
    hidden = construction["hidden_entities"]
    if not hidden:
        return [
            (
                "construction",
                "the composition declares no hidden entity; give in hidden_entities the intermediate entity the "
                "first chunk identifies and that chunk's label",
            )
        ]
    return [
        (
            "hidden_entity",
            f"the composition question names the hidden intermediate entity {entity['entity']!r}; "
            "describe it through the chunk that identifies it instead",
        )
        for entity in hidden
        if names(question, entity["entity"], rules)
    ]
