"""A run's next dataset version, true to its store as it is now (`graph.refresh`): the records judged again,
re-pointed, kept or dropped, the cells filled back to their quotas, the version's files written."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
import sys
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.config.cli import tell
from graph.config.settings import Settings
from graph.figures.funnel import funnel
from graph.figures.report import write_report
from graph.folder.check_file import CheckDocument, add_drift_section
from graph.folder.files import RunFolder, write_atomically
from graph.folder.manifest import build_manifest, collection_fingerprint, named
from graph.folder.run_document import RunDocument, VersionEntry, read_run_document
from graph.folder.versions import (
    Change,
    Decided,
    changes,
    dataset_version,
    keep_version,
    version_folder,
    write_version,
)
from graph.living.drift import check_records
from graph.living.refresh import (
    DROP,
    FOLLOW,
    KEEP,
    RE_POINT,
    RecordDecision,
    RecordRefresh,
    decide,
    re_pointed,
    refresh_record,
)
from graph.living.staleness import judge_with, run_sources
from graph.planning.cells import ATTEMPT_FACTOR
from graph.planning.options import RunOptions
from graph.planning.request import Run, stored_settings
from graph.reviewing.samples import load_samples
from graph.reviewing.session import re_key_labels, refresh_report, run_labels
from graph.reviewing.validation_table import summarise
from graph.running.dataset import dataset_records, read_dataset
from graph.running.job import rewrite_run_files, sample_runner, slot_worker
from graph.running.lanes import Budget, CostLimitReached, run_in_lanes
from graph.running.progress import Progress
from graph.running.queries import open_query_book, queries_of_run
from graph.running.run_json import public_settings
from graph.running.runner import build_runner
from graph.services import RunServices, ServicesSpec, StateDatabase, open_services, open_state_database
from state.finished import FinishedSample


@dataclass(frozen=True)
class RefreshRequest:
    """What `graph.refresh` was asked beyond the run id: lanes, revisions, models and store settings given now."""

    concurrency: int = 1
    max_revisions: int | None = None
    """Revisions of a record judged again; None keeps the run's."""
    models: dict[str, str] = field(default_factory=dict)
    """Model specs given now, by role (they win over the run's)."""
    store: dict[str, Any] = field(default_factory=dict)
    """Store settings given now (`STORE_SETTINGS`)."""


class Refreshed(VersionEntry, total=False):
    """What a refresh made: the new version's entry and its check, or that the dataset needed no new version."""

    unchanged: bool
    check: CheckDocument


async def refresh_run(run_id: str, settings: Settings, request: RefreshRequest) -> Refreshed:
    """Refresh run `run_id` to its next dataset version; run.json's version entry."""
    folder = RunFolder(settings.runs_dir / run_id)
    document = read_run_document(folder.folder)
    version = dataset_version(document) + 1
    async with open_state_database(settings, concurrency=request.concurrency) as database:
        stored = await database.ledger.options(run_id)  # a run the state database does not know fails here
        base = read_dataset(keep_version(folder.folder, version - 1))
        options = RunOptions.from_stored(stored)
        if request.max_revisions is not None:
            options = replace(options, max_revisions=request.max_revisions)
        settings = stored_settings(settings, stored, request.models).model_copy(update=request.store)
        run = Run(run_id, options, settings, continuing=True)
        async with open_services(
            ServicesSpec(settings, random_seed=options.random_seed, database=database, warm=True)
        ) as services:
            tell(f"checking {len(base)} records of version {version - 1} against {settings.collection!r}")
            judge = judge_with(services.gateway)
            drift = await check_records(base, services.corpus, run_sources(folder.run_json), judge, settings.collection)
            decisions = [decide(r, d) for r, d in zip(base, drift["records"], strict=True)]
            done, stopped = await judge_stale_records(run, services, decisions, version, request.concurrency)
            if stopped:
                raise cost_limit(run, version)
            if failed := [refreshed for refreshed in done.values() if refreshed.failed]:
                raise Unfinished(failed)
            await apply(database, run_id, done, version)
            stopped = await refill(run, services, drift["summary"]["new_sources"] or [], version, request.concurrency)
            if stopped:
                raise cost_limit(run, version)
            folder, finished, examples = await rewrite_run_files(run, database)
            after = list(dataset_records(folder.dataset))
            if after == base:  # nothing to judge, drop or add: no new version
                return Refreshed(version=version - 1, changes={}, unchanged=True)
            entries = changes(
                [Decided(id=p.record.id, reason=done[p.n].reason if p.n in done else p.reason, chunks=p.chunks,
                         status=p.drift["status"], thread_id=done[p.n].thread_id if p.n in done else None)
                 for p in decisions],
                base, after,
            )  # fmt: skip
            await re_key_labels(settings, run_id, base, after)
            path = write_version(folder.folder, version, entries)
            sources = await services.corpus.reader.sources()
            collection = await collection_fingerprint(services.corpus, sources)
            entry = version_entry(version, entries, path)
            entry["collection"] = named(collection, settings.collection)
            document = document | {"dataset_version": version, "versions": [*document.get("versions", []), entry]}
            document["settings"] = {**document.get("settings", {}), **public_store_settings(settings, request.store)}
            await database.ledger.run(run_id).save_store_settings(public_store_settings(settings, request.store))
            document |= funnel_of(document, finished)
            document["manifest"] = build_manifest(document, after, collection)
            await database.ledger.run(run_id).save_manifest(document["manifest"])
            check = await check_records(after, services.corpus, collection["sources"], judge, settings.collection)
    folder.write_run_json(document)
    reviews = await run_labels(settings, run_id)
    if not (reviews and await refresh_report(settings, run_id, summarise(load_samples(folder.folder), reviews))):
        write_report(folder, document, finished, examples)
    check["run_id"] = run_id
    write_atomically(folder.folder / "check.json", json.dumps(check, indent=1, ensure_ascii=False) + "\n")
    add_drift_section(folder.report, check)
    refreshed = Refreshed(**entry)
    refreshed["check"] = check
    return refreshed


def public_store_settings(settings: Settings, given: dict[str, Any]) -> dict[str, Any]:
    """The store settings given now (`--collection` and the like), as run.json keeps them: the run reads its store
    so from this version on."""
    public = public_settings(settings)
    return {name: public[name] for name in given if name in public}


class Unfinished(Exception):
    """Records a model gave no usable answer for: the version waits for them."""

    def __init__(self, failed: list[RecordRefresh]) -> None:
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


async def judge_stale_records(
    run: Run, services: RunServices, decisions: list[RecordDecision], version: int, concurrency: int
) -> tuple[dict[int, RecordRefresh], bool]:
    """Every record that is judged or relabelled again, in its thread: slot -> what became of it, and whether
    the budget stopped it. Re-pointed records are re-pointed here, without a call."""
    done: dict[int, RecordRefresh] = {}
    for decision in decisions:
        if decision.action == RE_POINT:
            done[decision.n] = RecordRefresh(
                re_pointed(decision.record, decision.drift["moved"], version), decision.reason
            )
        elif decision.action == DROP:
            done[decision.n] = RecordRefresh(None, decision.reason)
    threads = [decision for decision in decisions if decision.action not in (KEEP, RE_POINT, DROP)]
    if not threads:
        return done, False
    followed = sum(decision.action == FOLLOW for decision in decisions)
    if followed:
        tell(f"pointing {followed} record(s) at the chunks that hold their facts now; labelling their contexts again")
    if len(threads) > followed:
        tell(f"judging {len(threads) - followed} record(s) again on the store's new texts")
    runner = build_runner(services, services.seed_pool(), run.options.context(run.run_id, dataset_version=version))

    async def work(decision: RecordDecision) -> RecordRefresh:
        return await refresh_record(runner, decision, services.corpus, version, run.options.max_revisions)

    budget = Budget.of(services.gateway, run.settings.max_cost_usd)
    results, stopped = await run_in_lanes(threads, work, concurrency, budget)
    for decision, refreshed in zip(threads, results, strict=True):
        if refreshed is not None:
            done[decision.n] = refreshed
    return done, stopped


async def apply(database: StateDatabase, run_id: str, done: dict[int, RecordRefresh], version: int) -> None:
    """The refreshed records written back to the run's state; the dropped ones retired."""
    updated = {n: refreshed.record for n, refreshed in done.items() if refreshed.record is not None}
    dropped = [n for n, refreshed in done.items() if refreshed.record is None]
    this = database.ledger.run(run_id)
    await this.update_records(updated)
    await this.retire(dropped, version)
    if dropped:
        tell(f"{len(updated)} record(s) updated, {len(dropped)} dropped")


async def refill(run: Run, services: RunServices, new_sources: list[str], version: int, concurrency: int) -> bool:
    """New samples until every cell is back at its quota, seeded first from `new_sources`; whether the budget
    stopped them."""
    assert services.database is not None
    ledger, options = services.database.ledger.run(run.run_id), run.options
    retired = await ledger.retired_per_cell()
    cells = [
        replace(cell, cap=cell.cap + ATTEMPT_FACTOR * retired.get((cell.question_type, cell.binary), 0))
        for cell in options.cells()
    ]
    finished = await services.database.ledger.finished(run.run_id)
    await ledger.release_dead_local_workers(socket.gethostname())
    await ledger.go_on()  # a run stopped because its models failed goes on once they are fixed
    preferred = await services.corpus.usable.ids_of_sources(new_sources, run.settings.min_chunk_chars)
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


def funnel_of(document: RunDocument, finished: list[FinishedSample]) -> RunDocument:
    """run.json's funnel and shortfall for the samples the new version holds."""
    summary = funnel((row["summary"] for row in finished if row["summary"]), document.get("preflight_calls", []))
    quotas = document.get("quotas", {})
    accepted = {name: summary["cells"].get(name, {}).get("accepted", 0) for name in quotas}
    shortfall = {name: quota - accepted[name] for name, quota in quotas.items() if accepted[name] < quota}
    return {"funnel": summary, "shortfall": shortfall}


def version_entry(version: int, entries: list[Change], path: Path) -> VersionEntry:
    counts = {kind: sum(e["change"] == kind for e in entries) for kind in CHANGE_KINDS}
    return {
        "version": version,
        "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "changes": counts,
        "changes_file": str(path.relative_to(path.parents[2])),
    }


CHANGE_KINDS = ("kept", "updated", "replaced", "dropped", "added")
