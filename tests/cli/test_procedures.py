"""Procedures as a team's documents hold them: HTML step lists ingested with their numbers and bullets, found by
procedure detection, and a run with `--types factual,procedural` that fills both cells; a collection without
any procedure says so once, at the start, and spends no sample on the procedural cell."""

from __future__ import annotations

import json
from pathlib import Path
from subprocess import CompletedProcess

import psycopg

from state.procedure import procedure_form
from tests.cli.test_check import VECTORS
from tests.support.commands import run_cli

SCRIPTED = "offline:plausible"

#: Pages of a small operations manual: a DocBook-style ordered procedure (item text inside <p>), bulleted steps,
#: a German sequence in prose, and pages that hold no procedure (a parameter list, a description).
PAGES = {
    "upgrade.html": """<html><head><title>Upgrading the cluster</title></head><body><main>
<h1>Upgrading the cluster</h1>
<p>These are the steps to upgrade a cluster with pg_upgrade from one major release to the next one.</p>
<ol class="procedure">
<li><p>Stop the old server with pg_ctl stop and check that no postgres process is left running.</p></li>
<li><p>Run pg_upgrade with the --check option against the old and the new data directories.</p></li>
<li><p>Run pg_upgrade again without --check and keep its log files until the new cluster works.</p></li>
<li><p>Start the new server and run vacuumdb --all --analyze-in-stages.</p></li>
</ol></main></body></html>""",
    "standby.html": """<html><head><title>Setting up a standby</title></head><body><main>
<h1>Setting up a standby</h1>
<p>A standby server follows the primary by replaying its write-ahead log as the primary writes it.</p>
<ul>
<li>Install the same major version of PostgreSQL on the standby host.</li>
<li>Copy a base backup taken with pg_basebackup into the standby's data directory.</li>
<li>Create a standby.signal file in the data directory and set primary_conninfo.</li>
<li>Start the standby and check pg_stat_wal_receiver for a streaming connection.</li>
</ul></main></body></html>""",
    "sicherung.html": """<html><head><title>Sicherung wiederherstellen</title></head><body><main>
<h1>Sicherung wiederherstellen</h1>
<p>Zuerst stoppen Sie den Datenbankserver und verschieben das alte Datenverzeichnis an einen sicheren Ort.
Dann entpacken Sie die Basissicherung in ein neues Datenverzeichnis, das dem Benutzer des Servers gehört.
Schließlich starten Sie den Server und beobachten das Protokoll, bis die Wiederherstellung endet.</p>
</main></body></html>""",
    "parameters.html": """<html><head><title>Autovacuum parameters</title></head><body><main>
<h1>Autovacuum parameters</h1>
<p>These configuration parameters control the behaviour of the autovacuum daemon of the server.</p>
<ul><li>autovacuum (boolean): whether the server runs the autovacuum launcher daemon at all.</li>
<li>autovacuum_naptime (integer): the minimum delay between autovacuum runs on any database.</li>
<li>autovacuum_max_workers (integer): how many autovacuum processes may run at the same time.</li></ul>
</main></body></html>""",
    "wal.html": """<html><head><title>Write-ahead logging</title></head><body><main>
<h1>Write-ahead logging</h1>
<p>Write-ahead logging is a standard method for ensuring data integrity. Changes to data files are written only
after those changes have been logged, that is, after log records describing the changes have been flushed to
permanent storage. Checkpoints are points in the sequence of transactions at which the data files have been
updated to reflect the information in the log.</p>
</main></body></html>""",
    "checkpoints.html": """<html><head><title>Checkpoints</title></head><body><main>
<h1>Checkpoints</h1>
<p>A checkpoint is begun every checkpoint_timeout seconds, or if max_wal_size is about to be exceeded, whichever
comes first. The default settings are 5 minutes and 1 GB, respectively. If no WAL has been written since the
previous checkpoint, new checkpoints will be skipped even if checkpoint_timeout has passed.</p>
</main></body></html>""",
}


def ingest_pages(folder: Path, url: str, collection: str, names: list[str]) -> None:
    folder.mkdir()
    for name in names:
        (folder / name).write_text(PAGES[name], encoding="utf-8")
    result = run_cli(
        "graph.ingest", str(folder), "--collection", collection, "--embedding", VECTORS, "--database-url", url
    )
    assert result.returncode == 0, result.stderr


def factual_and_procedural(url: str, collection: str, count: int, runs: Path, run_id: str) -> CompletedProcess[str]:
    """`graph.run --types factual,procedural` on `collection` with the plausible script, to its end."""
    run = run_cli(
        "graph.run", "--collection", collection, "--embedding", VECTORS, "--count", str(count),
        "--types", "factual,procedural", "--binary", "no", "--llm", SCRIPTED, "--seed", "2",
        "--dedup-threshold", "0", "--database-url", url, "--runs-dir", str(runs), "--run-id", run_id,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run


def stored_texts(url: str, collection: str) -> dict[str, str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(f"SELECT langchain_metadata->>'source', content FROM \"{collection}\"").fetchall()
    return {Path(source).name: text for source, text in rows}


def test_step_lists_keep_their_marks_and_a_run_fills_factual_and_procedural(pg_url: str, tmp_path: Path) -> None:
    ingest_pages(tmp_path / "docs", pg_url, "procedures", list(PAGES))
    texts = stored_texts(pg_url, "procedures")
    assert "1. Stop the old server" in texts["upgrade.html"] and "2. Run pg_upgrade" in texts["upgrade.html"]
    assert "- Install the same major version" in texts["standby.html"]
    assert "- autovacuum (boolean)" in texts["parameters.html"]
    forms = {name: procedure_form(text) for name, text in texts.items()}
    assert forms == {
        "upgrade.html": "numbered",
        "standby.html": "bulleted",
        "sicherung.html": "sequence",
        "parameters.html": None,
        "wal.html": None,
        "checkpoints.html": None,
    }
    run = factual_and_procedural(pg_url, "procedures", 4, tmp_path / "runs", "steps")
    assert "holds a procedure" not in run.stderr
    records = [json.loads(line) for line in (tmp_path / "runs" / "steps" / "dataset.jsonl").read_text().splitlines()]
    cells = [record["question_type"] for record in records]
    assert sorted(cells) == ["factual", "factual", "procedural", "procedural"]
    procedural_sources = {
        Path(r["supporting"][0]["metadata"]["source"]).name for r in records if r["question_type"] == "procedural"
    }
    assert procedural_sources <= {"upgrade.html", "standby.html", "sicherung.html"}


def test_a_collection_without_procedures_says_so_once_and_spends_no_sample_on_them(pg_url: str, tmp_path: Path) -> None:
    ingest_pages(tmp_path / "docs", pg_url, "no_procedures", ["parameters.html", "wal.html", "checkpoints.html"])
    run = factual_and_procedural(pg_url, "no_procedures", 2, tmp_path / "runs", "none")
    notes = [line for line in run.stderr.splitlines() if "holds a procedure" in line]
    assert len(notes) == 1 and "procedural/open" in notes[0] and "cannot be filled" in notes[0]
    assert "no unused chunk with a procedure" not in run.stderr
    run_json = json.loads((tmp_path / "runs" / "none" / "run.json").read_text())
    assert run_json["shortfall"] == {"procedural/open": 1}
    assert "procedural/open" not in run_json["funnel"]["cells"] or not run_json["funnel"]["cells"][
        "procedural/open"
    ].get("started")
