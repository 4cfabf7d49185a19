"""A run's figures per query style: counted in the funnel, printed with it, kept in run.json and shown in the
report (wanted, accepted in the style, fallen back to the canonical question)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TypedDict

from graph.folder.run_document import Funnel
from graph.webpage import table
from state.finished import SampleSummary
from state.query_styles import NATURAL
from state.sample import SampleState


def count_style(styles: dict[str, Counter[str]], state: SampleSummary) -> None:
    """Per query style: samples asked for it, accepted ones that kept it, accepted ones that fell back to natural."""
    asked = state.get("query_style")
    if asked is None:
        return
    styles[asked]["asked"] += 1
    if state.get("outcome") != "accepted":
        return
    kept = state.get("styled") or NATURAL
    styles[kept]["accepted"] += 1
    if kept != asked:
        styles[asked]["fell_back"] += 1


def style_lines(summary: Funnel, styles: Mapping[str, int]) -> list[str]:
    """Wanted and got per query style, when the run asks for any."""
    if not styles:
        return []
    counts = summary.get("query_styles") or {}
    lines = ["", f"{'query style':<26}{'wanted':>7}{'accepted':>9}{'fell back':>10}"]
    for name, wanted in styles.items():
        got = counts.get(name, {})
        mark = "" if got.get("accepted", 0) >= wanted else "  short"
        lines.append(f"{name:<26}{wanted:>7}{got.get('accepted', 0):>9}{got.get('fell_back', 0):>10}{mark}")
    return lines


class StyleSummary(TypedDict, total=False):
    """The query style a sample was asked for and the one its record kept (neither when the run asks for none)."""

    query_style: str
    styled: str | None


def style_summary(state: SampleState) -> StyleSummary:
    """The query style a sample was asked for and the one its record kept (none when the run asks for none)."""
    if state.get("query_style") is None:
        return {}
    record = state.get("record") or {}
    return {"query_style": state["query_style"], "styled": record.get("query_style")}


class StyleDocument(TypedDict, total=False):
    """run.json's query-style figures (none when the run asks for no query style)."""

    query_style_quotas: dict[str, int]
    query_style_shortfall: dict[str, int]


def style_document(styles: dict[str, int], summary: Funnel) -> StyleDocument:
    """run.json's query-style quotas and shortfall; nothing when the run asks for no query style."""
    if not styles:
        return {}
    got = {name: (summary.get("query_styles") or {}).get(name, {}).get("accepted", 0) for name in styles}
    return {
        "query_style_quotas": styles,
        "query_style_shortfall": {name: wanted - got[name] for name, wanted in styles.items() if got[name] < wanted},
    }


def styles_section(styles: Mapping[str, int], summary: Funnel) -> str:
    """Per query style: wanted, accepted in it, and samples whose rewrite fell back to the canonical question."""
    if not styles:
        return '<p class="note">Every question is asked as validated (no --query-styles).</p>'
    counts = summary.get("query_styles") or {}
    rows = [
        [name, wanted, counts.get(name, {}).get("accepted", 0), counts.get(name, {}).get("fell_back", 0)]
        for name, wanted in styles.items()
    ]
    return table(["query style", "wanted", "accepted", "fell back to natural"], rows)
