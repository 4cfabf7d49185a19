"""Write the next version of a run's dataset, true to its store as it is now.

    python -m graph.refresh RUN_ID                       # runs/RUN_ID/dataset.jsonl is then the new version
    python -m graph.refresh RUN_ID --concurrency 8 --max-cost-usd 2

Records whose chunks are unchanged are kept as they are (their reviewers' labels with them); moved
chunks are re-pointed; a record whose supporting chunks changed is judged again on the new texts and
revised within --max-revisions, or dropped; contexts are extracted again where their texts changed;
records whose supporting chunks are gone are dropped; generated unanswerable questions that the
store may now answer are judged again. Then new samples fill each cell back to its quota, seeded
first from documents added since the run. Each judged record runs in a checkpointed sample thread:
an interrupted refresh continues where it stopped when run again.

Writes dataset.jsonl (the new version), versions/<n>/dataset.jsonl and versions/<n>/changes.jsonl
(every record kept, updated, replaced, dropped or added, with the reason and the chunk ids), a new
manifest in run.json, check.json and report.html. `graph.export RUN_ID --version N` exports an earlier version.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import socket
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.config.cli import (
    add_collection_options,
    add_column_options,
    add_database_options,
    add_state_options,
    command_parser,
    models_from_args,
    run_async,
    settings_from_args,
    tell,
)
from graph.config.errors import UserError, exit_on_user_error, first_line
from graph.config.logs import configure_logging
from graph.config.settings import Settings
from graph.evaluation.session import STORE_SETTINGS, as_the_run_read_it, run_settings
from graph.living.drift import add_drift_section, check_records, drift_lines
from graph.living.manifest import build_manifest, collection_fingerprint
from graph.living.refresh import (
    DROP,
    KEEP,
    RE_POINT,
    Outcome,
    RecordPlan,
    plan_record,
    re_pointed,
    refresh_record,
)
from graph.living.staleness import run_sources
from graph.living.versions import (
    changes,
    dataset_version,
    keep_version,
    read_run_json,
    version_folder,
    write_version,
)
from graph.reviewing.samples import load_samples
from graph.reviewing.session import refresh_report, run_labels
from graph.reviewing.summary import summarise
from graph.runs.dataset import read_dataset
from graph.runs.files import RunFolder, dataset_lines, write_atomically
from graph.runs.funnel import funnel
from graph.runs.job import Run, rewrite_run_files, sample_runner, slot_worker
from graph.runs.lanes import Budget, CostLimitReached, run_in_lanes
from graph.runs.options import ATTEMPT_FACTOR, RunOptions, stored_settings
from graph.runs.outages import DATABASE_ERRORS
from graph.runs.progress import Progress
from graph.runs.queries import open_query_book, queries_of_run
from graph.runs.report import write_report
from graph.runs.runner import build_runner
from graph.runs.services import RunServices, StateDatabase, open_services, open_state


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.refresh", __doc__)
    parser.add_argument("run_id", help="the run to refresh (its folder under --runs-dir)")
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs; TRIAD_RUNS_DIR)")
    parser.add_argument("--concurrency", type=int, default=1, help="samples in flight at once (default 1)")
    parser.add_argument("--max-revisions", type=int, help="revisions of a record judged again (default: the run's)")
    models = parser.add_argument_group("models (default: the run's)")
    models.add_argument("--llm", help="one model spec for all roles")
    for role in ("generator", "validator", "extractor"):
        models.add_argument(f"--{role}-model", help=f"{role} spec")
    models.add_argument("--requests-per-minute", type=float, help="requests per minute to each model (its quota)")
    models.add_argument("--tokens-per-minute", type=float, help="prompt tokens per minute to each model (its quota)")
    models.add_argument("--max-concurrent-requests", type=int, help="provider requests in flight (default 16)")
    models.add_argument("--max-cost-usd", type=float, help="stop starting samples once this much is spent")
    add_collection_options(parser)
    add_column_options(parser)
    add_database_options(parser)
    add_state_options(parser)
    return parser


async def refresh_run(run_id: str, settings: Settings, args: argparse.Namespace) -> dict[str, Any]:
    """Refresh run `run_id` to its next dataset version; run.json's version entry."""
    folder = RunFolder(settings.runs_dir / run_id)
    document = read_run_json(folder.folder)
    version = dataset_version(document) + 1
    async with open_state(settings, concurrency=args.concurrency) as state:
        stored = await state.ledger.options(run_id)  # a run the state database does not know fails here
        base = read_dataset(keep_version(folder.folder, version - 1))
        options = RunOptions.from_stored(stored)
        if args.max_revisions is not None:
            options = replace(options, max_revisions=args.max_revisions)
        given = {name: getattr(args, name) for name in STORE_SETTINGS if getattr(args, name, None) is not None}
        settings = stored_settings(settings, stored, models_from_args(args)).model_copy(update=given)
        run = Run(run_id, options, settings, continuing=True)
        async with open_services(settings, seed=options.seed, state=state, warm=True) as services:
            tell(f"checking {len(base)} records of version {version - 1} against {settings.collection!r}")
            drift = await check_records(base, services.corpus, run_sources(folder.run_json))
            plans = [plan_record(r, d) for r, d in zip(base, drift["records"], strict=True)]
            done, stopped = await judge_again(run, services, plans, version, args.concurrency)
            if stopped:
                raise cost_limit(run, version)
            if failed := [outcome for outcome in done.values() if outcome.failed]:
                raise Unfinished(failed)
            await apply(state, run_id, done, version)
            stopped = await refill(run, services, drift["summary"]["new_sources"] or [], version, args.concurrency)
            if stopped:
                raise cost_limit(run, version)
            folder, finished, examples = await rewrite_run_files(run, state)
            after = list(dataset_lines(folder.dataset))
            if after == base:  # nothing to judge, drop or add: no new version
                return {"version": version - 1, "changes": {}, "unchanged": True}
            entries = changes(
                [{"id": p.record["id"], "reason": done[p.n].reason if p.n in done else p.reason, "chunks": p.chunks,
                  "thread_id": done[p.n].thread_id if p.n in done else None} for p in plans],
                base, after,
            )  # fmt: skip
            path = write_version(folder.folder, version, entries)
            sources = await services.corpus.sources()
            collection = await collection_fingerprint(services.corpus, sources)
            entry = version_entry(version, entries, path)
            document = {**document, "dataset_version": version, "versions": [*document.get("versions", []), entry]}
            document |= funnel_of(document, finished)
            document["manifest"] = build_manifest(document, after, collection)
            await state.ledger.save_manifest(run_id, document["manifest"])
            check = await check_records(after, services.corpus, collection["sources"])
    folder.write_run_json(document)
    reviews = await run_labels(settings, run_id)
    if not (reviews and await refresh_report(settings, run_id, summarise(load_samples(folder.folder), reviews))):
        write_report(folder, document, finished, examples)
    check["run_id"] = run_id
    write_atomically(folder.folder / "check.json", json.dumps(check, indent=1, ensure_ascii=False) + "\n")
    add_drift_section(folder.report, check)
    return entry | {"check": check}


class Unfinished(Exception):
    """Records a model gave no usable answer for: the version waits for them."""

    def __init__(self, failed: list[Outcome]) -> None:
        first = failed[0]
        super().__init__(
            f"{len(failed)} record(s) could not be judged again (the model gave no usable answer; first: "
            f"{first.thread_id}: {first.reason}); nothing was dropped or added: run graph.refresh again"
        )


def cost_limit(run: Run, version: int) -> CostLimitReached:
    return CostLimitReached(
        run.settings.max_cost_usd,
        "finished records are kept",
        "run graph.refresh again",
        unfinished=f"before version {version} was complete",
    )


async def judge_again(
    run: Run, services: RunServices, plans: list[RecordPlan], version: int, concurrency: int
) -> tuple[dict[int, Outcome], bool]:
    """Every record that is judged or relabelled again, in its thread: slot -> what became of it, and whether
    the budget stopped it. Re-pointed records are re-pointed here, without a call."""
    done: dict[int, Outcome] = {}
    for plan in plans:
        if plan.action == RE_POINT:
            done[plan.n] = Outcome(re_pointed(plan.record, plan.drift["moved"], version), plan.reason)
        elif plan.action == DROP:
            done[plan.n] = Outcome(None, plan.reason)
    threads = [plan for plan in plans if plan.action not in (KEEP, RE_POINT, DROP)]
    if not threads:
        return done, False
    tell(f"judging {len(threads)} record(s) again on the store's new texts")
    runner = build_runner(
        services, services.seed_pool(), run_id=run.run_id, dataset_version=version, **run.options.context_overrides()
    )

    async def work(plan: RecordPlan) -> Outcome:
        return await refresh_record(runner, plan, services.corpus, version, run.options.max_revisions)

    budget = Budget.of(services.gateway, run.settings.max_cost_usd)
    results, stopped = await run_in_lanes(threads, work, concurrency, budget)
    for plan, outcome in zip(threads, results, strict=True):
        if outcome is not None:
            done[plan.n] = outcome
    return done, stopped


async def apply(state: StateDatabase, run_id: str, done: dict[int, Outcome], version: int) -> None:
    """The refreshed records written back to the run's state; the dropped ones retired."""
    updated = {n: outcome.record for n, outcome in done.items() if outcome.record is not None}
    dropped = [n for n, outcome in done.items() if outcome.record is None]
    await state.ledger.update_records(run_id, updated)
    await state.ledger.retire(run_id, dropped, version)
    if dropped:
        tell(f"{len(updated)} record(s) updated, {len(dropped)} dropped")


async def refill(run: Run, services: RunServices, new_sources: list[str], version: int, concurrency: int) -> bool:
    """New samples until every cell is back at its quota, seeded first from `new_sources`; whether the budget
    stopped them."""
    assert services.state is not None
    ledger, options = services.state.ledger, run.options
    retired = await ledger.retired_per_cell(run.run_id)
    cells = [
        replace(cell, cap=cell.cap + ATTEMPT_FACTOR * retired.get((cell.question_type, cell.binary), 0))
        for cell in options.cells()
    ]
    finished = await ledger.finished(run.run_id)
    await ledger.release_dead_local_workers(run.run_id, socket.gethostname())
    preferred = await services.corpus.ids_of_sources(new_sources, run.settings.min_chunk_chars)
    book = None
    if options.queries is not None:
        queries = queries_of_run(run.run_id, options.queries, options.queries_digest, None)
        book = await open_query_book(services, queries, options, tell)
    embeddings = services.embeddings if options.dedup_threshold > 0 else None
    runner = await sample_runner(
        run, services, finished, embeddings, book, preferred=preferred, dataset_version=version
    )
    # The new samples' lines go to a scratch folder: dataset.jsonl stays the earlier version until the new one is whole.
    scratch = RunFolder(version_folder(run.settings.runs_dir / run.run_id, version) / ".refill")
    with Progress(cells, finished, services.gateway, live=sys.stderr.isatty()) as progress:
        worker = slot_worker(run, services, runner, scratch, cells, concurrency, on_done=progress.sample_done)
        result = await worker.run()
    shutil.rmtree(scratch.folder, ignore_errors=True)
    with contextlib.suppress(OSError):  # the version's folder, while nothing else is in it
        scratch.folder.parent.rmdir()
    return result.stopped_by_cost


def funnel_of(document: dict[str, Any], finished: list[dict[str, Any]]) -> dict[str, Any]:
    """run.json's funnel and shortfall for the samples the new version holds."""
    summary = funnel(row["summary"] for row in finished if row["summary"])
    quotas = document.get("quotas", {})
    accepted = {name: summary["cells"].get(name, {}).get("accepted", 0) for name in quotas}
    shortfall = {name: quota - accepted[name] for name, quota in quotas.items() if accepted[name] < quota}
    return {"funnel": summary, "shortfall": shortfall}


def version_entry(version: int, entries: list[dict[str, Any]], path: Path) -> dict[str, Any]:
    counts = {kind: sum(e["change"] == kind for e in entries) for kind in CHANGE_KINDS}
    return {
        "version": version,
        "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "changes": counts,
        "changes_file": str(path.relative_to(path.parents[2])),
    }


CHANGE_KINDS = ("kept", "updated", "replaced", "dropped", "added")


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    if args.concurrency < 1:
        raise UserError("--concurrency must be at least 1")
    settings = settings_from_args(args)
    folder = settings.runs_dir / args.run_id
    if not (folder / "dataset.jsonl").is_file():
        raise UserError(f"no run {args.run_id!r} in {settings.runs_dir}; check the run id and --runs-dir")
    settings = as_the_run_read_it(settings, run_settings(folder / "run.json"), args)
    try:
        entry = run_async(refresh_run(args.run_id, settings, args))
    except (CostLimitReached, Unfinished) as stopped:
        print(stopped, file=sys.stderr)
        raise SystemExit(1) from None
    except DATABASE_ERRORS as error:
        raise UserError(
            f"lost the database ({first_line(error)}); finished records are kept: start it, then run graph.refresh "
            f"{args.run_id} again"
        ) from None
    if entry.get("unchanged"):
        print(f"version {entry['version']} is true to the store: every record is fresh and every cell full")
        return
    counts = ", ".join(f"{n} {kind}" for kind, n in entry["changes"].items())
    print(f"version {entry['version']}: {counts}")
    for line in drift_lines(entry["check"]):
        print(line)
    print(f"wrote {folder / 'dataset.jsonl'} and {folder / entry['changes_file']}")


if __name__ == "__main__":
    main()
