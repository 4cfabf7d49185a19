"""Single-hop questions beside the multi-hop types: `--types factual,procedural,composition` on a folder of
manual pages and procedures, through the run, its report, the review page, the evaluation and the exports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from graph.figures.funnel import cell_name
from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.scripted import ScriptedChatModel
from graph.reviewing.pages import sample_page
from graph.reviewing.samples import load_samples
from state.procedure import looks_procedural
from tests.cli.test_check import VECTORS, ingest, write_documents
from tests.cli.test_refresh import demo_documents
from tests.support.commands import assert_one_line_error, run_cli

SCRIPTED = "offline:plausible"
EAGER = "import:tests.cli.test_single_hop:always_answers"


def always_answers() -> ScriptedChatModel:
    """An answering model that never abstains: it answers every question, whatever its contexts hold."""
    return ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "RagAnswer": [{"answer": "42"}]})


PAGES = tuple(f"postgresql-15/{name}.html" for name in (
    "routine-vacuuming", "runtime-config-autovacuum", "sql-vacuum", "wal-configuration", "wal-intro",
))  # fmt: skip

#: Procedures written for this test: numbered steps, as a team's runbooks have them.
PROCEDURES = {
    "Restoring a base backup": [
        "Stop the database server and make sure it is not running.",
        "Move the old data directory aside, keeping its pg_wal folder for later.",
        "Extract the base backup into a fresh data directory owned by the server's user.",
        "Create recovery.signal in the data directory and set restore_command.",
        "Start the server and watch the log until recovery ends.",
    ],
    "Rotating the replication password": [
        "Generate a new password for the replication role with a password manager.",
        "Run ALTER ROLE replicator PASSWORD on the primary server.",
        "Update primary_conninfo on every standby with the new password.",
        "Reload each standby and check pg_stat_wal_receiver for a streaming connection.",
    ],
    "Adding a tablespace on a new disk": [
        "Mount the new disk and create an empty directory on it.",
        "Give the directory to the operating system user that runs the server.",
        "Run CREATE TABLESPACE fastspace LOCATION with the directory's path.",
        "Move the busiest tables with ALTER TABLE ... SET TABLESPACE during a quiet hour.",
    ],
}


def runbook() -> list[dict[str, Any]]:
    rows = []
    for index, (title, steps) in enumerate(PROCEDURES.items(), start=1):
        numbered = "\n".join(f"{n}. {step}" for n, step in enumerate(steps, start=1))
        rows.append({"id": f"runbook-{index}", "text": f"{title}\n\nFollow these steps in order.\n\n{numbered}"})
    return rows


@pytest.fixture(scope="module")
def single_hop_run(pg_url: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("single-hop")
    (folder / "docs").mkdir()
    write_documents(folder / "docs", demo_documents(PAGES) | {"runbook": runbook()})
    ingest(folder / "docs", pg_url, "single_hop")
    run = run_cli(
        "graph.run", "--collection", "single_hop", "--embedding", VECTORS, "--count", "6",
        "--types", "factual,procedural,composition", "--llm", SCRIPTED, "--seed", "4", "--dedup-threshold", "0",
        "--database-url", pg_url, "--runs-dir", str(folder / "runs"), "--run-id", "single",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return folder / "runs"


def records(runs: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (runs / "single" / "dataset.jsonl").read_text().splitlines()]


def test_every_cell_is_filled_and_single_hop_records_have_one_chunk(single_hop_run: Path) -> None:
    document = json.loads((single_hop_run / "single" / "run.json").read_text())
    assert document["quotas"] == {
        "factual/open": 2, "factual/binary": 1, "procedural/open": 1, "composition/open": 1, "composition/binary": 1,
    }  # fmt: skip
    assert document["shortfall"] == {}
    found = records(single_hop_run)
    cells: dict[str, int] = {}
    for record in found:
        cells[cell_name(record["question_type"], record["binary"])] = (
            cells.get(cell_name(record["question_type"], record["binary"]), 0) + 1
        )
        if record["question_type"] in ("factual", "procedural"):
            assert record["hops"] == 1 and len(record["supporting"]) == 1 and record["bridge_topic"] == ""
            judges = {v["judge"] for v in record["validation"]["verdicts"]}
            assert "sufficiency" not in judges and "quality" in judges
    assert cells == document["quotas"]
    procedural = [r for r in found if r["question_type"] == "procedural"]
    assert all(looks_procedural(r["supporting"][0]["text"]) for r in procedural)
    assert all(r["supporting"][0]["metadata"]["source"] == "runbook" for r in procedural)
    report = (single_hop_run / "single" / "report.html").read_text()
    assert "procedural/open" in report and "factual/binary" in report


def test_review_page_asks_three_criteria_of_a_single_hop_question(single_hop_run: Path) -> None:
    samples = load_samples(single_hop_run / "single")
    factual = next(s for s in samples.values() if s.accepted and s.question_type == "factual")
    assert factual.criteria == ("answerable", "correct", "unambiguous")
    page = sample_page("single", factual, {}, None, None)
    assert 'data-criterion="multi_hop"' not in page and 'data-criterion="unambiguous"' in page


def test_exports_and_evaluation_break_down_by_type(single_hop_run: Path, pg_url: str) -> None:
    exported = run_cli(
        "graph.export", "single", "--format", "csv", "--runs-dir", str(single_hop_run),
        "--output", str(single_hop_run / "single.csv"),
    )  # fmt: skip
    assert exported.returncode == 0, exported.stderr
    text = (single_hop_run / "single.csv").read_text()
    assert "procedural" in text and "factual" in text
    evaluated = run_cli(
        "graph.evaluate", "single", "--runs-dir", str(single_hop_run), "--database-url", pg_url,
        "--setup", f"base=k=3,model={SCRIPTED}", "--setup", f"eager=k=3,model={EAGER}",
        "--validator-model", SCRIPTED, "--extractor-model", SCRIPTED,
    )  # fmt: skip
    assert evaluated.returncode == 0, evaluated.stderr
    by_type = json.loads((single_hop_run / "single" / "eval-summary.json").read_text())["base"]["question_type"]
    assert {"factual", "procedural", "composition"} <= set(by_type)
    assert "what the figures suggest:" in evaluated.stdout
    # A setup that answers whatever its contexts hold shows the pattern of no abstention.
    assert "eager: it answered 100% of the simulated unanswerable variants" in evaluated.stdout


def test_a_procedural_question_has_no_yes_no_form(tmp_path: Path) -> None:
    result = run_cli(
        "graph.run", "--collection", "single_hop", "--types", "procedural", "--binary", "yes",
        "--runs-dir", str(tmp_path), "--llm", SCRIPTED,
    )  # fmt: skip
    assert_one_line_error(result, "procedural questions have no yes/no form")


def test_weights_keep_a_document_from_seeding_and_coverage_counts_per_weight(
    single_hop_run: Path, pg_url: str, tmp_path: Path
) -> None:
    weights = tmp_path / "weights.txt"
    weights.write_text("# the runbook is out of scope this quarter\nrunbook 0\nwal-intro 5\n")
    run = run_cli(
        "graph.run", "--collection", "single_hop", "--embedding", VECTORS, "--count", "3", "--types", "factual",
        "--binary", "no", "--llm", SCRIPTED, "--seed", "4", "--dedup-threshold", "0", "--weights", str(weights),
        "--database-url", pg_url, "--runs-dir", str(tmp_path / "runs"), "--run-id", "weighted",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    found = [json.loads(line) for line in (tmp_path / "runs" / "weighted" / "dataset.jsonl").read_text().splitlines()]
    assert len(found) == 3 and all(r["supporting"][0]["metadata"]["source"] != "runbook" for r in found)
    document = json.loads((tmp_path / "runs" / "weighted" / "run.json").read_text())
    assert document["options"]["weights"] == {"runbook": 0.0, "wal-intro": 5.0}
    by_weight = {c["weight"]: c for c in document["coverage"]["by_weight"]}
    assert set(by_weight) == {5.0, 1.0, 0.0} and by_weight[0.0]["covered"] == 0
    assert "coverage: weight 5:" in run.stderr
    assert "By document weight" in (tmp_path / "runs" / "weighted" / "report.html").read_text()
    bad = run_cli("graph.run", "--collection", "single_hop", "--weight-by", "priority", "--runs-dir", str(tmp_path))
    assert_one_line_error(bad, "--weight-by takes metadata.KEY")
