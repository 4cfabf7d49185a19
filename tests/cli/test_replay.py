"""`python -m graph.replay` and swappable stage implementations, as a user runs them."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver

from graph.store.database import in_schema
from nodes.builder import compile_graph
from tests.support.commands import STATE_SCHEMA, assert_one_line_error, run_cli

STRICT = "import:tests.support.scripts:strict_model"
LENIENT = "import:tests.support.scripts:accepting_validator"


@pytest.fixture(scope="module")
def rejected_run(pg_url: str, scale_collection: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    runs = tmp_path_factory.mktemp("runs")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs)}
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "1", "--types", "comparison", "--binary", "no",
        "--llm", STRICT, "--dedup-threshold", "0", "--seed", "7", "--run-id", "strict", env=env,
    )  # fmt: skip
    # Seeded, the three samples stand on three different section pairs: no replayed question duplicates another.
    assert result.returncode == 0, result.stderr
    assert "shortfall: comparison/open 1" in result.stderr
    return runs, env


def history_outcomes(url: str, thread_id: str) -> list[str | None]:
    async def collect() -> list[str | None]:
        async with AsyncPostgresSaver.from_conn_string(in_schema(url, STATE_SCHEMA)) as saver:
            graph = compile_graph(saver)
            config = {"configurable": {"thread_id": thread_id}}
            return [snapshot.values.get("outcome") async for snapshot in graph.aget_state_history(config)]

    return asyncio.run(collect())


def test_list_shows_the_rejecting_judge_and_its_reason(rejected_run) -> None:  # noqa: ANN001
    runs, env = rejected_run
    listing = run_cli("graph.replay", "strict", "--list", env=env)
    assert listing.returncode == 0, listing.stderr
    assert "3 of 3 samples were not accepted" in listing.stdout
    assert listing.stdout.count("comparison/open") == 3
    assert "quality" in listing.stdout and "one chunk suffices" in listing.stdout


def test_replaying_one_sample_forks_its_thread_and_keeps_both_branches(rejected_run, pg_url: str) -> None:  # noqa: ANN001
    runs, env = rejected_run
    replay = run_cli("graph.replay", "strict", "--sample", "0", "--validator-model", LENIENT, env=env)
    assert replay.returncode == 0, replay.stderr
    assert "sample 0: rejected -> accepted" in replay.stdout
    outcomes = history_outcomes(pg_url, "strict/0")
    assert outcomes[0] == "accepted" and "rejected" in outcomes  # new head, original branch kept
    records = [json.loads(line) for line in (runs / "strict" / "dataset.jsonl").read_text().splitlines()]
    assert len(records) == 1 and records[0]["provenance"]["replayed_from"].startswith("strict/0@")
    assert records[0]["provenance"]["models"]["validator"] == LENIENT


def test_replay_all_counts_how_many_now_pass(rejected_run) -> None:  # noqa: ANN001
    runs, env = rejected_run
    listing = run_cli("graph.replay", "strict", "--list", env=env)
    counted = re.search(r"(\d+) of 3 samples were not accepted", listing.stdout)
    assert counted, listing.stdout
    waiting = int(counted.group(1))
    replay = run_cli("graph.replay", "strict", "--all", "--validator-model", LENIENT, env=env)
    assert replay.returncode == 0, replay.stderr
    outcomes = [line for line in replay.stdout.splitlines() if line.startswith("sample ")]
    assert len(outcomes) == waiting
    assert all("rejected -> accepted" in line for line in outcomes), replay.stdout
    assert f"{waiting} of {waiting} replayed samples now pass" in replay.stdout


def test_set_edits_the_state_at_the_fork(rejected_run, scale_collection: str) -> None:  # noqa: ANN001
    runs, env = rejected_run
    replay = run_cli(
        "graph.replay", "strict", "--sample", "0", "--from", "generate_question", "--set", "role=a DBA on call",
        "--llm", LENIENT, env=env,
    )  # fmt: skip
    assert replay.returncode == 0, replay.stderr
    records = [json.loads(line) for line in (runs / "strict" / "dataset.jsonl").read_text().splitlines()]
    assert any(r["role"] == "a DBA on call" for r in records)


@pytest.mark.parametrize("via", ["flag", "triad.toml"])
def test_a_users_implementation_on_the_path_is_used(
    pg_url: str, scale_collection: str, tmp_path: Path, via: str
) -> None:
    implementation = "tests.graph.custom_nodes:everything_relevant"
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    choice = ["--node", f"relevance={implementation}"]
    if via == "triad.toml":
        config = tmp_path / "triad.toml"
        config.write_text(f'[nodes]\nrelevance = "{implementation}"\n')
        env["TRIAD_CONFIG"], choice = str(config), []
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "1", "--types", "intersection", "--binary", "no",
        "--llm", LENIENT, "--dedup-threshold", "0", "--run-id", f"custom-{via}", *choice, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / f"custom-{via}" / "dataset.jsonl").read_text().splitlines()[0])
    assert all(context["relevant"] for context in record["contexts"])
    assert record["provenance"]["implementations"]["relevance_labeller"] == implementation


@pytest.mark.parametrize(
    ("node", "message"),
    [
        ("relevance=nosuch", "unknown implementation 'nosuch' for stage relevance"),
        ("nosuchstage=care", "unknown stage 'nosuchstage'"),
        ("relevance=tests.graph.custom_nodes:wrong_signature", "takes 1 arguments; the stage passes 3"),
        ("relevance=tests.graph.custom_nodes:absent", "cannot import"),
        ("relevance", "STAGE=IMPLEMENTATION"),
    ],
)
def test_bad_implementations_fail_with_one_line(node: str, message: str) -> None:
    result = run_cli("graph.run", "--demo", "--llm", LENIENT, "--node", node)
    assert_one_line_error(result, message)
