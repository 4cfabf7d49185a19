"""Runs at scale as a user runs them: concurrency, a kill and a resume, several workers, outputs."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from graph.figures.report import SECTIONS
from tests.support.browser import rendered
from tests.support.commands import (
    PLAUSIBLE_MODEL,
    SLOW_MODEL,
    check_run_outputs,
    done_samples,
    run_cli,
    start_run,
    state_connection,
    wait_for,
)


def test_concurrent_run_killed_and_resumed_yields_exactly_the_count(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    run_id, count = "killed-run", 12
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    args = (
        "--collection",
        scale_collection,
        "--count",
        str(count),
        "--types",
        "comparison,intersection",
        "--concurrency",
        "16",
        "--llm",
        SLOW_MODEL,
        "--dedup-threshold",
        "0",
        "--run-id",
        run_id,
    )
    process = start_run(*args, env=env)
    wait_for(lambda: done_samples(pg_url, run_id) >= 3)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    interrupted = done_samples(pg_url, run_id)
    assert interrupted < count

    resumed = run_cli("graph.run", "--resume", run_id, "--concurrency", "16", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert f"continuing run {run_id}" in resumed.stderr
    check_run_outputs(tmp_path / run_id, pg_url, run_id, count)
    run_json = json.loads((tmp_path / run_id / "run.json").read_text())
    assert run_json["funnel"]["accepted"] == count and run_json["shortfall"] == {}


def test_the_same_command_again_continues_a_finished_run_without_repeating(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    args = (
        "--collection",
        scale_collection,
        "--count",
        "3",
        "--llm",
        PLAUSIBLE_MODEL,
        "--dedup-threshold",
        "0",
        "--run-id",
        "again",
    )
    first = run_cli("graph.run", *args, env=env)
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "again" / "dataset.jsonl").read_text()
    second = run_cli("graph.run", *args, env=env)
    assert second.returncode == 0, second.stderr
    assert "continuing run again" in second.stderr
    assert (tmp_path / "again" / "dataset.jsonl").read_text() == before


def test_three_workers_share_a_run_and_a_dead_workers_slot_is_reclaimed(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    run_id, count = "three-workers", 12
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path), "TRIAD_LEASE_SECONDS": "2"}
    first = start_run(
        "--collection",
        scale_collection,
        "--count",
        str(count),
        "--types",
        "comparison,intersection",
        "--concurrency",
        "2",
        "--llm",
        SLOW_MODEL,
        "--dedup-threshold",
        "0",
        "--run-id",
        run_id,
        env=env,
    )
    wait_for(lambda: done_samples(pg_url, run_id) >= 1)
    # The worker to be killed starts first: on a busy machine a later start could find the run's work all taken.
    workers = [start_run("--resume", run_id, "--worker", "--concurrency", "2", env=env)]
    with state_connection(pg_url, autocommit=True) as conn:
        victim_id = f"{os.uname().nodename}-{workers[0].pid}"
        wait_for(
            lambda: (
                conn.execute(
                    "SELECT 1 FROM triad_samples WHERE run_id = %s AND worker = %s AND status = 'running'",
                    (run_id, victim_id),
                ).fetchone()
                is not None
            )
        )
        workers.append(start_run("--resume", run_id, "--worker", "--concurrency", "2", env=env))
        held = {
            row[0]
            for row in conn.execute(
                "SELECT n FROM triad_samples WHERE run_id = %s AND worker = %s AND status = 'running'",
                (run_id, victim_id),
            ).fetchall()
        }
    workers[0].send_signal(signal.SIGKILL)
    outputs = [p.communicate(timeout=300) for p in (first, workers[1])]
    workers[0].wait(timeout=30)
    assert first.returncode == 0 and workers[1].returncode == 0, outputs
    check_run_outputs(tmp_path / run_id, pg_url, run_id, count)
    with state_connection(pg_url) as conn:
        rows = conn.execute("SELECT n, status, worker FROM triad_samples WHERE run_id = %s", (run_id,)).fetchall()
    assert all(status == "done" for _, status, _ in rows)
    finished_by = {n: worker for n, _, worker in rows}
    assert all(finished_by[n] != victim_id for n in held)  # the dead worker's slots were taken over
    threads_done = [
        line.split("]")[0][1:] for _, err in outputs for line in err.splitlines() if line.startswith(f"[{run_id}/")
    ]
    assert len(threads_done) == len(set(threads_done))  # no slot ran to the end twice


def test_report_renders_every_section_in_chromium(pg_url: str, scale_collection: str, tmp_path: Path) -> None:
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    run = run_cli(
        "graph.run",
        "--collection",
        scale_collection,
        "--count",
        "4",
        "--llm",
        PLAUSIBLE_MODEL,
        "--dedup-threshold",
        "0",
        "--run-id",
        "report",
        env=env,
    )
    assert run.returncode == 0, run.stderr
    page = tmp_path / "report" / "report.html"
    assert "http://" not in page.read_text() and "https://" not in page.read_text()
    dom, console = rendered(page, tmp_path / "chromium-profile")
    assert f'data-sections="{len(SECTIONS)}"' in dom
    for section in (
        "funnel",
        "cells",
        "difficulty",
        "relevant",
        "temporal",
        "rejections",
        "revisions",
        "cost",
        "examples",
    ):
        assert f'<section id="{section}">' in dom
    assert dom.count("<svg") >= 5
    assert console == []


def test_the_cost_limit_stops_starting_samples_and_says_so(pg_url: str, scale_collection: str, tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text(f'[prices]\n"{PLAUSIBLE_MODEL}" = [100.0, 100.0]\n')
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path), "TRIAD_CONFIG": str(config)}
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "6", "--llm", PLAUSIBLE_MODEL,
        "--dedup-threshold", "0", "--run-id", "budget", "--max-cost-usd", "0.5", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "stopped starting samples: the cost limit of 0.5 USD was reached" in result.stderr
    run_json = json.loads((tmp_path / "budget" / "run.json").read_text())
    assert run_json["stopped_by_cost_limit"] is True and run_json["funnel"]["samples_started"] < 6
    assert run_json["funnel"]["llm"]["cost_usd"] >= 0.5
    assert run_json["funnel"]["llm"]["per_node"]["generate_question"]["calls"] >= 1


def test_log_json_gives_an_event_per_sample_and_with_debug_per_model_call(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    args = ("--collection", scale_collection, "--count", "2", "--types", "comparison", "--concurrency", "2",
            "--llm", PLAUSIBLE_MODEL, "--dedup-threshold", "0", "--log-json")  # fmt: skip
    events = {}
    for run_id, level in (("logs-info", ()), ("logs-debug", ("--log-level", "debug"))):
        result = run_cli("graph.run", *args, "--run-id", run_id, *level, env=env)
        assert result.returncode == 0, result.stderr
        events[run_id] = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
        assert f"[{run_id}/" not in result.stderr  # the events replace the per-sample progress lines
    done = [event for event in events["logs-info"] if event["event"] == "sample_done"]
    started = json.loads((tmp_path / "logs-info" / "run.json").read_text())["funnel"]["samples_started"]
    assert len(done) == started >= 2
    assert all(event["run_id"] == "logs-info" and event["thread_id"].startswith("logs-info/") for event in done)
    assert {event["outcome"] for event in done} <= {"accepted", "rejected", "no_bridge", "failed"}
    assert not [event for event in events["logs-info"] if event["event"] == "llm_call"]  # info by default
    calls = [event for event in events["logs-debug"] if event["event"] == "llm_call"]
    assert calls and all(event["thread_id"].startswith("logs-debug/") and event["node"] for event in calls)
    # Two lanes at once: each call is credited to a sample that was running then, never across runs.
    threads = {event["thread_id"] for event in calls}
    finished = {event["thread_id"] for event in events["logs-debug"] if event["event"] == "sample_done"}
    assert threads == finished and len(threads) >= 2
    assert all(event["input_tokens"] > 0 for event in calls)
