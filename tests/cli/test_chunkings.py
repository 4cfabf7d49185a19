"""Two chunkings of the same documents compare by evidence: a dataset made on one collection evaluates another
chunking of the same files, where every chunk id is new, with no model request."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from graph.evaluation.scoring.metrics import retrieval_scores
from state.record import DatasetRecord
from tests.support.commands import run_cli
from tests.support.documents import manual_pages

SCRIPTED = "offline:plausible"
#: Pages of the PostgreSQL manual written back as Markdown documents.
PAGES = ("routine-vacuuming", "runtime-config-wal", "runtime-config-replication")


@pytest.fixture(scope="module")
def two_chunkings(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The documents ingested at 1600 characters a chunk (a run made there) and at 700 (re-chunked)."""
    base = tmp_path_factory.mktemp("chunkings")
    manual_pages(base / "docs", PAGES)
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(base / "runs")}
    for collection, size in (("chunks_1600", "1600"), ("chunks_700", "700")):
        ingested = run_cli("graph.ingest", str(base / "docs"), "--collection", collection, "--chunk-size", size,
                           "--chunk-overlap", "0", env=env)  # fmt: skip
        assert ingested.returncode == 0, ingested.stderr
    made = run_cli("graph.run", "--collection", "chunks_1600", "--count", "4", "--seed", "3", "--llm", SCRIPTED,
                   "--dedup-threshold", "0", "--run-id", "chunked", env=env)  # fmt: skip
    assert made.returncode == 0, made.stderr
    return base / "runs" / "chunked", env


def test_a_dataset_made_on_one_chunking_evaluates_another_by_evidence_with_no_model_request(  # noqa: ANN001
    two_chunkings, monkeypatch
) -> None:
    from graph.llm.gateway import LLMGateway

    folder, env = two_chunkings
    records = [DatasetRecord.model_validate_json(line) for line in (folder / "dataset.jsonl").read_text().splitlines()]
    assert records and all(r.evidence_status == "quoted" and r.facts() for r in records)

    def no_request(*args: object, **kwargs: object) -> None:
        raise AssertionError("a retrieval-only evaluation asked a chat model")

    monkeypatch.setattr(LLMGateway, "ask", no_request)
    # About as many characters retrieved from each: 5 chunks of 1600 characters, 11 of 700.
    result = run_cli("graph.evaluate", "chunked", "--retrieval-only", "--setup", "first=collection=chunks_1600,k=5",
                     "--setup", "second=collection=chunks_700,k=11", env={**env, "GOOGLE_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads((folder / "eval-summary.json").read_text())
    first, second = summary["first"]["all"], summary["second"]["all"]
    assert first["recall"] is not None and second["recall"] is None  # chunk ids count on the run's own collection
    assert abs(second["evidence_recall"] - first["evidence_recall"]) <= 0.15, (first, second)
    assert second["evidence_recall"] > 0 and summary["second"]["scored_by"] == {"evidence": len(records)}
    rows = [json.loads(line) for line in (folder / "eval.jsonl").read_text().splitlines()]
    by_id = {r.id: r for r in records}
    for row in (row for row in rows if row["setup"] == "second"):
        contexts = [{"id": c.id, "text": c.text, "relevant": c.relevant} for c in by_id[row["sample_id"]].contexts]
        retrieved = [{"id": i, "text": ""} for i in row["retrieved_ids"]]
        assert retrieval_scores(retrieved, contexts)[1] == 0.0  # by chunk id the second chunking finds nothing
        placed = row["retrieved_placement"]  # each retrieved chunk where it stands, to recompute the figures
        assert all(p["source"] and p["end"] - p["start"] == p["length"] for p in placed)
    assert "second" in result.stdout and "evidence_recall" in result.stdout

    # triad's own export, evaluated as a file: its facts come with it, and score as the run's records do
    exported = run_cli("graph.export", "chunked", "--format", "ragas", env=env)
    assert exported.returncode == 0, exported.stderr
    path = folder / "export" / "ragas.jsonl"
    again = run_cli("graph.evaluate", str(path), "--retrieval-only", "--setup", "second=collection=chunks_700,k=11",
                    env={**env, "GOOGLE_API_KEY": ""})  # fmt: skip
    assert again.returncode == 0, again.stderr
    from_file = json.loads((path.parent / "ragas.jsonl.eval-summary.json").read_text())["second"]["all"]
    assert from_file["evidence_recall"] == pytest.approx(second["evidence_recall"])
    for fmt, name in (("hf", "hf"), ("hotpotqa", "hotpotqa.json")):  # a saved Hugging Face dataset; HotpotQA's layout
        assert run_cli("graph.export", "chunked", "--format", fmt, env=env).returncode == 0
        scored = run_cli("graph.evaluate", str(folder / "export" / name), "--retrieval-only", "--setup",
                         "first=collection=chunks_1600,k=5", env={**env, "GOOGLE_API_KEY": ""})  # fmt: skip
        assert scored.returncode == 0, scored.stderr
        means = json.loads((folder / "export" / f"{name}.eval-summary.json").read_text())["first"]["all"]
        assert means["n"] == len(records) and means["evidence_recall"] > 0, (fmt, means)
    # HF rows carry the facts as the run's records do; HotpotQA's supporting facts are the whole supporting chunks
    hf = json.loads((folder / "export" / "hf.eval-summary.json").read_text())["first"]["all"]
    assert hf["evidence_recall"] == pytest.approx(first["evidence_recall"])


def test_a_span_csv_without_its_documents_is_placed_in_the_collections_own(two_chunkings, tmp_path: Path) -> None:  # noqa: ANN001
    folder, env = two_chunkings
    raw = (folder.parent.parent / "docs" / "routine-vacuuming.md").read_text(encoding="utf-8")
    sentence = "A maximum of autovacuum_max_workers worker processes are allowed to run at the same time."
    start = raw.index(sentence)
    path = tmp_path / "spans.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["question", "references", "corpus_id"])
        references = [{"content": sentence, "start_index": start, "end_index": start + len(sentence)}]
        writer.writerow(["How many autovacuum workers may run at once?", json.dumps(references), "routine-vacuuming"])
    result = run_cli("graph.evaluate", str(path), "--setup", "small=collection=chunks_700,k=6",
                     env={**env, "GOOGLE_API_KEY": ""})  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads((tmp_path / "spans.csv.eval-summary.json").read_text())["small"]
    assert summary["all"]["evidence_recall"] == 1.0 and summary["all"]["recall"] is None  # made-up ids: no chunk ids
    (row,) = [json.loads(line) for line in (tmp_path / "spans.csv.eval.jsonl").read_text().splitlines()]
    assert all(place["source"] and place["start"] is not None for place in row["retrieved_placement"])
