"""A run an earlier version of triad made, and was killed in, kept as test data: its files and its rows of the
state database (runs, samples, seeds, questions, checkpoints). Today's commands resume it, replay a rejected
sample, check, refresh, evaluate and export it.

The data in tests/data/old_run was written by `python -m graph.run --demo --count 4 --types
comparison,composition --llm import:graph.testing.plausible:plausible_model_200ms --validator-model
import:tests.cli.test_calibrate:binary_rejecting --max-revisions 0 --dedup-threshold 0 --seed 2
--concurrency 2 --run-id old-run`, killed once three samples were done (two more were running); the rows are
`json_agg` of each table's rows of the run.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import shutil
from pathlib import Path

from psycopg.types.json import Jsonb

from graph.config.settings import resolve_settings
from graph.services import open_state_database
from tests.support.commands import PLAUSIBLE_MODEL, run_cli, state_connection

DATA = Path(__file__).resolve().parents[1] / "data" / "old_run"
RUN = "old-run"
REJECTING = "import:tests.cli.test_calibrate:binary_rejecting"


def restore_old_run(url: str, runs: Path, data: Path = DATA, run_ids: tuple[str, ...] = (RUN,)) -> None:
    """The old run's files in `runs`, its rows in the state database at `url` (its tables made first)."""

    async def tables() -> None:
        async with open_state_database(resolve_settings({"state_url": url, "database_url": url}, env={})):
            pass

    asyncio.run(tables())
    rows = json.loads(gzip.decompress((data / "state.json.gz").read_bytes()))
    with state_connection(url) as conn:
        for table, items in rows.items():
            if not items:
                continue
            columns = ", ".join(items[0])  # only the columns the old version wrote: newer ones take their defaults
            conn.execute(
                f"INSERT INTO {table} ({columns}) SELECT {columns} FROM jsonb_populate_recordset(NULL::{table}, %s)",
                (Jsonb(items),),
            )
    for run_id in run_ids:
        folder = data if run_ids == (RUN,) else data / run_id
        (runs / run_id).mkdir(parents=True)
        for name in ("dataset.jsonl", "rejected.jsonl", "run.json"):
            if (folder / name).is_file():
                shutil.copy(folder / name, runs / run_id / name)


def test_a_run_of_an_earlier_version_resumes_replays_checks_refreshes_evaluates_and_exports(
    pg_url: str, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    restore_old_run(pg_url, runs)
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs)}
    old_record = json.loads((DATA / "dataset.jsonl").read_text().splitlines()[0])

    resumed = run_cli("graph.run", "--resume", RUN, "--llm", PLAUSIBLE_MODEL, "--validator-model", REJECTING, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert f"continuing run {RUN}" in resumed.stderr
    document = json.loads((runs / RUN / "run.json").read_text())
    assert document["funnel"]["accepted"] == 2  # the open cells; the rejecting judge keeps the yes/no cells short
    dataset = [json.loads(line) for line in (runs / RUN / "dataset.jsonl").read_text().splitlines()]
    assert old_record in dataset and len(dataset) == 2  # the earlier version's record, as it wrote it

    listing = run_cli("graph.replay", RUN, "--list", env=env)
    assert listing.returncode == 0, listing.stderr
    rejected = json.loads((runs / RUN / "rejected.jsonl").read_text().splitlines()[0])
    n = int(rejected["id"].rpartition("/")[2])
    replay = run_cli("graph.replay", RUN, "--sample", str(n), "--llm", PLAUSIBLE_MODEL, env=env)
    assert replay.returncode == 0, replay.stderr
    assert f"sample {n}: rejected -> accepted" in replay.stdout

    check = run_cli("graph.check", RUN, env=env)
    assert check.returncode == 0, check.stderr
    refreshed = run_cli("graph.refresh", RUN, "--llm", PLAUSIBLE_MODEL, env=env)
    assert refreshed.returncode == 0, refreshed.stderr

    evaluated = run_cli(
        "graph.evaluate", RUN, "--setup", f"k3=k=3,model={PLAUSIBLE_MODEL}", "--llm", PLAUSIBLE_MODEL, env=env
    )
    assert evaluated.returncode == 0, evaluated.stderr
    assert "k3" in evaluated.stdout
    exported = run_cli("graph.export", RUN, "--format", "ragas", env=env)
    assert exported.returncode == 0, exported.stderr
    rows = [json.loads(line) for line in (runs / RUN / "export" / "ragas.jsonl").read_text().splitlines()]
    assert len(rows) == 3 and all(row["user_input"] and row["reference_contexts"] for row in rows)


#: Two runs made by the code before the run's modules were split by idea (`tests/data/run_before_split`): one
#: finished (with its run.json), one killed with two samples done and two threads unfinished. Made by
#: `python -m graph.run --demo --count 4 --types comparison,composition --llm
#: import:graph.testing.plausible:plausible_model_200ms --max-revisions 0 --dedup-threshold 0 --concurrency 2`
#: with `--seed 2 --run-id pre-split`, then `--seed 3 --run-id pre-split-killed` killed (SIGKILL) once two
#: samples had ended; the rows are `json_agg` of each state table's rows of the two runs.
BEFORE_SPLIT = DATA.parent / "run_before_split"


def test_runs_made_before_the_split_resume_replay_review_and_evaluate(pg_url: str, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    restore_old_run(pg_url, runs, BEFORE_SPLIT, ("pre-split", "pre-split-killed"))
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(runs)}
    killed = runs / "pre-split-killed" / "dataset.jsonl"
    written = killed.read_text().splitlines()

    # The killed run's unfinished threads continue from their checkpoints; its records stay as they were written.
    resumed = run_cli("graph.run", "--resume", "pre-split-killed", "--llm", PLAUSIBLE_MODEL, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert "continuing run pre-split-killed" in resumed.stderr
    now = killed.read_text().splitlines()
    assert [json.loads(line) for line in now[: len(written)]] == [json.loads(line) for line in written], (now, written)
    assert len(now) > len(written)
    assert json.loads((runs / "pre-split-killed" / "run.json").read_text())["funnel"]["accepted"] == len(now)

    # The finished run's rejected sample replays from its checkpoints.
    rejected = json.loads((runs / "pre-split" / "rejected.jsonl").read_text().splitlines()[0])
    n = int(rejected["id"].rpartition("/")[2])
    replay = run_cli("graph.replay", "pre-split", "--sample", str(n), "--llm", PLAUSIBLE_MODEL, env=env)
    assert replay.returncode == 0, replay.stderr
    assert f"sample {n}: rejected -> " in replay.stdout

    # Reviewed: its samples open, labels are kept, and the reviewers' table is made from them.
    from graph.reviewing.samples import load_samples

    samples = load_samples(runs / "pre-split")
    assert len(samples) == 5  # four accepted, one rejected (replayed since)
    summary = run_cli("graph.review", "pre-split", "--summary", env=env)
    assert summary.returncode == 0, summary.stderr

    # Evaluated as the run read its store, from its run.json.
    evaluated = run_cli("graph.evaluate", "pre-split", "--setup", "k3=k=3", "--retrieval-only", env=env)
    assert evaluated.returncode == 0, evaluated.stderr
    assert "k3: evaluating 4 samples" in evaluated.stdout
