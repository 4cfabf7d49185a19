"""`python -m graph.run` as a user runs it: the demo offline from recorded calls, recording, errors."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from graph.config.settings import resolve_settings
from graph.demo import DEMO_COLLECTION
from graph.llm.from_settings import build_gateway
from graph.llm.offline.scripted import ScriptedChatModel
from graph.run import build_parser
from graph.running.flags import run_request
from graph.running.job import run_job
from state.record import DatasetRecord, Rejection
from tests.support.commands import REPO_ROOT, assert_one_line_error, run_cli
from tests.support.scripts import question_about_chunk_a, script

DEMO_CALLS = REPO_ROOT / "graph" / "demo" / "recorded_calls.jsonl"


def run_folder(runs: Path) -> Path:
    (folder,) = list(runs.iterdir())
    return folder


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_readme_demo_run_completes_offline_from_recorded_calls(pg_url: str, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    result = run_cli(
        "graph.run",
        "--demo",
        "--count",
        "6",
        "--seed",
        "7",
        "--llm",
        f"recorded:{DEMO_CALLS}",
        "--database-url",
        pg_url,
        "--runs-dir",
        str(runs),
    )
    assert result.returncode == 0, result.stderr
    folder = run_folder(runs)
    records = [DatasetRecord.model_validate(line) for line in read_jsonl(folder / "dataset.jsonl")]
    assert len(records) == 6
    assert {(r.question_type, r.binary) for r in records} == {
        (t, b) for t in ("comparison", "intersection", "composition") for b in (False, True)
    }
    assert all(r.provenance.models["generator"] == f"recorded:{DEMO_CALLS}" for r in records)
    # The files are rewritten from the state database at the end; their lines keep the order a reader
    # expects (the question before 30 kB of contexts), not the database's.
    assert all(list(line) == list(DatasetRecord.model_fields) for line in read_jsonl(folder / "dataset.jsonl"))
    rejected = read_jsonl(folder / "rejected.jsonl")
    assert rejected and all(list(line) == list(Rejection.model_fields) for line in rejected)
    run_json = json.loads((folder / "run.json").read_text())
    assert run_json["funnel"]["accepted"] == 6 and run_json["shortfall"] == {}
    assert "accepted             6" in result.stdout
    assert DEMO_COLLECTION in result.stderr
    # Each yes/no cell's answers, split in the report, as the run's records have them.
    report = (folder / "report.html").read_text()
    for question_type in ("comparison", "intersection", "composition"):
        answers = [r.answer for r in records if r.question_type == question_type and r.binary]
        split = f"{answers.count('Yes')} / {answers.count('No')}"
        assert f"<td>{question_type}/binary</td><td>1</td><td>1</td>" in report and f"<td>{split}</td>" in report


def test_record_then_answer_from_the_recording_gives_the_same_records(
    pg_url: str, demo_slice: str, tmp_path: Path
) -> None:
    recording = tmp_path / "calls.jsonl"
    args = build_parser().parse_args(
        [
            "--collection",
            demo_slice,
            "--count",
            "2",
            "--types",
            "intersection",
            "--binary",
            "no",
            "--dedup-threshold",
            "0",
            "--seed",
            "3",
            "--runs-dir",
            str(tmp_path / "a"),
            "--record-llm",
            str(recording),
            "--no-llm-cache",
            "--database-url",
            pg_url,
        ]
    )
    settings = resolve_settings(
        {
            "collection": demo_slice,
            "database_url": pg_url,
            "state_url": pg_url,
            "runs_dir": tmp_path / "a",
            "llm_cache": False,
        }
    )
    model = ScriptedChatModel(script=script(QuestionDraft=question_about_chunk_a))
    gateway = build_gateway(
        settings,
        models={"generator": model, "validator": model, "extractor": model},
        recording_path=recording,
        random_seed=3,
    )
    asyncio.run(run_job(run_request(args, settings), settings, gateway))
    recorded = read_jsonl(run_folder(tmp_path / "a") / "dataset.jsonl")

    replay = run_cli(
        "graph.run",
        "--collection",
        demo_slice,
        "--count",
        "2",
        "--types",
        "intersection",
        "--binary",
        "no",
        "--dedup-threshold",
        "0",
        "--seed",
        "3",
        "--llm",
        f"recorded:{recording}",
        "--database-url",
        pg_url,
        "--runs-dir",
        str(tmp_path / "b"),
    )
    assert replay.returncode == 0, replay.stderr
    replayed = read_jsonl(run_folder(tmp_path / "b") / "dataset.jsonl")
    assert len(recorded) == 2
    keep = ("question", "answer", "supporting", "contexts", "difficulty", "temporal", "unanswerable")
    assert [{k: r[k] for k in keep} for r in replayed] == [{k: r[k] for k in keep} for r in recorded]


def test_a_yes_no_cell_ends_with_as_many_yes_as_no_answers_give_or_take_one(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "5", "--types", "intersection", "--binary", "yes",
        "--llm", "offline:plausible", "--seed", "3", "--dedup-threshold", "0",
        "--database-url", pg_url, "--runs-dir", str(runs), "--run-id", "balanced",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    folder = runs / "balanced"
    records = read_jsonl(folder / "dataset.jsonl")
    answers = [record["answer"] for record in records]
    assert len(records) == 5 and sorted(answers) == ["No", "No", "Yes", "Yes", "Yes"]
    assert "<td>3 / 2</td>" in (folder / "report.html").read_text()


def test_no_api_key_exits_2_at_once_with_one_line(tmp_path: Path) -> None:
    result = run_cli(
        "graph.run", "--demo", "--database-url", "postgresql://nobody@127.0.0.1:9/x", env={"TRIAD_HOME": str(tmp_path)}
    )
    assert_one_line_error(result, "GOOGLE_API_KEY", "--llm")


def test_a_request_the_recording_lacks_is_named(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = run_cli(
        "graph.run",
        "--collection",
        demo_slice,
        "--count",
        "1",
        "--llm",
        f"recorded:{empty}",
        "--database-url",
        pg_url,
        "--runs-dir",
        str(tmp_path / "runs"),
    )
    assert_one_line_error(result, "has no answer for the generator request of node propose_bridge", "--record-llm")


def test_bad_run_values_are_one_line(pg_url: str) -> None:
    assert_one_line_error(run_cli("graph.run", "--count", "0", "--demo"), "--count")
    assert_one_line_error(
        run_cli("graph.run", "--count", "1", "--demo", "--llm", "nosuch:model"), "unknown model provider"
    )


def test_min_chunk_chars_reaches_every_seed_and_stays_with_the_run(
    pg_url: str, demo_slice: str, tmp_path: Path
) -> None:
    import psycopg

    with psycopg.connect(pg_url) as conn:
        lengths = sorted(row[0] for row in conn.execute(f"SELECT length(content) FROM {demo_slice}"))
    floor = lengths[len(lengths) // 2]  # half of the slice's chunks are too short to seed from
    runs = tmp_path / "runs"
    args = build_parser().parse_args(
        ["--collection", demo_slice, "--count", "2", "--types", "composition", "--binary", "no", "--seed", "5",
         "--dedup-threshold", "0", "--no-llm-cache", "--database-url", pg_url, "--runs-dir", str(runs),
         "--min-chunk-chars", str(floor)]
    )  # fmt: skip
    settings = resolve_settings(
        {"collection": demo_slice, "database_url": pg_url, "state_url": pg_url, "runs_dir": runs, "llm_cache": False,
         "min_chunk_chars": floor}
    )  # fmt: skip
    model = ScriptedChatModel(script=script(QuestionDraft=question_about_chunk_a))
    gateway = build_gateway(
        settings, models={"generator": model, "validator": model, "extractor": model}, random_seed=5
    )
    run_id, document = asyncio.run(run_job(run_request(args, settings), settings, gateway))
    with psycopg.connect(pg_url) as conn:
        seeds = [row[0] for row in conn.execute("SELECT chunk_id FROM triad.triad_seeds WHERE run_id = %s", (run_id,))]
        short = conn.execute(
            f"SELECT count(*) FROM {demo_slice} WHERE langchain_id::text = ANY(%s) AND length(content) < %s",
            (seeds, floor),
        ).fetchone()
    assert seeds and document["funnel"]["samples_started"] >= 2
    assert short == (0,)  # every seed drawn, for every sample and restart, is long enough
    assert document["settings"]["min_chunk_chars"] == floor
    with psycopg.connect(pg_url) as conn:
        (stored,) = conn.execute("SELECT options FROM triad.triad_runs WHERE run_id = %s", (run_id,)).fetchone()
    assert stored["settings"]["min_chunk_chars"] == floor  # a continued run reads chunks as it began
