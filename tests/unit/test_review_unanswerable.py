"""Reviews of generated unanswerable questions: criteria of their own, kept apart from the paper's figures."""

from __future__ import annotations

from typing import Any

from graph.reviewing.labels import clean_labels
from graph.reviewing.reviewed import reviewed_records
from graph.reviewing.samples import ReviewSample
from graph.reviewing.validation_table import format_summary, summarise
from state.record import DatasetRecord
from tests.support.records import answerable_record, unanswerable_record

TYPED = answerable_record("run/0", {"a": "A", "b": "B"})
GENERATED = unanswerable_record("run/1", {"r1": "R1"})
PAPER = {"answerable": True, "correct": True, "multi_hop": True, "unambiguous": True}


def review(n: int, labels: dict[str, Any], reviewer: str = "ann") -> dict[str, Any]:
    return {"n": n, "reviewer": reviewer, "labels": clean_labels(labels)}


def test_unanswerable_labels_count_apart_from_the_papers_criteria() -> None:
    samples = {
        0: ReviewSample(0, TYPED),
        1: ReviewSample(1, GENERATED),
    }
    summary = summarise(samples, [review(0, PAPER), review(1, {"plausible": True, "unanswered": False})])
    assert summary["criteria"]["answerable"]["total"] == 1 and summary["criteria"]["correct"]["passed"] == 1
    assert (summary["unanswerable"]["plausible"]["passed"], summary["unanswerable"]["plausible"]["total"]) == (1, 1)
    assert (summary["unanswerable"]["unanswered"]["passed"], summary["unanswerable"]["unanswered"]["total"]) == (0, 1)
    assert summary["relevance"]["contexts"] == 2  # the retrieved chunk is no relevance label
    assert list(summary["cells"]) == ["comparison/open"]
    assert "unanswerable: plausible" in format_summary(summary)


def test_a_reviewed_export_keeps_a_generated_question_only_on_its_own_criteria() -> None:
    both = {"plausible": True, "unanswered": True}
    assert [r.id for r in reviewed_records([TYPED, GENERATED], [review(0, PAPER), review(1, both)])] == [
        "run/0",
        "run/1",
    ]
    assert reviewed_records([GENERATED], [review(1, PAPER)]) == []  # the paper's criteria do not fit it
    answered = {**both, "relevance": {"r1": True}}  # a reviewer found the retrieved chunk answers it
    assert reviewed_records([GENERATED], [review(1, answered)]) == []


def test_a_rewrite_in_a_query_style_is_shown_beside_the_canonical_question_and_its_verdict_counted() -> None:
    from graph.reviewing.pages import sample_page

    styled = DatasetRecord.model_validate(
        TYPED.model_dump()
        | {
            "question": "routine vacuuming backup first",
            "canonical_question": "Which comes first?",
            "query_style": "keyword",
            "restyle": {"wanted": "keyword", "attempts": 1, "kept": True, "reason": ""},
        }
    )
    samples = {
        0: ReviewSample(0, styled),
        1: ReviewSample(1, TYPED),
    }
    assert samples[0].criteria[-1] == "restyle_right" and "restyle_right" not in samples[1].criteria
    page = sample_page("run", samples[0], {}, None, None)
    assert "<h1>routine vacuuming backup first</h1>" in page and "as validated:</b>" in page
    assert 'data-criterion="restyle_right"' in page and "Which comes first?" in page
    turns = [{"role": "user", "content": "About <Routine Vacuuming>."}, {"role": "assistant", "content": "Sure."}]
    conversation = DatasetRecord.model_validate(
        styled.model_dump() | {"query_style": "follow-up", "turns": [*turns, {"role": "user", "content": "first?"}]}
    )
    shown = sample_page("run", ReviewSample(0, conversation), {}, None, None)
    assert "after the turns:</b><br><i>user:</i> About &lt;Routine Vacuuming&gt;." in shown
    reviews = [review(0, {**PAPER, "restyle_right": False}, "ann"), review(0, {**PAPER, "restyle_right": True}, "bob")]
    summary = summarise(samples, [*reviews, review(1, {**PAPER, "restyle_right": False})])
    assert (summary["restyles_right"]["passed"], summary["restyles_right"]["total"]) == (1, 2)
    line = next(line for line in format_summary(summary).splitlines() if line.startswith("rewrites right"))
    assert "50% [" in line and "(1 of 2)" in line
