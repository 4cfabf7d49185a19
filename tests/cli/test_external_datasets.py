"""Datasets made elsewhere, evaluated by evidence: a span CSV of raw documents and a RAGAS testset (JSONL and
CSV), each with broken lines, against a retriever in this process whose documents carry no ids and no offsets."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from graph.demo import load_demo_chunks
from tests.support.commands import run_cli

HERE = "import:tests.cli.test_external_datasets"
PAGES = {"vacuum": "postgresql-15/routine-vacuuming.html", "wal": "postgresql-15/runtime-config-wal.html"}
_WINDOWS: list[tuple[str, str]] = []


def page_text(source: str) -> str:
    return "\n\n".join(c.text for c in sorted((c for c in load_demo_chunks() if c.metadata["source"] == source),
                                               key=lambda c: c.metadata["start_index"]))  # fmt: skip


def _windows() -> list[tuple[str, str]]:
    """Every document cut into windows of 400 characters, as a team's own splitter might cut it."""
    if not _WINDOWS:
        for name, source in PAGES.items():
            text = page_text(source)
            _WINDOWS.extend((name, text[start : start + 400]) for start in range(0, len(text), 400))
    return _WINDOWS


def _best(question: str) -> list[tuple[str, str]]:
    words = set(question.casefold().split())
    return sorted(_windows(), key=lambda item: -len(words & set(item[1].casefold().split())))[:3]


def bare_retriever(question: str) -> list[dict[str, Any]]:
    """Three windows sharing most words with the question, as texts alone: no id, no metadata."""
    return [{"page_content": text} for _, text in _best(question)]


def sourced_retriever(question: str) -> list[dict[str, Any]]:
    """The same windows, each naming its document (no offsets): placed in the document by its text."""
    return [{"page_content": text, "metadata": {"source": f"{name}.txt"}} for name, text in _best(question)]


@pytest.fixture
def documents(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, source in PAGES.items():
        (folder / f"{name}.txt").write_text(page_text(source), encoding="utf-8")
    return folder


def spans_of(folder: Path, corpus: str, *sentences: str) -> str:
    """The references of `sentences` in the raw file `corpus`.txt, as a span CSV holds them."""
    text = (folder / f"{corpus}.txt").read_text(encoding="utf-8")
    return json.dumps([{"content": s, "start_index": text.index(s), "end_index": text.index(s) + len(s)}
                       for s in sentences])  # fmt: skip


NAPTIME = (
    "The launcher will distribute the work across time, attempting to start one worker within each database every "
    "autovacuum_naptime seconds."
)
WORKERS = "A maximum of autovacuum_max_workers worker processes are allowed to run at the same time."


def test_a_span_csv_is_scored_by_evidence_its_broken_lines_named_and_counted(documents: Path) -> None:
    wal_text = (documents / "wal.txt").read_text()
    wal_sentence = next(s.strip() + "." for s in wal_text.split(".") if "checkpoint_timeout" in s and len(s) > 40)
    rows = [
        {"question": "How often does the autovacuum launcher start a worker within each database?",
         "corpus_id": "vacuum",
         "references": spans_of(documents, "vacuum", NAPTIME)},
        {"question": "How many autovacuum worker processes may run at once?", "corpus_id": "vacuum",
         "references": "not json"},
        {"question": "What does checkpoint_timeout set?", "corpus_id": "wal",
         "references": spans_of(documents, "wal", wal_sentence.strip())},
        {"question": "Which spans are wrong?", "corpus_id": "vacuum",
         "references": json.dumps([{"content": "no such sentence in the manual", "start_index": 5, "end_index": 35}])},
        {"question": "How many autovacuum worker processes may run at once?", "corpus_id": "vacuum",
         "references": spans_of(documents, "vacuum", WORKERS)},
    ]  # fmt: skip
    path = documents.parent / "spans.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "references", "corpus_id"])
        writer.writeheader()
        writer.writerows(rows)
    result = run_cli("graph.evaluate", str(path), "--documents", str(documents), "--setup",
                     f"mine=retriever={HERE}:bare_retriever", env={"GOOGLE_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "skipped spans.csv line 3: references is not a list (JSON, or Python's [...])" in result.stderr
    assert "skipped spans.csv line 5: reference 1 is not in vacuum at 5-35, nor elsewhere in it" in result.stderr
    assert "only retrieval is scored" in result.stderr and "3 lines scored, 2 skipped" in result.stdout
    summary = json.loads((documents.parent / "spans.csv.eval-summary.json").read_text())["mine"]
    assert summary["skipped_lines"] == 2 and summary["scored_by"] == {"evidence": 3}
    assert summary["all"]["evidence_recall"] > 0 and summary["all"]["correct"] is None
    rows_out = [json.loads(line) for line in (documents.parent / "spans.csv.eval.jsonl").read_text().splitlines()]
    assert sorted(row["sample_id"].split(":")[1] for row in rows_out) == ["2", "4", "6"]  # stable: line numbers
    # the texts came back with no id and no offsets: found by their text
    assert all(p["id"] is None and p["source"] is None for row in rows_out for p in row["retrieved_placement"])


@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_a_ragas_testset_is_scored_by_evidence_placed_in_its_documents(documents: Path, suffix: str) -> None:
    lines: list[Any] = [
        {"user_input": "How often does the autovacuum launcher start a worker within each database?",
         "reference": "every autovacuum_naptime seconds",
         "reference_contexts": [NAPTIME]},
        {"user_input": "How many autovacuum workers may run?", "reference": "3", "reference_contexts": "none"},
        {"user_input": "How many autovacuum worker processes may run at once?", "reference": "3",
         "reference_contexts": [WORKERS]},
    ]  # fmt: skip
    path = documents.parent / f"testset{suffix}"
    if suffix == ".jsonl":
        path.write_text("\n".join([json.dumps(lines[0]), "{broken", *map(json.dumps, lines[1:])]) + "\n")
    else:
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=["user_input", "reference", "reference_contexts"])
            writer.writeheader()
            writer.writerows({**line, "reference_contexts": json.dumps(line["reference_contexts"])} for line in lines)
    result = run_cli("graph.evaluate", str(path), "--documents", str(documents), "--retrieval-only", "--setup",
                     f"mine=retriever={HERE}:sourced_retriever", env={"GOOGLE_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr
    broken = "line 2: not JSON" if suffix == ".jsonl" else "line 3: reference_contexts is not a list"
    assert f"skipped testset{suffix} {broken}" in result.stderr
    summary = json.loads((documents.parent / f"testset{suffix}.eval-summary.json").read_text())["mine"]
    assert summary["all"]["n"] == 2 and summary["all"]["evidence_recall"] > 0
    rows = [json.loads(line) for line in (documents.parent / f"testset{suffix}.eval.jsonl").read_text().splitlines()]
    placed = [p for row in rows for p in row["retrieved_placement"]]
    assert placed and all(p["source"] in ("vacuum", "wal") and p["end"] - p["start"] == p["length"] for p in placed)
