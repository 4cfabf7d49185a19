"""Runs that meet trouble: provider faults in 30% of calls, the database stopped and restarted mid-run."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from graph.ledger.ledger import RunLedger
from graph.llm.limits import RetryPolicy
from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.scripted import FAULT_KINDS, Faults, ScriptedChatModel
from tests.support.commands import (
    SLOW_MODEL,
    assert_one_line_error,
    check_run_outputs,
    done_samples,
    run_cli,
    run_process,
    start_run,
    state_connection,
    wait_for,
)
from tests.support.runs import scripted_run


def test_provider_faults_in_30_percent_of_calls_still_give_the_requested_count(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    faults = Faults(rate=0.3, random_seed=11, hang_s=3600.0, retry_after_s=0.05)
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT, latency_s=0.01, faults=faults)
    # Short waits keep the test quick; the bounds are the point: a hanging request is cut at 0.2 s.
    retry = RetryPolicy(base_delay_s=0.02, max_delay_s=0.2, max_total_wait_s=10.0, request_timeout_s=0.2)
    run_id, document, gateway = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "8", "--run-id", "provider-faults", "--seed", "2",
        retry=retry, timeout_s=600,
    )  # fmt: skip

    assert set(faults.injected) == set(FAULT_KINDS)  # every kind of fault happened
    assert faults.injected.total() >= 0.2 * faults.calls
    assert document["funnel"]["accepted"] == 8 and document["shortfall"] == {}
    records = check_run_outputs(tmp_path / run_id, pg_url, run_id, 8)
    assert all(r.question and r.contexts for r in records)
    # Retries and re-asks are recorded per sample, in the state database and in rejected.jsonl.
    assert document["funnel"]["llm"]["repeated_requests"] >= faults.injected.total() // 2
    with state_connection(pg_url) as conn:
        summaries = [
            row[0] for row in conn.execute("SELECT summary FROM triad_samples WHERE run_id = %s", (run_id,)).fetchall()
        ]
    assert sum(call["attempts"] > 1 for s in summaries for call in s["llm_calls"]) > 0
    for line in (tmp_path / run_id / "rejected.jsonl").read_text().splitlines():
        entry = json.loads(line)
        assert entry["end_reason"] and "llm_calls" in entry
        if entry["outcome"] == "failed":
            assert entry["llm_calls"][-1]["attempts"] >= 1
    assert max(call["seconds"] for call in gateway.calls) < 60  # no call waited without bound


@pytest.fixture
def own_server(pg_url: str, scale_collection: str, tmp_path: Path) -> Iterator[tuple[dict[str, str], str]]:
    """An embedded server of this test alone (it gets stopped), holding a copy of the scale collection."""
    home = {"TRIAD_HOME": str(tmp_path / "home")}
    started = run_process("graph.db", "start", env=home)  # the server outlives the command, as for a user
    assert started.returncode == 0, started.stderr
    url = started.stdout.strip()
    with psycopg.connect(pg_url) as source, psycopg.connect(url, autocommit=True) as target:
        target.execute(
            f'CREATE TABLE "{scale_collection}" (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,'
            " embedding vector(384) NOT NULL, langchain_metadata JSON)"
        )
        rows = source.execute(
            f'SELECT langchain_id, content, embedding::text, langchain_metadata::text FROM "{scale_collection}"'
        ).fetchall()
        with target.cursor() as cursor:
            cursor.executemany(f'INSERT INTO "{scale_collection}" VALUES (%s, %s, %s::vector, %s::json)', rows)
    try:
        yield home, url
    finally:
        run_cli("graph.db", "stop", env=home)


def server(command: str, home: dict[str, str]) -> None:
    """Stop or start the embedded server as a user does, with `python -m graph.db` in a process of its own
    (a server started in-process would stop with the object that started it)."""
    result = run_process("graph.db", command, env=home)
    assert result.returncode == 0, result.stderr


def test_claims_whose_replies_are_lost_leave_no_slot_without_a_runner(
    pg_url: str, scale_collection: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The connection drops after the server committed a claim: the worker sees an error and claims
    # again. The first try of each of the run's first six claims loses its reply so; the run still
    # ends, with the count and no slot left running.
    claim, lost = RunLedger.claim, []

    async def claim_and_lose_every_other_reply(self: RunLedger, *args: Any, **kwargs: Any) -> Any:
        slot = await claim(self, *args, **kwargs)
        if slot is not None and len(lost) < 6 and kwargs.get("claim_id") not in lost:
            lost.append(kwargs.get("claim_id"))
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return slot

    monkeypatch.setattr(RunLedger, "claim", claim_and_lose_every_other_reply)
    monkeypatch.setattr("graph.running.outages.OUTAGE_POLL_SECONDS", 0.01)
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT, latency_s=0.01)
    run_id, document, _ = scripted_run(
        model, pg_url, scale_collection, tmp_path, "--count", "6", "--run-id", "lost-claims", "--seed", "3",
        timeout_s=300,
    )  # fmt: skip

    assert len(lost) == 6 and document["funnel"]["accepted"] == 6
    check_run_outputs(tmp_path / run_id, pg_url, run_id, 6)
    with state_connection(pg_url) as conn:
        running = conn.execute(
            "SELECT count(*) FROM triad_samples WHERE run_id = %s AND status = 'running'", (run_id,)
        ).fetchone()
    assert running == (0,)


def test_the_database_stopped_mid_run_and_restarted_the_run_waits_and_goes_on(
    own_server: tuple[dict[str, str], str], scale_collection: str, tmp_path: Path
) -> None:
    home, url = own_server
    run_id, count = "db-restart", 6
    env = {"TRIAD_DATABASE_URL": url, "TRIAD_STATE_URL": url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    process = start_run(
        "--collection", scale_collection, "--count", str(count), "--types", "comparison,intersection",
        "--concurrency", "4", "--llm", SLOW_MODEL, "--dedup-threshold", "0", "--run-id", run_id, env=env,
    )  # fmt: skip
    wait_for(lambda: done_samples(url, run_id) >= 2)
    assert done_samples(url, run_id) < count and process.poll() is None  # stopped in the middle of the run
    server("stop", home)
    time.sleep(3)
    server("start", home)
    out, err = process.communicate(timeout=300)
    # Short outages pass inside the pools' connection wait; longer ones are announced and waited out.
    assert process.returncode == 0, err
    check_run_outputs(tmp_path / "runs" / run_id, url, run_id, count)


def test_a_database_away_too_long_stops_the_run_cleanly_and_resume_finishes_it(
    own_server: tuple[dict[str, str], str], scale_collection: str, tmp_path: Path
) -> None:
    home, url = own_server
    run_id, count = "db-away", 6
    env = {
        "TRIAD_DATABASE_URL": url,
        "TRIAD_STATE_URL": url,  # the run's state goes away with its store
        "TRIAD_RUNS_DIR": str(tmp_path / "runs"),
        "TRIAD_DATABASE_WAIT_SECONDS": "2",
    }
    process = start_run(
        "--collection", scale_collection, "--count", str(count), "--types", "comparison,intersection",
        "--concurrency", "4", "--llm", SLOW_MODEL, "--dedup-threshold", "0", "--run-id", run_id, env=env,
    )  # fmt: skip
    wait_for(lambda: done_samples(url, run_id) >= 2)
    before = done_samples(url, run_id)
    kept = (tmp_path / "runs" / run_id / "dataset.jsonl").read_text()
    server("stop", home)
    out, err = process.communicate(timeout=120)
    result = type("Result", (), {"returncode": process.returncode, "stderr": err})()
    assert "the database is unreachable" in err  # said once, when the outage began
    assert_one_line_error(result, "stayed unreachable for 2 s", f"--resume {run_id}")  # type: ignore[arg-type]
    assert (tmp_path / "runs" / run_id / "dataset.jsonl").read_text().startswith(kept)  # nothing lost

    server("start", home)
    assert done_samples(url, run_id) >= before
    resumed = run_cli("graph.run", "--resume", run_id, "--concurrency", "4", env=env)
    assert resumed.returncode == 0, resumed.stderr
    check_run_outputs(tmp_path / "runs" / run_id, url, run_id, count)


def test_a_full_disk_mid_run_stops_with_one_line_and_resume_finishes_it(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    run_id, count = "disk-full", 6
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path)}
    folder = tmp_path / run_id
    process = start_run(
        "--collection", scale_collection, "--count", str(count), "--types", "comparison,intersection",
        "--concurrency", "2", "--llm", SLOW_MODEL, "--dedup-threshold", "0", "--run-id", run_id, env=env,
    )  # fmt: skip
    wait_for(lambda: done_samples(pg_url, run_id) >= 1)
    # From here on every write to the run's JSONL files fails as on a full disk: /dev/full answers ENOSPC.
    for name in ("dataset.jsonl", "rejected.jsonl"):
        link = folder / f"{name}.full"
        link.symlink_to("/dev/full")
        link.replace(folder / name)
    out, err = process.communicate(timeout=300)
    result = type("Result", (), {"returncode": process.returncode, "stderr": err})()
    assert_one_line_error(result, "No space left on device", f"--resume {run_id}")  # type: ignore[arg-type]
    assert not list(folder.glob(".*.tmp"))  # no half-written copy left behind

    resumed = run_cli("graph.run", "--resume", run_id, "--concurrency", "2", env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert not (folder / "dataset.jsonl").is_symlink()  # rewritten from the state database
    check_run_outputs(folder, pg_url, run_id, count)
