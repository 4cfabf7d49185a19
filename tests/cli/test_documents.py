"""A folder of real documents as a new user brings it: ingested with progress, then a run whose records,
exports, report and review page say where each chunk comes from."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from graph.ingest import read_documents
from graph.reviewing.pages import sample_page
from graph.reviewing.samples import load_samples
from state.location import where
from tests.cli.test_check import SCRIPTED
from tests.support.commands import run_cli
from tests.support.documents import mixed_folder


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as a user's is: progress bars draw on it."""

    def isatty(self) -> bool:
        return True


def test_a_long_ingest_shows_its_files_and_chunks_as_it_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    loaded = read_documents(mixed_folder(tmp_path / "docs"), 1600, 160)
    shown = terminal.getvalue()
    assert "reading: 100%" in shown and f"{loaded.files}/{loaded.files}" in shown
    assert f"chunks={len(loaded.chunks)}" in shown


def test_records_exports_report_and_review_page_say_where_each_chunk_comes_from(pg_url: str, tmp_path: Path) -> None:
    folder, runs = mixed_folder(tmp_path / "docs"), tmp_path / "runs"
    ingested = run_cli("graph.ingest", str(folder), "--collection", "from_documents", "--database-url", pg_url)
    assert ingested.returncode == 0, ingested.stderr
    run = run_cli(
        "graph.run", "--collection", "from_documents", "--count", "4", "--binary", "no", "--llm", SCRIPTED,
        "--seed", "5", "--dedup-threshold", "0", "--unanswerable-share", "0",
        "--database-url", pg_url, "--runs-dir", str(runs), "--run-id", "documents",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in (runs / "documents" / "dataset.jsonl").read_text().splitlines()]
    assert records
    places = [context["where"] for record in records for context in record["contexts"]]
    sources = {"backups.md", "fontconfig-user.pdf", "replication.docx"} | {
        f"cachelib/{page}.html" for page in ("file", "redis", "changes")
    }
    assert all(place.split(", ")[0] in sources for place in places)
    assert any(", p. " in place or ", pp. " in place for place in places)  # a PDF chunk, with its page
    for record in records:
        for chunk in record["supporting"]:
            assert chunk["metadata"]["title"] and chunk["metadata"]["section"]
            assert where(chunk["metadata"]).endswith(chunk["metadata"]["section"].split(" > ")[-1])

    exported = run_cli("graph.export", "documents", "--format", "ragas", "--runs-dir", str(runs))
    assert exported.returncode == 0, exported.stderr
    rows = [json.loads(line) for line in (runs / "documents" / "export" / "ragas.jsonl").read_text().splitlines()]
    for row, record in zip(rows, records, strict=True):
        relevant = [context["where"] for context in record["contexts"] if context["relevant"]]
        assert row["reference_context_sources"] == relevant

    first = records[0]["supporting"][0]
    report = (runs / "documents" / "report.html").read_text()
    assert any(where(chunk["metadata"]) in report for record in records for chunk in record["supporting"])
    samples = load_samples(runs / "documents")
    sample = next(s for s in samples.values() if s.accepted and s.entry.id == records[0]["id"])
    page = sample_page("documents", sample, {}, None, None)
    assert f"<b>{where(first['metadata'])}</b> · {first['id']}" in page
