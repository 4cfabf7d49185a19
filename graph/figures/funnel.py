"""The run's funnel (SPEC section 4): what was started, why samples ended, what it cost."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Literal

from graph.figures.style_figures import count_style, style_lines, style_summary
from graph.folder.run_document import Funnel
from state.finished import SampleSummary
from state.query_styles import QUERY_STYLES
from state.sample import UNANSWERABLE, SampleState
from state.usage import ROLES, ModelCall

JUDGES = ("lint", "quality", "sufficiency", "unanswerable")


Counted = Literal["input_tokens", "output_tokens", "cached_tokens", "thinking_tokens", "cost_usd", "thinking_cost_usd"]
#: What the funnel adds up per role and per node, from every model call.
COUNTED: tuple[Counted, ...] = (
    "input_tokens", "output_tokens", "cached_tokens", "thinking_tokens", "cost_usd", "thinking_cost_usd"
)  # fmt: skip
EMPTY_TOTALS: dict[str, float] = {"calls": 0, **dict.fromkeys(COUNTED, 0)}


def cell_name(question_type: str, binary: bool) -> str:
    if question_type == UNANSWERABLE:
        return UNANSWERABLE
    return f"{question_type}/{'binary' if binary else 'open'}"


def count_call(call: ModelCall, *totals: dict[str, float]) -> None:
    """One call added to each of `totals` (a call recorded before some fields existed lacks them)."""
    for each in totals:
        each["calls"] += 1
        for name in COUNTED:
            each[name] += call.get(name, 0)


def funnel(states: Iterable[SampleSummary], other_calls: Iterable[ModelCall] = ()) -> Funnel:
    """Counts, rates, revisions and costs over the final states of a run's samples; `other_calls` are the run's
    calls outside any sample (the preflight's), counted in the calls, tokens and cost."""
    outcomes: Counter[str] = Counter()
    rejected_by: Counter[str] = Counter()
    cells: dict[str, Counter[str]] = defaultdict(Counter)
    per_role: dict[str, dict[str, float]] = {role: dict(EMPTY_TOTALS) for role in ROLES}
    per_node: dict[str, dict[str, float]] = defaultdict(lambda: dict(EMPTY_TOTALS))
    # Per language: the samples that reached a draft (a sample's language is set with its first draft).
    languages: dict[str, Counter[str]] = defaultdict(Counter)
    drafts = unanswerable_drafts = revisions = repeated = 0
    styles: dict[str, Counter[str]] = defaultdict(Counter)
    for state in states:
        count_style(styles, state)
        outcome = state.get("outcome", "failed")
        outcomes[outcome] += 1
        cell = cells[cell_name(state["question_type"], state["binary"])]
        cell["started"] += 1
        cell[outcome] += 1
        drafts += len(state.get("drafts", []))
        language = languages[code] if (code := state.get("language")) else Counter()
        language["drafted"] += 1
        language[outcome] += 1
        language["drafts"] += len(state.get("drafts", []))
        if state["question_type"] == UNANSWERABLE:
            unanswerable_drafts += len(state.get("drafts", []))
        revisions += state.get("revisions", 0)
        for verdict in state.get("verdicts", []):
            if not verdict["accepted"]:
                rejected_by[verdict["judge"]] += 1
                language[f"rejected_by_{verdict['judge']}"] += 1
        for call in state.get("llm_calls", []):
            if call.get("source", "provider") == "provider":  # attempts past the first: retries and re-asks
                repeated += max(0, call.get("attempts", 1) - 1)
            count_call(call, per_role[call["role"]], per_node[call["node"]])
    for call in other_calls:
        count_call(call, per_role[call["role"]], per_node[call["node"]])
    started = sum(outcomes.values())
    accepted = outcomes["accepted"]
    cost = sum(role["cost_usd"] for role in per_role.values())
    calls = sum(role["calls"] for role in per_role.values())
    return {
        "samples_started": started,
        "accepted": outcomes["accepted"],
        "rejected": outcomes["rejected"],
        "no_bridge": outcomes["no_bridge"],
        "failed": outcomes["failed"],
        "acceptance_rate": accepted / started if started else 0.0,
        "questions_generated": drafts,
        "unanswerable_drafts": unanswerable_drafts,
        "drafts_rejected_by": {judge: rejected_by[judge] for judge in JUDGES},
        "revisions_used": revisions,
        "cells": {name: dict(counts) for name, counts in sorted(cells.items())},
        "query_styles": {name: dict(styles[name]) for name in QUERY_STYLES if name in styles},
        "languages": {code: dict(counts) for code, counts in sorted(languages.items())},
        "llm": {
            "per_role": per_role,
            "per_node": dict(sorted(per_node.items())),
            "calls": calls,
            "repeated_requests": repeated,
            "cost_usd": cost,
            "calls_per_accepted": calls / accepted if accepted else None,
            "cost_per_accepted_usd": cost / accepted if accepted else None,
        },
    }


def _language_lines(languages: Mapping[str, Mapping[str, int]]) -> list[str]:
    """The funnel per language, when a run wrote in any but English."""
    if not languages or set(languages) == {"en"}:
        return []
    listed = ", ".join(
        f"{code} {counts.get('accepted', 0)} of {counts.get('drafted', 0)}" for code, counts in languages.items()
    )
    return [f"languages              {listed}  (accepted of drafted)"]


def format_funnel(summary: Funnel, quotas: Mapping[str, int], styles: Mapping[str, int] | None = None) -> str:
    """The funnel as the text a run prints at its end; `styles` the run's query-style quotas."""
    lines = [
        f"samples started        {summary['samples_started']}",
        f"  no bridge            {summary['no_bridge']}",
        f"  rejected             {summary['rejected']}",
        f"  failed               {summary['failed']}",
        f"  accepted             {summary['accepted']}  ({summary['acceptance_rate']:.0%} of started)",
        f"questions generated    {summary['questions_generated']}  (every draft and revision)",
        "  rejected by lint {lint}, by the quality judge {quality}, by the sufficiency judge {sufficiency}".format(
            **summary["drafts_rejected_by"]
        )
        + (
            f", by the unanswerable judge {summary['drafts_rejected_by']['unanswerable']}"
            if summary["drafts_rejected_by"].get("unanswerable")
            else ""
        ),
        f"revisions used         {summary['revisions_used']}",
        *_language_lines(summary.get("languages") or {}),
        "",
        f"{'cell':<26}{'wanted':>7}{'accepted':>9}{'started':>8}",
    ]
    for cell, wanted in quotas.items():
        counts = summary["cells"].get(cell, {})
        mark = "" if counts.get("accepted", 0) >= wanted else "  short"
        lines.append(f"{cell:<26}{wanted:>7}{counts.get('accepted', 0):>9}{counts.get('started', 0):>8}{mark}")
    lines += style_lines(summary, styles or {})
    llm = summary["llm"]
    lines += [
        "",
        f"{'role':<12}{'calls':>7}{'input tok':>11}{'cached':>9}{'output tok':>11}{'thinking':>10}{'cost USD':>10}"
        f"{'thinking USD':>14}",
    ]
    for role, totals in llm["per_role"].items():
        lines.append(
            f"{role:<12}{totals['calls']:>7}{totals['input_tokens']:>11}{totals.get('cached_tokens', 0):>9}"
            f"{totals['output_tokens']:>11}{totals.get('thinking_tokens', 0):>10}{totals['cost_usd']:>10.4f}"
            f"{totals.get('thinking_cost_usd', 0.0):>14.4f}"
        )
    if llm.get("repeated_requests"):
        lines.append(f"requests repeated      {llm['repeated_requests']}  (429s, timeouts, errors, unusable replies)")
    per_accepted = llm["cost_per_accepted_usd"]
    if per_accepted is not None:
        lines.append(f"per accepted sample: {llm['calls_per_accepted']:.1f} calls, {per_accepted:.4f} USD")
    return "\n".join(lines)


def sample_summary(state: SampleState) -> SampleSummary:
    """What the funnel and the report need of a finished sample's state."""
    summary: SampleSummary = {
        "question_type": state["question_type"],
        "binary": state["binary"],
        "language": state.get("language"),
        "outcome": state.get("outcome", "failed"),
        "end_reason": state.get("end_reason", ""),
        "drafts": state.get("drafts", []),
        "revisions": state.get("revisions", 0),
        "verdicts": [
            {"judge": v["judge"], "accepted": v["accepted"], "reason": v["reason"], "revision": v["revision"]}
            for v in state.get("verdicts", [])
        ],
        "restarts": state.get("restarts", 0),
        "llm_calls": state.get("llm_calls", []),
    }
    summary.update(style_summary(state))
    return summary
