"""A dataset follows its documents into another cutting: a folder ingested, a run, the same documents ingested
again at another chunk size into a second collection, checked and refreshed onto it; then one quote edited."""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from graph.config.cli import run_async
from graph.config.settings import Settings
from graph.living.staleness import store_changed
from graph.llm.offline.plausible import plausible_model
from graph.llm.offline.scripted import ScriptedChatModel
from graph.reviewing.session import open_labels
from tests.cli.test_check import VECTORS
from tests.support.commands import TEST_STATE_URL, run_cli
from tests.support.documents import manual_pages

PAGES = ("routine-vacuuming", "runtime-config-autovacuum", "sql-vacuum", "wal-configuration")
#: Every model a command builds, by role: the test counts their calls.
MODELS: dict[str, list[ScriptedChatModel]] = defaultdict(list)


def _counted(role: str) -> ScriptedChatModel:
    model = plausible_model()
    MODELS[role].append(model)
    return model


def generator_model() -> ScriptedChatModel:
    return _counted("generator")


def validator_model() -> ScriptedChatModel:
    return _counted("validator")


def extractor_model() -> ScriptedChatModel:
    return _counted("extractor")


ROLE_FLAGS = [
    arg
    for role in ("generator", "validator", "extractor")
    for arg in (f"--{role}-model", f"import:tests.cli.test_rechunk:{role}_model")
]


#: graph.check asks the validator only (the sufficiency judge).
JUDGE_FLAGS = ["--validator-model", "import:tests.cli.test_rechunk:validator_model"]


def calls() -> Counter[str]:
    return Counter({role: sum(len(model.calls) for model in models) for role, models in MODELS.items()})


def ingest(folder: Path, url: str, collection: str, *size: str) -> None:
    result = run_cli(
        "graph.ingest", str(folder), "--collection", collection, "--embedding", VECTORS, "--database-url", url, *size
    )
    assert result.returncode == 0, result.stderr


def statuses(run_folder: Path) -> dict[str, str]:
    return {r["id"]: r["status"] for r in json.loads((run_folder / "check.json").read_text())["records"]}


def test_a_dataset_follows_its_documents_into_another_chunking(pg_url: str, tmp_path: Path) -> None:
    folder, runs = manual_pages(tmp_path / "docs", PAGES), tmp_path / "runs"
    ingest(folder, pg_url, "cut_first")
    made = run_cli(
        "graph.run", "--collection", "cut_first", "--embedding", VECTORS, "--count", "4", "--binary", "no",
        *ROLE_FLAGS, "--seed", "2", "--dedup-threshold", "0", "--database-url", pg_url,
        "--runs-dir", str(runs), "--run-id", "cut",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    run_folder = runs / "cut"
    records = [json.loads(line) for line in (run_folder / "dataset.jsonl").read_text().splitlines()]
    assert len(records) == 4 and all(r["evidence_status"] == "quoted" for r in records)
    ingest(folder, pg_url, "cut_second", "--chunk-size", "1000", "--chunk-overlap", "100")

    # A reviewer's labels on the first record: a relevance flip of its first supporting chunk, a quote corrected.
    first = records[0]["supporting"][0]
    settings = Settings(database_url=pg_url, state_url=os.environ.get(TEST_STATE_URL))  # where the commands keep state

    async def label() -> None:
        labels, pool = await open_labels(settings)
        given = {"relevance": {first["id"]: False}, "evidence": {first["id"]: {first["evidence"][0]["quote"]: "x"}}}
        await labels.save("cut", 0, "ana", given)
        await pool.close()

    run_async(label())

    # The check on the second collection follows every fact and changes nothing.
    before = calls()
    checked = run_cli(
        "graph.check", "cut", "--collection", "cut_second", "--runs-dir", str(runs), "--database-url", pg_url,
        "--fail-on-stale", *JUDGE_FLAGS,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    report = json.loads((run_folder / "check.json").read_text())
    assert set(statuses(run_folder).values()) <= {"re-pointed", "flagged"}
    assert report["collection"]["name"] == "cut_second" and report["summary"]["by_evidence"] == 4
    assert all(fact["to"] for r in report["records"] for fact in r["facts"])
    spent = calls() - before
    assert spent["validator"] == report["summary"]["judge_calls"] and not spent["generator"] and not spent["extractor"]
    assert json.loads((run_folder / "run.json").read_text())["settings"]["collection"] == "cut_first"
    # graph.evaluate's "store changed" note compares the run's collection with its own fingerprint, not the check's.
    assert not run_async(store_changed(settings.model_copy(update={"collection": "cut_first"}), run_folder))

    # The refresh onto the second collection keeps every question: labeller calls (and the judge's), no generator.
    before = calls()
    refreshed = run_cli(
        "graph.refresh", "cut", "--collection", "cut_second", "--runs-dir", str(runs), "--database-url", pg_url,
        *ROLE_FLAGS,
    )  # fmt: skip
    assert refreshed.returncode == 0, refreshed.stderr
    spent = calls() - before
    assert spent["generator"] == 0 and spent["extractor"] > 0, spent
    after = {r["id"]: r for r in map(json.loads, (run_folder / "dataset.jsonl").read_text().splitlines())}
    second_ids = {c["id"] for r in after.values() for c in r["supporting"]}
    for record in records:
        new = after[record["id"]]
        assert (new["question"], new["answer"]) == (record["question"], record["answer"])
        assert new["version"] == 2 and new["validation"]["re_pointed"]["collection"] == "cut_second"
        assert new["hops"] == len(new["supporting"]) and new["evidence_status"] == "quoted"
        for chunk in new["supporting"]:
            assert all(fact["quote"] in chunk["text"] for fact in chunk["evidence"])
        assert new["validation"]["verdicts"] == record["validation"]["verdicts"]
    changes = [json.loads(line) for line in (run_folder / "versions" / "2" / "changes.jsonl").read_text().splitlines()]
    assert {c["status"] for c in changes} <= {"re-pointed", "flagged"} and all(c["reason"] for c in changes)
    document = json.loads((run_folder / "run.json").read_text())
    assert document["settings"]["collection"] == "cut_second"
    assert document["manifest"]["collection"]["name"] == "cut_second"
    assert document["versions"][-1]["collection"]["name"] == "cut_second"

    async def labels_now() -> dict[str, Any]:
        labels, pool = await open_labels(settings)
        rows = await labels.of_run("cut")
        await pool.close()
        return rows[0]["labels"]

    moved_to = after[records[0]["id"]]["validation"]["re_pointed"]["supporting"][first["id"]][0]
    kept = run_async(labels_now())
    assert kept["relevance"] == {moved_to: False} and set(kept["evidence"]) == {moved_to}
    assert moved_to in second_ids

    # The new version checks clean on the collection the run now names.
    clean = run_cli("graph.check", "cut", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    (run_folder / "check.json").unlink()  # the version's own fingerprint, from run.json
    assert not run_async(store_changed(settings.model_copy(update={"collection": "cut_second"}), run_folder))
    clean = run_cli("graph.check", "cut", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert set(statuses(run_folder).values()) == {"fresh"}

    # One document edited where a quote lies: only the records quoting it are stale.
    quote = after[records[0]["id"]]["supporting"][0]["evidence"][0]["quote"]
    source = after[records[0]["id"]]["supporting"][0]["metadata"]["source"]
    text = (folder / source).read_text(encoding="utf-8")
    head, _, tail = quote.partition(" ")
    (folder / source).write_text(text.replace(quote, f"{head} (revised) {tail}"), encoding="utf-8")
    ingest(folder, pg_url, "cut_second", "--chunk-size", "1000", "--chunk-overlap", "100")
    edited = run_cli(
        "graph.check", "cut", "--runs-dir", str(runs), "--database-url", pg_url, "--fail-on-stale", *JUDGE_FLAGS
    )
    assert edited.returncode == 1, edited.stdout + edited.stderr
    second = settings.model_copy(update={"collection": "cut_second"})
    assert not run_async(store_changed(second, run_folder))  # checked since it changed
    quoting = {
        r["id"]
        for r in after.values()
        if any(fact["quote"] == quote for chunk in r["supporting"] for fact in chunk["evidence"])
    }
    now = statuses(run_folder)
    assert {i for i, status in now.items() if status == "stale"} == quoting
    assert records[0]["id"] in quoting and "stale" in edited.stdout
