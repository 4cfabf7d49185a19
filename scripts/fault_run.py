"""Crash a real run again and again, then check that nothing was lost or duplicated.

    python scripts/fault_run.py                          # 20 SIGKILLs of a 60-sample demo run
    python scripts/fault_run.py --kills 5 --provider-faults 0.3

Starts `python -m graph.run` (scripted model with a fixed latency per call, the demo corpus in the
embedded database, loaded on first use), kills it with SIGKILL at a random moment, and starts the
same command again, `--kills` times; then lets the last start finish. Checks at the end:

* exactly the requested number of accepted samples, in dataset.jsonl and in the state database;
* no duplicate record ids and no duplicate questions;
* every dataset.jsonl and rejected.jsonl line is valid JSON (and every dataset line a valid record);
* every accepted record of dataset.jsonl is also in the state database, and the other way round.

It reports the model calls the crashes wasted: calls sent to the model by every process, minus the
calls the finished samples account for (answered by the model, or by the response cache when a
sample repeated a step after a crash: that answer was paid for once, by the killed process).
`--provider-faults R` also injects provider faults into a share R of the calls. Exits 1 when a
check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import psycopg

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from graph.store.database import in_schema  # noqa: E402
from nodes.common import normalise_question  # noqa: E402
from state.record import DatasetRecord  # noqa: E402
from tests.support.commands import STATE_SCHEMA  # noqa: E402

#: The model of every started process: the plausible script, counting the calls it is sent.
MODEL_MODULE = """
import os

from graph.llm.offline.scripted import Faults, ScriptedChatModel

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT


class CountingModel(ScriptedChatModel):
    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs):
        descriptor = os.open({calls!r}, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        try:
            os.write(descriptor, b"call\\n")
        finally:
            os.close(descriptor)
        return await super()._agenerate(messages, stop=stop, run_manager=run_manager, **kwargs)


def model():
    faults = Faults(rate={fault_rate!r}, hang_s=3600.0) if {fault_rate!r} else None
    return CountingModel(script=PLAUSIBLE_SCRIPT, latency_s={latency!r}, faults=faults)
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python scripts/fault_run.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=20, help="SIGKILLs before the run may finish (default 20)")
    parser.add_argument("--count", type=int, default=60, help="accepted samples wanted (default 60)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=100.0, help="model latency per call (default 100)")
    parser.add_argument(
        "--kill-after",
        type=float,
        nargs=2,
        default=(2.0, 9.0),
        metavar=("MIN", "MAX"),
        help="a process is killed this many seconds after it starts, drawn uniformly (default 2 9)",
    )
    parser.add_argument("--provider-faults", type=float, default=0.0, help="share of calls given a provider fault")
    parser.add_argument("--seed", type=int, default=1, help="seeds the kill moments and the run")
    parser.add_argument("--types", help="question types of the run, comma-separated (default: all three)")
    parser.add_argument("--collection", help="collection to use instead of the demo corpus")
    parser.add_argument("--database-url", help="server of the collection and the run (default: the embedded one)")
    parser.add_argument(
        "--work-dir", type=Path, help="folder for the run folder and the call log (default: a temp dir)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    return parser.parse_args(argv)


def run_command(args: argparse.Namespace, run_id: str) -> list[str]:
    source = ["--collection", args.collection] if args.collection else ["--demo"]
    if args.types:
        source += ["--types", args.types]
    return [
        sys.executable, "-m", "graph.run", *source,
        "--count", str(args.count), "--concurrency", str(args.concurrency),
        "--llm", "import:fault_models:model", "--seed", str(args.seed),
        "--dedup-threshold", "0", "--run-id", run_id,
    ]  # fmt: skip


def state_rows(url: str, run_id: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(in_schema(url, STATE_SCHEMA)) as conn:
        if conn.execute("SELECT to_regclass('triad_samples')").fetchone()[0] is None:  # type: ignore[index]
            return []
        return conn.execute(
            "SELECT n, status, outcome, record, summary FROM triad_samples WHERE run_id = %s ORDER BY n", (run_id,)
        ).fetchall()


def database_url(args: argparse.Namespace, env: dict[str, str]) -> str:
    if args.database_url:
        return str(args.database_url)
    started = subprocess.run(
        [sys.executable, "-m", "graph.db", "start"], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    return started.stdout.strip()


def check(folder: Path, url: str, run_id: str, count: int) -> dict[str, Any]:
    """The end-of-run checks: a dict of named booleans and the numbers behind them."""
    invalid_json = 0
    records = []
    for line in (folder / "dataset.jsonl").read_text().splitlines():
        try:
            json.loads(line)
            records.append(DatasetRecord.model_validate_json(line))
        except ValueError:
            invalid_json += 1
    rejected_lines = (
        (folder / "rejected.jsonl").read_text().splitlines() if (folder / "rejected.jsonl").exists() else []
    )
    for line in rejected_lines:
        try:
            json.loads(line)
        except ValueError:
            invalid_json += 1
    rows = state_rows(url, run_id)
    in_database = {row[3]["id"] for row in rows if row[2] == "accepted"}
    in_file = [record.id for record in records]
    questions = [normalise_question(record.question) for record in records]
    return {
        "accepted_in_dataset": len(records),
        "accepted_in_database": len(in_database),
        "rejected_lines": len(rejected_lines),
        "checks": {
            "exact_count": len(records) == count and len(in_database) == count,
            "no_duplicate_ids": len(set(in_file)) == len(in_file),
            "no_duplicate_questions": len(set(questions)) == len(questions),
            "every_line_valid_json": invalid_json == 0,
            "dataset_matches_database": set(in_file) == in_database,
            "no_slot_left_running": all(row[1] == "done" for row in rows),
        },
    }


def accounted_calls(url: str, run_id: str) -> tuple[int, int]:
    """(calls of finished samples answered by the model, calls answered from the cache)."""
    provider = cached = 0
    for row in state_rows(url, run_id):
        for call in (row[4] or {}).get("llm_calls", []):
            if call["source"] == "provider":
                provider += max(1, call["attempts"])
            elif call["source"] == "cache":
                cached += 1
    return provider, cached


def main(argv: list[str] | None = None) -> int:
    """Kill and restart the run, let it finish, check it, print the figures; 1 when a check failed."""
    args = parse_args(argv)
    rng = random.Random(args.seed)
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="triad-faults-"))
    work.mkdir(parents=True, exist_ok=True)
    calls_log = work / "calls.log"
    (work / "fault_models.py").write_text(
        textwrap.dedent(
            MODEL_MODULE.format(calls=str(calls_log), latency=args.latency_ms / 1000, fault_rate=args.provider_faults)
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRIAD_")}
    env.update(
        {
            "PYTHONPATH": os.pathsep.join([str(work), str(REPO), env.get("PYTHONPATH", "")]),
            "TRIAD_RUNS_DIR": str(work / "runs"),
            "TRIAD_REQUEST_TIMEOUT_SECONDS": "2",
            "TRIAD_LEASE_SECONDS": "10",
        }
    )
    url = database_url(args, env)
    env["TRIAD_DATABASE_URL"] = env["TRIAD_STATE_URL"] = url  # the run's state on the collection's server
    run_id = f"faults-{time.strftime('%Y%m%d-%H%M%S')}-{args.seed}"
    command = run_command(args, run_id)
    print(f"run {run_id}: {args.count} samples, {args.kills} kills, work folder {work}", flush=True)

    kills: list[dict[str, Any]] = []
    started = time.monotonic()
    while len(kills) < args.kills:
        process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        delay = rng.uniform(*args.kill_after)
        try:
            process.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGKILL)
            process.wait()
            done = sum(1 for row in state_rows(url, run_id) if row[1] == "done")
            kills.append({"after_s": round(delay, 2), "samples_done": done})
            print(f"kill {len(kills):>2} after {delay:4.1f} s: {done} samples done", flush=True)
            continue
        stderr = process.stderr.read().decode() if process.stderr else ""
        if process.returncode != 0:
            print(f"a start failed (exit {process.returncode}):\n{stderr}", file=sys.stderr)
            return 1
        print(f"the run finished after {len(kills)} kills; raise --count for more", flush=True)
        break
    final = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
    if final.returncode != 0:
        print(f"the last start failed (exit {final.returncode}):\n{final.stderr}", file=sys.stderr)
        return 1
    seconds = time.monotonic() - started

    figures = check(work / "runs" / run_id, url, run_id, args.count)
    made = len(calls_log.read_text().splitlines()) if calls_log.exists() else 0
    provider, cached = accounted_calls(url, run_id)
    figures.update(
        {
            "run_id": run_id,
            "kills": len(kills),
            "kill_moments": kills,
            "seconds": round(seconds, 1),
            "calls_sent": made,
            "calls_used_by_finished_samples": provider + cached,
            "of_which_from_cache_after_a_crash": cached,
            "calls_wasted_by_crashes": made - provider - cached,
            "wasted_share": round((made - provider - cached) / made, 4) if made else 0.0,
            "provider_faults": args.provider_faults,
        }
    )
    print()
    print(f"kills                      {len(kills)}")
    print(f"accepted (dataset / db)    {figures['accepted_in_dataset']} / {figures['accepted_in_database']}")
    print(f"model calls sent           {made}")
    print(f"  used by finished samples {provider + cached} ({cached} served from the cache after a crash)")
    print(f"  wasted by the crashes    {made - provider - cached} ({figures['wasted_share']:.1%} of calls sent)")
    print(f"wall time                  {seconds:.0f} s")
    for name, passed in figures["checks"].items():
        print(f"{'ok  ' if passed else 'FAIL'} {name}")
    shortfall = json.loads((work / "runs" / run_id / "run.json").read_text())["shortfall"]
    if shortfall:
        print(f"the run reports a shortfall from its attempt caps: {shortfall}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if all(figures["checks"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
