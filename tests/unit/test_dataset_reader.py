"""dataset.jsonl as any version wrote it: fields added since take their defaults; a bad line is skipped, named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.config.errors import UserError
from graph.reviewing.samples import load_samples
from graph.running.dataset import read_dataset
from state.record import DatasetRecord

RECORD = {
    "id": "docs/1",
    "question": "Which setting sets the delay between autovacuum runs, and what is its default?",
    "answer": "autovacuum_naptime, 1 minute",
    "question_type": "composition",
    "binary": False,
    "bridge_topic": "autovacuum",
    "hops": 2,
    "supporting": [
        {"id": "c1", "text": "autovacuum_naptime sets the delay.", "metadata": {}},
        {"id": "c2", "text": "autovacuum_naptime defaults to one minute.", "metadata": {}},
    ],
    "contexts": [
        {"id": "c1", "text": "autovacuum_naptime sets the delay.", "relevant": True, "origin": "supporting"},
        {"id": "c2", "text": "autovacuum_naptime defaults to one minute.", "relevant": True, "origin": "supporting"},
    ],
    "n_relevant": 2,
    "difficulty": "hard",
    "temporal": False,
    "role": "a user of the documents",
    "unanswerable": None,
    "validation": {"revisions": 0, "verdicts": []},
    "provenance": {
        "run_id": "docs",
        "thread_id": "docs/1",
        "models": {"generator": "scripted"},
        "prompt_version": "1",
        "created_at": "2026-01-01T00:00:00+00:00",
    },
}


def oldest_form() -> dict:
    """The record with only the fields a record cannot do without: what the earliest files held at least."""
    required = {name for name, field in DatasetRecord.model_fields.items() if field.is_required()}
    return {key: value for key, value in RECORD.items() if key in required}


def test_a_record_without_the_fields_added_since_takes_their_defaults(tmp_path: Path) -> None:
    try:
        DatasetRecord.model_validate(RECORD)
    except Exception as invalid:  # the test's record must be one triad writes today
        pytest.fail(f"the test's record is not valid: {invalid}")
    path = tmp_path / "dataset.jsonl"
    path.write_text(json.dumps(oldest_form()) + "\n", encoding="utf-8")
    (record,) = read_dataset(path)
    defaults = {
        name: field.get_default(call_default_factory=True) for name, field in DatasetRecord.model_fields.items()
    }
    missing = set(DatasetRecord.model_fields) - set(oldest_form())
    assert missing  # some fields are optional, and they are what an older file may lack
    assert all(
        record.model_dump()[name]
        == DatasetRecord.model_validate({name: defaults[name], **oldest_form()}).model_dump()[name]
        for name in missing
    )


def test_verdicts_read_as_they_were_written_with_fewer_keys_or_more(tmp_path: Path) -> None:
    verdicts = [
        {"judge": "quality", "accepted": True, "reason": "", "revision": 0},  # no details
        {"judge": "sufficiency", "accepted": True, "reason": "", "revision": 0, "details": {}, "by": "a tool"},
    ]
    path = tmp_path / "dataset.jsonl"
    path.write_text(json.dumps(RECORD | {"validation": {"revisions": 0, "verdicts": verdicts}}) + "\n", "utf-8")
    (record,) = read_dataset(path)
    assert record.validation.verdicts == verdicts


def test_a_bad_line_is_named_and_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "dataset.jsonl"
    good = json.dumps(RECORD)
    path.write_bytes(good.encode() + b"\n" + good[:40].encode() + b"\n\n\xff\xfe\n" + good.encode() + b"\n")
    assert [r.id for r in read_dataset(path)] == ["docs/1", "docs/1"]
    said = capsys.readouterr().err.splitlines()
    assert [line.split(" line ")[1].split()[0] for line in said] == ["2", "4"]
    assert all("is not a valid record" in line and "skipped" in line for line in said)


def test_a_file_of_bad_lines_only_is_refused_with_the_first(tmp_path: Path) -> None:
    path = tmp_path / "dataset.jsonl"
    path.write_text("\n{not json\n[]\n", encoding="utf-8")
    with pytest.raises(UserError, match="line 2 is not a valid record"):
        read_dataset(path)


def test_the_review_reads_both_files_and_skips_a_bad_line_of_either(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    good = json.dumps(RECORD)
    (folder / "dataset.jsonl").write_text(good + "\n" + good.replace('"hops": 2', '"hops": "two"') + "\n")
    # A rejection line as the earliest versions wrote it, then one cut short.
    oldest = {"id": "docs/2", "outcome": "no_bridge", "end_reason": "no topic links the chunks"}
    (folder / "rejected.jsonl").write_text(json.dumps(oldest) + "\n" + json.dumps(oldest)[:30] + "\n")
    samples = load_samples(folder)
    assert sorted(samples) == [1, 2]
    assert samples[1].accepted and samples[1].record is not None and samples[1].question == RECORD["question"]
    rejected = samples[2]
    assert (rejected.outcome, rejected.end_reason, rejected.supporting, rejected.question) == (
        "no_bridge",
        "no topic links the chunks",
        [],
        "",
    )
    said = capsys.readouterr().err.splitlines()
    assert [line.split(" line ")[0].rsplit("/", 1)[-1] for line in said] == ["dataset.jsonl", "rejected.jsonl"]
    assert [line.split(" line ")[1].split()[0] for line in said] == ["2", "2"]
    assert "is not a valid record" in said[0] and "is not a valid line" in said[1]


def test_a_variant_naming_a_context_the_record_does_not_hold_is_no_valid_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "dataset.jsonl"
    distractors = [
        {"id": "d1", "text": "VACUUM reclaims storage.", "relevant": False, "origin": "distractor"},
        {"id": "d2", "text": "ANALYZE collects statistics.", "relevant": False, "origin": "distractor"},
    ]
    held = {**RECORD, "contexts": [*RECORD["contexts"], *distractors], "unanswerable": {"contexts": ["d1", "d2"]}}
    named = {**held, "unanswerable": {"contexts": ["d1", "d9"]}}
    path.write_text(json.dumps(held) + "\n" + json.dumps(named) + "\n", encoding="utf-8")
    (record,) = read_dataset(path)
    assert record.unanswerable is not None and record.unanswerable.contexts == ["d1", "d2"]
    assert "line 2 is not a valid record" in capsys.readouterr().err
