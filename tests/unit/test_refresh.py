"""What a refresh does with each record, the changes it lists, its versions, and what reviewers are shown."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from graph.config.errors import UserError
from graph.folder.versions import Decided, changes, keep_version, version_dataset
from graph.living.refresh import DROP, KEEP, RE_JUDGE, RE_POINT, RELABEL, decide, re_pointed
from graph.reviewing.pages import list_page, sample_page
from graph.reviewing.samples import CHANGED_SINCE_REVIEWED, current_reviews, load_samples
from graph.reviewing.validation_table import summarise
from graph.running.lanes import Budget, run_in_lanes
from state.record import DatasetRecord
from tests.support.records import answerable_record, unanswerable_record


def record(n: int, *, answerable: bool = True, question_type: str = "comparison") -> DatasetRecord:
    if not answerable:
        return unanswerable_record(f"run/{n}", {f"d{n}": "D"})
    return answerable_record(
        f"run/{n}", {f"s{n}a": "A", f"s{n}b": "B"}, {f"d{n}": "D", f"e{n}": "E"},
        question=f"question {n}", question_type=question_type, unanswerable={"contexts": [f"d{n}", f"e{n}"]},
    )  # fmt: skip


def line(record: DatasetRecord, **fields: Any) -> str:
    """`record` as a line of dataset.jsonl, with `fields` changed."""
    return json.dumps(record.model_dump(mode="json") | fields) + "\n"


def drift(status: str = "stale", **found: Any) -> dict[str, Any]:
    return {"status": status, "changed": [], "gone": [], "moved": {}, "unchecked": [], **found}


@pytest.mark.parametrize(
    ("found", "status", "action"),
    [
        ({}, "fresh", KEEP),
        ({"moved": {"s1a": "new"}}, "re-pointed", RE_POINT),
        ({"gone": ["s1a"], "changed": ["s1b"]}, "stale", DROP),
        ({"changed": ["s1b"]}, "stale", RE_JUDGE),
        ({"changed": ["d1"]}, "stale", RELABEL),
        ({"gone": ["d1"], "moved": {"s1a": "new"}}, "stale", RELABEL),
    ],
)
def test_each_drift_has_its_action(found: dict[str, Any], status: str, action: str) -> None:
    decision = decide(record(1), drift(status, **found))
    assert (decision.n, decision.action) == (1, action)
    assert decision.chunks == sorted({*found.get("changed", []), *found.get("gone", []), *found.get("moved", {})})


def test_a_stale_generated_unanswerable_question_is_judged_again() -> None:
    decision = decide(record(2, answerable=False), drift(unchecked=["new1"]))
    assert decision.action == RE_JUDGE and "new1" in decision.reason


def test_re_pointing_replaces_every_moved_id() -> None:
    moved = {"s1a": "n1", "d1": "n2"}
    new = re_pointed(record(1), moved, version=3)
    assert [c.id for c in new.supporting] == ["n1", "s1b"]
    assert [c.id for c in new.contexts] == ["n1", "s1b", "n2", "e1"]
    assert new.unanswerable is not None and new.unanswerable.contexts == ["n2", "e1"] and new.version == 3
    assert record(1).supporting[0].id == "s1a"  # the record re-pointed is left as it was
    unanswerable = re_pointed(record(2, answerable=False), {"d2": "n3"}, version=2)
    assert unanswerable.retrieval_check is not None
    assert unanswerable.retrieval_check.model_dump() == {"k": 3, "chunk_ids": ["n3"], "embedding": "e", "seed_id": "n3"}


def test_changes_pair_each_dropped_record_with_a_new_one_of_its_cell() -> None:
    before = [record(0), record(1), record(2), record(3, question_type="composition")]
    updated = record(1).model_copy(update={"question": "new question", "version": 2})
    added = record(7).model_copy(update={"version": 2})
    added.supporting[0].metadata = {"source": "appendix"}
    after = [record(0), updated, added]
    decisions: list[Decided] = [
        {"id": "run/1", "reason": "supporting chunk s1a changed", "chunks": ["s1a"], "status": "stale",
         "thread_id": "run/1@v2"},
        {"id": "run/2", "reason": "supporting chunk s2a is gone", "chunks": ["s2a"], "status": "stale",
         "thread_id": None},
        {"id": "run/3", "reason": "supporting chunk s3a is gone", "chunks": ["s3a"], "status": "stale",
         "thread_id": None},
    ]  # fmt: skip
    entries = {(e["change"], e["id"]): e for e in changes(decisions, before, after)}
    assert set(entries) == {
        ("kept", "run/0"), ("updated", "run/1"), ("replaced", "run/2"), ("dropped", "run/3"), ("added", "run/7"),
    }  # fmt: skip
    assert entries[("updated", "run/1")]["thread_id"] == "run/1@v2"
    assert entries[("replaced", "run/2")]["replaced_by"] == "run/7"
    assert entries[("added", "run/7")]["replaces"] == "run/2"
    assert entries[("added", "run/7")]["sources"] == ["appendix"]
    assert entries[("dropped", "run/3")]["chunks"] == ["s3a"]
    assert entries[("kept", "run/0")]["status"] == "fresh" and entries[("dropped", "run/3")]["status"] == "stale"


def test_versions_are_kept_and_read_back(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "dataset.jsonl").write_text('{"id": "run/0"}\n')
    kept = keep_version(folder, 1)
    (folder / "dataset.jsonl").write_text('{"id": "run/1"}\n')
    assert keep_version(folder, 1).read_text() == '{"id": "run/0"}\n'  # a kept version is never overwritten
    assert version_dataset(folder, None) == folder / "dataset.jsonl"
    (folder / "run.json").write_text(json.dumps({"dataset_version": 2}))
    assert version_dataset(folder, 1) == kept and version_dataset(folder, 2) == folder / "dataset.jsonl"
    with pytest.raises(UserError, match="has no dataset version 3; its versions are 1 to 2"):
        version_dataset(folder, 3)


def test_a_record_refreshed_after_its_review_is_marked(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "dataset.jsonl").write_text(line(record(0), language="en") + line(record(1), version=2, language="en"))
    written = "2026-12-02T10:00:00+00:00"
    versions = [{"version": 2, "written_at": written}]
    (folder / "run.json").write_text(json.dumps({"dataset_version": 2, "versions": versions}))
    samples = load_samples(folder)
    assert samples[0].changed_at is None and samples[1].changed_at == written
    before, after = "2026-12-01T09:00:00+00:00", "2026-12-02T11:00:00+00:00"
    assert samples[1].status(before) == CHANGED_SINCE_REVIEWED
    assert samples[1].status(after) == "reviewed" and samples[0].status(before) == "reviewed"
    assert samples[1].status(None) == "to review"
    listing = list_page("run", samples, [0, 1], set(), {0: before, 1: before}, {"status": CHANGED_SINCE_REVIEWED}, "me")
    assert 'data-n="1"' in listing and 'data-n="0"' not in listing
    assert "Changed since you reviewed it" in sample_page("run", samples[1], {}, None, None, before)
    assert "Changed since you reviewed it" not in sample_page("run", samples[1], {}, None, None, after)


def test_lanes_start_nothing_once_the_budget_is_spent() -> None:
    spent: list[int] = []

    async def work(item: int) -> int:
        spent.append(item)
        await asyncio.sleep(0)
        return item * 10

    results, stopped = asyncio.run(run_in_lanes([1, 2, 3, 4, 5], work, 2, Budget(3, lambda: len(spent))))
    assert stopped and results[:3] == [10, 20, 30] and results[3:] == [None, None]
    assert asyncio.run(run_in_lanes([1, 2], work, 4, Budget(None, lambda: 0.0))) == ([10, 20], False)


def test_labels_saved_before_a_refresh_do_not_count_for_the_new_record(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "dataset.jsonl").write_text(line(record(0), language="en") + line(record(1), version=2, language="en"))
    versions = [{"version": 2, "written_at": "2026-12-02T10:00:00+00:00"}]
    (folder / "run.json").write_text(json.dumps({"dataset_version": 2, "versions": versions}))
    samples = load_samples(folder)
    good = dict.fromkeys(("answerable", "correct", "multi_hop", "unambiguous"), True)
    reviews = [
        {"n": 0, "reviewer": "ann", "labels": good, "updated_at": "2026-12-01T09:00:00+00:00"},
        {"n": 1, "reviewer": "ann", "labels": good, "updated_at": "2026-12-01T09:00:00+00:00"},  # before version 2
    ]
    assert [r["n"] for r in current_reviews(samples, reviews)] == [0]
    assert summarise(samples, reviews)["reviewed_samples"] == 1
    reviews[1]["updated_at"] = "2026-12-02T11:00:00+00:00"  # reviewed again since
    assert summarise(samples, reviews)["reviewed_samples"] == 2
