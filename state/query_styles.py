"""Query styles: how a team's users type a question, beside the canonical form the judges accepted.

A run asks for a distribution (`--query-styles natural=0.5,keyword=0.2,...`); each share becomes a quota
of the run's samples, kept in the state database like the cells' quotas (`graph.ledger.ledger_sql`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

QueryStyle = Literal["natural", "keyword", "short", "verbose", "misspelled", "poor-grammar", "follow-up"]

#: Every query style, in the order reports list them. `natural` is the canonical question as validated.
QUERY_STYLES: tuple[QueryStyle, ...] = (
    "natural",
    "keyword",
    "short",
    "verbose",
    "misspelled",
    "poor-grammar",
    "follow-up",
)
NATURAL: QueryStyle = "natural"
#: The style whose question is the last turn of a short conversation.
FOLLOW_UP: QueryStyle = "follow-up"

#: What each style asks of the rewrite (the restyle prompt and the docs say the same).
DESCRIPTIONS: dict[QueryStyle, str] = {
    "natural": "the canonical question, unchanged",
    "keyword": "a search-box query: the key terms only, no question sentence",
    "short": "the question in as few words as still ask it",
    "verbose": "the question inside a sentence or two about the asker's situation",
    "misspelled": "realistic typing mistakes and missing accents",
    "poor-grammar": "broken grammar, as a hurried or non-native writer types",
    "follow-up": "a short conversation whose last turn asks the question by referring back to the first",
}

#: Styles a yes/no question cannot take: it keeps its yes/no form, and a bag of key terms asks nothing.
NOT_FOR_BINARY: frozenset[str] = frozenset({"keyword"})

#: Rewrites a sample's question gets: the first, and one written from its check's verdict.
RESTYLE_ATTEMPTS = 2

#: How close the shares must sum to 1.
SUM_TOLERANCE = 1e-6


def parse_query_styles(text: str) -> dict[str, float]:
    """`natural=0.5,keyword=0.5` as a mapping of style to share; ValueError naming the fix when it is not one."""
    shares: dict[str, float] = {}
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        name, equals, value = (piece.strip() for piece in part.partition("="))
        if not equals:
            raise ValueError(f"--query-styles takes STYLE=SHARE pairs, e.g. natural=0.7,keyword=0.3, not {part!r}")
        try:
            shares[name] = float(value)
        except ValueError:
            raise ValueError(f"--query-styles: the share of {name} is a number from 0 to 1, not {value!r}") from None
    if problem := shares_problem(shares):
        raise ValueError(problem)
    return shares


def shares_problem(shares: Mapping[str, float]) -> str | None:
    """What is wrong with a distribution of query styles, in one line; None when a run can use it."""
    if not shares:
        return "--query-styles needs at least one STYLE=SHARE, e.g. natural=0.7,keyword=0.3"
    unknown = [name for name in shares if name not in QUERY_STYLES]
    if unknown:
        return f"--query-styles: unknown style {unknown[0]!r}; choose from {', '.join(QUERY_STYLES)}"
    wrong = next((name for name, share in shares.items() if not 0 <= share <= 1), None)
    if wrong is not None:
        return f"--query-styles: the share of {wrong} is {shares[wrong]}; give a share from 0 to 1"
    total = sum(shares.values())
    if abs(total - 1) > SUM_TOLERANCE:
        return f"--query-styles: the shares sum to {total:g}; make them sum to 1"
    return None


def style_quotas(shares: Mapping[str, float], count: int) -> dict[str, int]:
    """Each style's number of samples out of `count`: largest remainders, ties to the style listed first.

    The quotas sum to `count`; a style with share 0 gets none. Order is `QUERY_STYLES`'s.
    """
    ordered = [name for name in QUERY_STYLES if shares.get(name, 0) > 0]
    exact = {name: round(shares[name] * count, 9) for name in ordered}  # 0.29 * 100 is 29, not 28.99...
    quotas = {name: int(exact[name]) for name in ordered}
    left = count - sum(quotas.values())
    by_remainder = sorted(ordered, key=lambda name: (-(exact[name] - quotas[name]), ordered.index(name)))
    for name in by_remainder[:left]:
        quotas[name] += 1
    return {name: quota for name, quota in quotas.items() if quota}
