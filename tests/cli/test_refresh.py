"""`python -m graph.refresh` after the documents changed: the next dataset version, true to the store."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, get_type_hints

import psycopg
import pytest

import graph.living.new_version
from graph.demo import load_demo_chunks
from graph.figures.funnel import cell_name
from graph.folder.run_document import RunDocument, VersionEntry
from tests.cli.test_check import SCRIPTED, VECTORS, ingest, used_chunks, write_documents
from tests.support.commands import assert_one_line_error, run_cli

PAGES = tuple(f"postgresql-15/{name}.html" for name in (
    "routine-vacuuming", "runtime-config-autovacuum", "sql-vacuum", "wal-configuration", "wal-intro",
    "wal-reliability", "wal-async-commit", "wal-internals", "runtime-config-wal", "app-vacuumdb",
))  # fmt: skip
#: A page of the manual added to the folder after the run.
NEW_PAGE = "postgresql-15/sql-analyze.html"


def demo_documents(pages: tuple[str, ...]) -> dict[str, list[dict[str, Any]]]:
    documents: dict[str, list[dict[str, Any]]] = {}
    for chunk in load_demo_chunks():
        if chunk.metadata["source"] in pages:
            documents.setdefault(Path(chunk.metadata["source"]).stem, []).append({"id": chunk.id, "text": chunk.text})
    return documents


def lines_by_id(path: Path) -> dict[str, str]:
    return {json.loads(line)["id"]: line for line in path.read_text(encoding="utf-8").splitlines()}


def checkpoints(url: str, thread_prefix: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM triad.checkpoints WHERE thread_id LIKE %s", (thread_prefix + "%",)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_refresh_writes_a_version_true_to_the_changed_store(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, runs = tmp_path / "docs", tmp_path / "runs"
    folder.mkdir()
    documents = demo_documents(PAGES)
    write_documents(folder, documents)
    ingest(folder, pg_url, "refreshed")
    run = run_cli(
        "graph.run", "--collection", "refreshed", "--embedding", VECTORS, "--count", "5", "--binary", "no",
        "--unanswerable-share", "0.2", "--llm", SCRIPTED, "--seed", "4", "--dedup-threshold", "0",
        "--database-url", pg_url, "--runs-dir", str(runs), "--run-id", "refreshed",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    run_folder = runs / "refreshed"
    first = (run_folder / "dataset.jsonl").read_text(encoding="utf-8")
    records = [json.loads(line) for line in first.splitlines()]
    quotas = json.loads((run_folder / "run.json").read_text())["quotas"]
    answerable = [r for r in records if r["answerable"]]
    assert len(records) == 5 and len(answerable) == 4

    # One record's supporting chunk edited; the document of another record's supporting chunk deleted; a
    # chunk re-exported under a new id; a new page of the manual added.
    owner = {row["id"]: name for name, rows in documents.items() for row in rows}
    edited = answerable[0]["supporting"][0]["id"]
    deleted = next(owner[c["id"]] for r in answerable[1:] for c in r["supporting"] if owner[c["id"]] != owner[edited])
    for row in documents[owner[edited]]:
        if row["id"] == edited:
            row["text"] += " Edited: this setting changed in the latest release."
    del documents[deleted]
    documents |= demo_documents((NEW_PAGE,))
    write_documents(folder, documents)
    ingest(folder, pg_url, "refreshed")
    stale = run_cli("graph.check", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    assert stale.returncode == 1, stale.stderr
    drift = {r["id"]: r for r in json.loads((run_folder / "check.json").read_text())["records"]}

    # The refresh is interrupted once the stale records were judged again, before the cells are filled.
    async def crash(*_: Any, **__: Any) -> bool:
        raise RuntimeError("the machine went down")

    monkeypatch.setattr(graph.living.new_version, "refill", crash)
    with pytest.raises(RuntimeError):
        run_cli("graph.refresh", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url)
    monkeypatch.undo()
    judged = checkpoints(pg_url, "refreshed/%@v2")
    assert judged > 0
    assert (run_folder / "dataset.jsonl").read_text(encoding="utf-8") == first  # version 1 still in place

    refreshed = run_cli("graph.refresh", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url)
    assert refreshed.returncode == 0, refreshed.stderr
    assert checkpoints(pg_url, "refreshed/%@v2") == judged  # finished threads were not run again
    assert "version 2:" in refreshed.stdout

    # Version 1 kept as it was; every record of version 2 passes a check against the store.
    assert (run_folder / "versions" / "1" / "dataset.jsonl").read_text(encoding="utf-8") == first
    assert (run_folder / "versions" / "2" / "dataset.jsonl").read_text(encoding="utf-8") == (
        run_folder / "dataset.jsonl"
    ).read_text(encoding="utf-8")
    check = run_cli("graph.check", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    assert check.returncode == 0, check.stdout + check.stderr
    after = [json.loads(line) for line in (run_folder / "dataset.jsonl").read_text().splitlines()]
    cells = Counter(cell_name(r["question_type"], r["binary"]) for r in after)
    assert {name: cells[name] for name in quotas} == quotas  # every cell back at its quota

    # changes.jsonl lists every difference; unchanged records are byte-identical.
    changes = [json.loads(line) for line in (run_folder / "versions" / "2" / "changes.jsonl").read_text().splitlines()]
    by_id = {c["id"]: c for c in changes if c["change"] != "added"}
    assert set(by_id) == {r["id"] for r in records}
    before_lines, after_lines = (
        lines_by_id(run_folder / "versions" / "1" / "dataset.jsonl"),
        lines_by_id(run_folder / "dataset.jsonl"),
    )
    gone = {row_id for row_id, name in owner.items() if name == deleted}
    for record in records:
        change, status = by_id[record["id"]], drift[record["id"]]["status"]
        if status == "fresh":
            assert change["change"] == "kept" and after_lines[record["id"]] == before_lines[record["id"]]
        elif {c["id"] for c in record["supporting"]} & gone:
            assert change["change"] in ("replaced", "dropped") and record["id"] not in after_lines
            assert set(change["chunks"]) & gone
        else:
            assert change["change"] == "updated", change
            new = json.loads(after_lines[record["id"]])
            assert new["version"] == 2 and used_chunks(new).isdisjoint(gone)
    assert any(c["change"] == "kept" for c in changes)
    assert by_id[answerable[0]["id"]]["change"] == "updated"
    assert edited in by_id[answerable[0]["id"]]["chunks"]
    edited_now = json.loads(after_lines[answerable[0]["id"]])
    assert edited_now["supporting"][0]["text"].endswith("changed in the latest release.")
    added = [c for c in changes if c["change"] == "added"]
    assert len(added) == sum(c["change"] == "replaced" for c in changes) >= 1
    assert any(Path(NEW_PAGE).stem in c["sources"] for c in added)  # seeded first from the new document
    document = json.loads((run_folder / "run.json").read_text())
    assert document["dataset_version"] == 2 and document["versions"][0]["changes"]["added"] == len(added)
    # run.json, its version entries too, hold only what its one type names
    assert set(document) <= set(get_type_hints(RunDocument))
    assert all(set(entry) <= set(get_type_hints(VersionEntry)) for entry in document["versions"])

    # The run's state holds version 2: a resumed run writes the same files and keeps the versions listed.
    resumed = run_cli("graph.run", "--resume", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url)
    assert resumed.returncode == 0, resumed.stderr
    assert (run_folder / "dataset.jsonl").read_text(encoding="utf-8") == (
        run_folder / "versions" / "2" / "dataset.jsonl"
    ).read_text(encoding="utf-8")
    assert json.loads((run_folder / "run.json").read_text())["dataset_version"] == 2

    # Nothing changed since: no new version.
    again = run_cli("graph.refresh", "refreshed", "--runs-dir", str(runs), "--database-url", pg_url)
    assert again.returncode == 0 and "version 2 is true to the store" in again.stdout, again.stderr
    assert not (run_folder / "versions" / "3").exists()

    # graph.export reads either version.
    old = run_cli(
        "graph.export", "refreshed", "--format", "csv", "--version", "1", "--runs-dir", str(runs),
        "--output", str(tmp_path / "v1.csv"),
    )  # fmt: skip
    assert old.returncode == 0, old.stderr
    assert f"wrote {len(answerable)} items" in old.stdout


def test_refresh_of_a_run_that_does_not_exist_is_one_line(tmp_path: Path) -> None:
    assert_one_line_error(run_cli("graph.refresh", "nosuch", "--runs-dir", str(tmp_path)), "no run 'nosuch'")


def test_refresh_of_a_run_the_state_database_does_not_know_is_one_line(pg_url: str, tmp_path: Path) -> None:
    (tmp_path / "orphan").mkdir()
    (tmp_path / "orphan" / "dataset.jsonl").write_text("")
    result = run_cli("graph.refresh", "orphan", "--runs-dir", str(tmp_path), "--collection", "refreshed")
    assert_one_line_error(result, "no run 'orphan' in this state database")
    assert not (tmp_path / "orphan" / "versions").exists()
