"""Quota plans, cell choice and the funnel."""

from __future__ import annotations

from typing import Any

import pytest

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.figures.funnel import format_funnel, funnel
from graph.planning.cells import cell_quotas
from graph.planning.options import RunOptions
from graph.planning.request import RunRequest


def test_equal_shares_over_six_cells_with_caps() -> None:
    cells = cell_quotas(14, ["comparison", "intersection", "composition"], [False, True])
    assert [c.quota for c in cells] == [3, 3, 2, 2, 2, 2]
    assert [c.cap for c in cells] == [9, 9, 6, 6, 6, 6]
    assert cell_quotas(2, ["comparison", "composition"], [False, True])[0].quota == 1
    assert len(cell_quotas(2, ["comparison", "composition"], [False, True])) == 2


def state(outcome: str, verdicts: list[tuple[str, bool]], calls: int = 2, binary: bool = False) -> dict:
    return {
        "outcome": outcome,
        "question_type": "comparison",
        "binary": binary,
        "drafts": [{}] * (1 + sum(1 for _, ok in verdicts if not ok)),
        "revisions": sum(1 for _, ok in verdicts if not ok),
        "verdicts": [{"judge": judge, "accepted": ok} for judge, ok in verdicts],
        "llm_calls": [
            {"role": "validator", "node": "judge_quality", "input_tokens": 100, "output_tokens": 10, "cost_usd": 0.001}
        ]
        * calls,
    }


def test_funnel_counts_outcomes_rejections_per_judge_and_costs() -> None:
    summary = funnel(
        [
            state("accepted", [("lint", True), ("quality", True), ("sufficiency", True)]),
            state("rejected", [("lint", False), ("lint", True), ("quality", False)], binary=True),
            state("no_bridge", [], calls=1),
        ]
    )
    assert (summary["samples_started"], summary["accepted"], summary["rejected"], summary["no_bridge"]) == (3, 1, 1, 1)
    assert summary["acceptance_rate"] == 1 / 3
    assert summary["drafts_rejected_by"] == {"lint": 1, "quality": 1, "sufficiency": 0, "unanswerable": 0}
    assert summary["revisions_used"] == 2
    assert summary["llm"]["per_role"]["validator"]["calls"] == 5
    assert summary["llm"]["per_node"]["judge_quality"] == {
        "calls": 5,
        "input_tokens": 500,
        "output_tokens": 50,
        "cached_tokens": 0,  # calls recorded without them count none
        "thinking_tokens": 0,
        "cost_usd": 0.005,
        "thinking_cost_usd": 0,
    }
    assert summary["llm"]["cost_per_accepted_usd"] == 0.005
    text = format_funnel(summary, {"comparison/open": 1, "comparison/binary": 1})
    assert "comparison/binary" in text and "short" in text and "per accepted sample: 5.0 calls" in text


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"count": 0}, "--count"),
        ({"hops": 7}, "--hops"),
        ({"types": ("comparison", "trivia")}, "--types"),
        ({"binary": "maybe"}, "--binary"),
        ({"max_revisions": -1}, "--max-revisions"),
        ({"dedup_threshold": 1.5}, "--dedup-threshold"),
        ({"unanswerable_share": -0.1}, "--unanswerable-share"),
        ({"retrieval_k": 0}, "--retrieval-k"),
        ({"keep_queries": True}, "--queries FILE"),
        ({"nodes": {"relevance": "nowhere"}}, "relevance"),
    ],
)
def test_options_no_run_can_use_are_refused_where_they_are_made(options: dict, named: str) -> None:
    with pytest.raises(ValueError, match=named):  # the command and the Python API refuse alike
        RunOptions(**options)


def test_a_request_refuses_what_only_a_new_run_or_a_shared_run_can_take() -> None:
    with pytest.raises(UserError, match="--concurrency"):
        RunRequest(RunOptions(), concurrency=0)
    with pytest.raises(UserError, match="--resume RUN_ID"):
        RunRequest(RunOptions(), worker=True)
    with pytest.raises(UserError, match="apply to new runs"):
        RunRequest(RunOptions(unanswerable_share=0.2), resume="docs-v1")
    with pytest.raises(UserError, match="run id"):
        RunRequest(RunOptions(), run_id="../elsewhere")


def finished_row(question_type: str, binary: bool, answer: str | None, **fields: Any) -> dict[str, Any]:
    """A finished sample as `Ledger.finished` lists it; `answer` None: no record (its brief is None)."""
    brief = None
    if answer is not None:
        brief = {"question": "?", "answer": answer, "language": "en", "difficulty": "hard", "n_relevant": 2,
                 "temporal": False, "answerable": True, "sources": []}  # fmt: skip
    summary = fields.pop("summary", None)
    return {"n": 0, "question_type": question_type, "binary": binary, "wanted": None, "outcome": "accepted",
            "summary": summary, "brief": brief, **fields}  # fmt: skip


def test_the_report_shows_each_yes_no_cells_split_of_answers() -> None:
    from graph.figures.report import _cells_section

    quotas = {"comparison/open": 1, "comparison/binary": 3}
    summary = {"cells": {"comparison/binary": {"accepted": 3, "started": 4}, "comparison/open": {"accepted": 1}}}
    finished = [finished_row("comparison", True, answer) for answer in ("Yes", "No", "Yes")] + [
        finished_row("comparison", True, None, outcome="rejected"),  # a rejected sample has no record
        finished_row("comparison", False, "the Royal Society"),
    ]
    html = _cells_section(quotas, summary, finished)
    assert "<th>Yes / No</th>" in html
    assert "<td>comparison/binary</td><td>3</td><td>3</td><td>4</td><td>0</td><td>0</td><td>2 / 1</td>" in html
    assert "<td>comparison/open</td><td>1</td><td>1</td><td>0</td><td>0</td><td>0</td><td></td>" in html


def test_a_yes_no_cell_that_could_not_be_balanced_says_why() -> None:
    from graph.figures.report import _cells_section

    quotas = {"intersection/binary": 6}
    summary = {"cells": {"intersection/binary": {"accepted": 4, "started": 7, "rejected": 3}}}
    accepted = [
        finished_row("intersection", True, answer, wanted=wanted)
        for wanted, answer in (("yes", "Yes"), ("yes", "Yes"), ("yes", "Yes"), ("no", "No"))
    ]
    lost = [
        finished_row("intersection", True, None, wanted="no", outcome="rejected", summary={"end_reason": reason})
        for reason in ("judge_sufficiency: chunk B alone answers it", "judge_sufficiency: A alone", "lint: wanted")
    ]
    html = _cells_section(quotas, summary, accepted + lost)
    assert "<td>3 / 1</td>" in html
    assert (
        "intersection/binary holds 3 Yes and 1 No: 3 samples asked for a No ended without a question "
        "(judge_sufficiency 2, lint 1)." in html
    )
    balanced = _cells_section(quotas, summary, accepted[:2] + accepted[3:])
    assert "holds" not in balanced  # 2 Yes and 1 No: as even as an odd count allows
    stopped = _cells_section(quotas, summary, accepted)
    assert "no sample asked for a No ended without a question; the run ended before it asked for more." in stopped


def test_the_random_seed_is_kept_under_the_key_earlier_runs_kept_it_under() -> None:
    kept = RunOptions(count=4, random_seed=7).stored(Settings(collection="docs", collections={"docs": {}}))
    assert kept["seed"] == 7 and "random_seed" not in kept
    assert RunOptions.from_stored(kept).random_seed == 7
