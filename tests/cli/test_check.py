"""`python -m graph.check` after the documents changed: a folder ingested, a run, then one document edited,
one deleted, one re-exported under new ids and one added, and ingested again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import psycopg

from graph.config.cli import run_async
from graph.config.settings import Settings
from graph.demo import load_demo_chunks
from graph.ingestion.chunking import stable_id
from graph.living.staleness import store_changed
from tests.support.commands import assert_one_line_error, run_cli

SCRIPTED = "offline:plausible"
#: Pages of the demo corpus that make the folder's documents.
PAGES = ("postgresql-15/routine-vacuuming.html", "postgresql-15/runtime-config-autovacuum.html",
         "postgresql-15/sql-vacuum.html", "postgresql-15/wal-configuration.html")  # fmt: skip
#: The demo corpus' own vectors: the folder's texts are demo chunks; edited and new text gets a hashed vector.
VECTORS = "import:tests.support.manuals:demo_vectors_else_hashed"


def write_documents(folder: Path, documents: dict[str, list[dict[str, Any]]]) -> None:
    """One JSONL file per document, a chunk per line with the id the team's pipeline gave it."""
    for old in folder.glob("*.jsonl"):
        old.unlink()
    for name, rows in documents.items():
        lines = [json.dumps({"id": r["id"], "text": r["text"], "metadata": {"source": name}}) for r in rows]
        (folder / f"{name}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def ingest(folder: Path, url: str, collection: str = "living") -> None:
    result = run_cli(
        "graph.ingest", str(folder), "--collection", collection, "--embedding", VECTORS, "--database-url", url
    )
    assert result.returncode == 0, result.stderr


def used_chunks(record: dict[str, Any]) -> set[str]:
    return {c["id"] for c in [*record["supporting"], *record["contexts"]]}


def test_check_names_the_records_a_change_of_the_documents_touched(pg_url: str, tmp_path: Path) -> None:
    folder, runs = tmp_path / "docs", tmp_path / "runs"
    folder.mkdir()
    documents: dict[str, list[dict[str, Any]]] = {}
    for chunk in load_demo_chunks():
        if chunk.metadata["source"] in PAGES:
            name = Path(chunk.metadata["source"]).stem
            documents.setdefault(name, []).append({"id": chunk.id, "text": chunk.text})
    write_documents(folder, documents)
    ingest(folder, pg_url)
    run = run_cli(
        "graph.run", "--collection", "living", "--embedding", VECTORS, "--count", "2", "--binary", "no",
        "--llm", SCRIPTED, "--seed", "2", "--dedup-threshold", "0", "--database-url", pg_url,
        "--runs-dir", str(runs), "--run-id", "living",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    records = [json.loads(line) for line in (runs / "living" / "dataset.jsonl").read_text().splitlines()]
    manifest = json.loads((runs / "living" / "run.json").read_text())["manifest"]
    assert set(manifest["chunks"]) == set().union(*map(used_chunks, records))
    assert manifest["collection"]["rows"] == sum(map(len, documents.values()))

    # Unchanged store: every record is fresh.
    fresh = run_cli("graph.check", "living", "--runs-dir", str(runs), "--database-url", pg_url)
    assert fresh.returncode == 0, fresh.stderr
    assert "2 records: 2 fresh, 0 re-pointed, 0 flagged, 0 stale" in fresh.stdout and "no new documents" in fresh.stdout

    # The first record's first supporting chunk is edited in place; a document another record uses is deleted;
    # a chunk of a third document is exported again under a new id; a new document arrives.
    edited = records[0]["supporting"][0]["id"]
    owner = {row["id"]: name for name, rows in documents.items() for row in rows}
    deleted = next(owner[c] for r in records for c in used_chunks(r) if owner[c] != owner[edited])
    moved = next(c for r in records for c in sorted(used_chunks(r)) if owner[c] not in (owner[edited], deleted))
    quote = records[0]["supporting"][0]["evidence"][0]["quote"]
    first, _, rest = quote.partition(" ")
    for row in documents[owner[edited]]:
        if row["id"] == edited:  # edited where its quote lies
            row["text"] = row["text"].replace(quote, f"{first} (revised) {rest}")
    del documents[deleted]
    for row in documents[owner[moved]]:
        if row["id"] == moved:
            row["id"] = "re-exported-" + moved
    documents["new-appendix"] = [{"id": "appendix-1", "text": "Appendix: a page no question has seen yet."}]
    write_documents(folder, documents)
    ingest(folder, pg_url)
    store = Settings(database_url=pg_url, collection="living")
    assert run_async(store_changed(store, runs / "living"))  # graph.evaluate says so, naming graph.check

    gone = {row_id for row_id, name in owner.items() if name == deleted}
    expected = {}
    for record in records:
        chunks, supporting = used_chunks(record), {c["id"] for c in record["supporting"]}
        # Stale: a quote changed, or its document is gone; a context edited, gone or moved is drawn again.
        expected[record["id"]] = (
            "stale" if edited in supporting or supporting & gone
            else "re-pointed" if edited in chunks or chunks & gone or moved in chunks else "fresh"
        )  # fmt: skip
    checked = run_cli("graph.check", "living", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    assert checked.returncode == 1, checked.stderr
    report = json.loads((runs / "living" / "check.json").read_text())
    assert {r["id"]: r["status"] for r in report["records"]} == expected
    by_id = {r["id"]: r for r in report["records"]}
    assert by_id[records[0]["id"]]["changed"] == [edited]
    for record in records:
        assert set(by_id[record["id"]]["gone"]) == used_chunks(record) & gone
        if moved in used_chunks(record):
            # A JSONL id that is no UUID is stored as a UUID made from it.
            assert by_id[record["id"]]["moved"] == {moved: stable_id("id", "re-exported-" + moved)}
    assert report["summary"]["new_sources"] == ["new-appendix"]
    assert "1 new document(s) no question covers: new-appendix" in checked.stdout
    assert 'id="drift"' in (runs / "living" / "report.html").read_text()
    # The report written again (as a review does) keeps the section while the run's records are the ones checked.
    again = run_cli("graph.run", "--resume", "living", "--runs-dir", str(runs), "--database-url", pg_url)
    assert again.returncode == 0, again.stderr
    assert 'id="drift"' in (runs / "living" / "report.html").read_text()
    assert not run_async(store_changed(store, runs / "living"))  # checked since the store last changed

    # A store that lost every chunk: every record is stale, not a refusal to check.
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DELETE FROM living")
    emptied = run_cli("graph.check", "living", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    assert emptied.returncode == 1, emptied.stderr
    assert f"{len(records)} records: 0 fresh, 0 re-pointed, 0 flagged, {len(records)} stale" in emptied.stdout


def test_check_of_a_run_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("graph.check", "nosuch", "--runs-dir", str(tmp_path)), "no run 'nosuch'")
