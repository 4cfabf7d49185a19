"""A run from start to end: begin or continue it, work on its quotas, then write its files.

`run_job` is what `python -m graph.run` does once its flags are read: the run's state lives in the
state database, its files in `<runs_dir>/<run_id>/`, rebuilt from that state at the end (and on
resume), so a crash loses at most the samples in flight.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.config.cli import tell
from graph.config.errors import RunCannotWork, UserError, first_line
from graph.config.settings import Settings
from graph.figures.coverage import document_coverage, query_coverage
from graph.figures.funnel import funnel
from graph.figures.report import REPORT_EXAMPLES, write_report
from graph.folder.files import RunFolder, make_folder
from graph.folder.manifest import build_manifest, collection_fingerprint
from graph.folder.run_document import Coverage, Fingerprint, RunDocument, read_run_document
from graph.ledger.questions import RunQuestions
from graph.ledger.run_models import check_models_answer, share_model_modes
from graph.ledger.slots import CellQuota, Slot
from graph.llm.errors import ProviderUnavailable
from graph.llm.gateway import LLMGateway
from graph.planning.languages import language_notes, survey_languages
from graph.planning.options import RunOptions
from graph.planning.personas import derive_personas
from graph.planning.request import Run, RunRequest, stored_settings, with_columns
from graph.running.dataset import dataset_records
from graph.running.outages import Outages
from graph.running.progress import Progress
from graph.running.queries import Query, QueryBook, embedded_queries, open_query_book, queries_of_run
from graph.running.run_json import print_run_summary, run_document
from graph.running.runner import SampleResult, SampleRunner, build_runner
from graph.running.worker import SlotWorker, WorkerAssignment, WorkResult
from graph.seeding.seeds import SEED_BATCH, with_procedural_seeds
from graph.seeding.weights import coverage_by_weight, document_weights, seed_weights
from graph.services import RunServices, ServicesSpec, StateDatabase, open_services, open_state_database
from state.finished import FinishedSample
from state.personas import persona_quotas
from state.record import DatasetRecord
from state.threads import ThreadId


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(2)


async def begin(request: RunRequest, settings: Settings, database: StateDatabase) -> Run:
    """The run named by the request: a continued run's options come from the state database."""
    run_id = request.resume or request.run_id or new_run_id()
    continuing = bool(request.resume) or (bool(request.run_id) and await database.ledger.exists(run_id))
    if not continuing:
        return Run(run_id, request.options, with_columns(settings), continuing=False)
    stored = await database.ledger.options(run_id)
    tell(f"continuing run {run_id}")
    await database.ledger.run(run_id).go_on()  # a run stopped because its models failed goes on once they are fixed
    return Run(run_id, RunOptions.from_stored(stored), stored_settings(settings, stored, request.models_given), True)


async def run_job(
    request: RunRequest, settings: Settings, gateway: LLMGateway | None = None
) -> tuple[str, RunDocument]:
    """Create or continue a run, work on it, rebuild its files, write run.json and the report."""
    started = time.monotonic()
    async with open_state_database(settings, concurrency=request.concurrency) as database:
        make_folder(settings.runs_dir)  # a runs folder that cannot be made fails before the run exists
        run = await begin(request, settings, database)
        queries = run_queries(run, request)  # a missing or changed query file fails before any work
        async with open_services(
            ServicesSpec(
                run.settings,
                recording_path=request.record_llm,
                random_seed=run.options.random_seed,
                gateway=gateway,
                database=database,
                warm=True,
            )
        ) as services:
            await share_model_modes(services.gateway, database.ledger.run(run.run_id))
            preflight_calls = await check_models_answer(services.gateway)
            book = await open_query_book(services, queries, run.options, tell) if queries else None
            if run.options.personas_auto and not run.options.personas:
                derived = await derive_personas(
                    services.corpus, services.gateway, random_seed=run.options.random_seed or 0
                )
                run = replace(run, options=replace(run.options, personas=derived))
            try:
                work = await work_on(run, request, services, book)
            except (ProviderUnavailable, RunCannotWork) as error:  # a refused key, a server gone: no sample can work
                await rewrite_run_files(run, database)  # without the samples released for a resume to run again
                if isinstance(error, RunCannotWork):
                    raise
                raise RunCannotWork(f"{error}; continue the run after the fix with --resume {run.run_id}") from None
            folder, finished, examples = await rewrite_run_files(run, database)
            # The samples are kept whatever happens here: a failure costs only the coverage and the fingerprint.
            coverage: Coverage | None = None
            collection = Fingerprint()
            try:
                sources = await services.corpus.reader.sources()
                collection = await collection_fingerprint(services.corpus, sources)
                coverage = await run_coverage(run, services, finished, book, sources)
            except Exception as error:
                tell(f"note: coverage not measured ({first_line(error)})")
        earlier = read_run_document(folder.folder)
        # The preflight calls of every start of the run (each start checks its models), counted with the samples'.
        preflights = [*earlier.get("preflight_calls", []), *preflight_calls]
        summary = funnel((row["summary"] for row in finished if row["summary"]), preflights)
        document = run_document(run, run.options.cells(), summary, started, work.stopped_by_cost)
        document["preflight_calls"] = preflights
        modes = await database.ledger.run(run.run_id).model_modes()
        document["structured_output"] = modes | services.gateway.modes.in_use(services.gateway.roles.values())
        document["languages"] = work.languages
        if "dataset_version" in earlier:  # a refreshed run's versions
            document["dataset_version"] = earlier["dataset_version"]
        if "versions" in earlier:
            document["versions"] = earlier["versions"]
        document["coverage"] = coverage
        try:  # the run's files are written whatever happens to its manifest
            document["manifest"] = build_manifest(document, dataset_records(folder.dataset), collection)
            await database.ledger.run(run.run_id).save_manifest(document["manifest"])
        except Exception as error:
            tell(f"note: the run's manifest was not kept in the state database ({first_line(error)})")
    folder.write_run_json(document)
    write_report(folder, document, finished, examples)
    print_run_summary(run, request, folder, document, summary, work)
    return run.run_id, document


def run_queries(run: Run, request: RunRequest) -> list[Query] | None:
    """The run's real queries (`--queries`); a continued run's file must hold what it held when the run began."""
    options = run.options
    if options.queries is None:
        if run.continuing and request.queries_given:
            raise UserError(f"run {run.run_id} was not seeded from queries; --queries applies to new runs")
        return None
    return queries_of_run(run.run_id, options.queries, options.queries_digest, request.queries_given)


async def run_coverage(
    run: Run,
    services: RunServices,
    finished: list[FinishedSample],
    book: QueryBook | None,
    sources: dict[str | None, int],
) -> Coverage:
    """run.json's coverage: documents that supplied a supporting chunk; with queries, clusters near a question."""
    briefs = [brief for row in finished if (brief := row["brief"]) is not None]
    used = {source for brief in briefs for source in brief["sources"] or [] if isinstance(source, str)}
    coverage = Coverage(documents=document_coverage(sources, used))
    options = run.options
    if options.weighted:
        _, weighted = await document_weights(
            services.corpus, options.weight_by, options.weights, run.settings.min_chunk_chars
        )
        coverage["by_weight"] = coverage_by_weight(weighted, used)
    if book is not None:
        model = services.embeddings

        async def embedded(answerable: bool) -> np.ndarray:
            questions = [b["question"] for b in briefs if b["answerable"] == answerable]
            vectors = await asyncio.to_thread(embedded_queries, model, questions)
            return np.asarray(vectors, dtype=np.float32).reshape(len(questions), -1)

        names = [book.shown(index) for index in range(len(book.queries))]
        coverage["queries"] = query_coverage(
            book.vectors, await embedded(True), await embedded(False), names, run.options.random_seed or 0
        )
    return coverage


async def work_on(run: Run, request: RunRequest, services: RunServices, book: QueryBook | None = None) -> WorkResult:
    """Check the collection has room, register a new run, then run its slots until the quotas are met."""
    assert services.database is not None
    ledger, settings = services.database.ledger.run(run.run_id), run.settings
    left_out = await services.corpus.reader.check_room(run.options.hops, settings.min_chunk_chars)
    # A model of another dimension than the collection's fails here, before the run is begun.
    await services.corpus.reader.check_embedding(services.embeddings)
    embeddings = services.embeddings if run.options.dedup_threshold > 0 else None
    if not run.continuing:  # begun only once its collection and models are known to work
        await ledger.create(run.options.stored(settings))
        await ledger.save_model_modes(services.gateway.modes)  # learned before the run was begun
        tell(
            f"run {run.run_id}: {run.options.count} samples wanted from {settings.collection!r}; "
            f"after an interruption continue it with --resume {run.run_id}"
        )
    for persona in run.options.personas or []:
        share = f"{persona['share']:.0%}" if persona.get("share") is not None else "an equal share"
        tell(f"persona {persona['name']} ({share}): {persona['description']}")
    survey = await survey_languages(services.corpus, random_seed=run.options.random_seed or 0)
    tell(survey.line(settings.collection or ""))
    for note in language_notes(survey, run.options, settings.embedding):
        tell(note)
    cells, procedures_note = await with_procedural_seeds(
        run.options.cells(), services.corpus, settings.collection or "", settings.min_chunk_chars
    )
    if procedures_note:
        tell(procedures_note)
    unembedded, other_dimension = await services.corpus.reader.without_embedding() if left_out else (0, 0)
    if left_out - unembedded - other_dimension > 0:
        tell(
            f"note: {left_out - unembedded - other_dimension} chunk(s) of {settings.collection!r} are blank or over "
            f"{settings.max_chunk_chars} characters and are never used (TRIAD_MAX_CHUNK_CHARS)"
        )
    if unembedded:
        tell(
            f"note: {unembedded} chunk(s) of {settings.collection!r} have no embedding (pending or failed "
            "embedding jobs) and are never used"
        )
    if other_dimension:
        tell(
            f"note: {other_dimension} chunk(s) of {settings.collection!r} have an embedding of another dimension "
            f"than the collection's {await services.corpus.reader.dimension()} and are never used"
        )
    await ledger.release_dead_local_workers(socket.gethostname())
    folder = RunFolder(settings.runs_dir / run.run_id)
    finished = await services.database.ledger.finished(run.run_id)
    await folder.rebuild(ledger.file_lines([row["n"] for row in finished]))
    runner = await sample_runner(run, services, finished, embeddings, book)
    live = sys.stderr.isatty() and not request.log_json and not request.worker
    # With --log-json the sample_done events take the place of the per-sample lines.
    with Progress(cells, finished, services.gateway, live=live, lines=not request.log_json) as progress:
        worker = slot_worker(run, services, runner, folder, cells, request.concurrency, on_done=progress.sample_done)
        result = await worker.run()
    result.languages = {"collection": survey.as_json()}
    return result


def slot_worker(
    run: Run,
    services: RunServices,
    runner: SampleRunner,
    folder: RunFolder,
    cells: list[CellQuota],
    concurrency: int,
    *,
    on_done: Callable[[Slot, SampleResult], None],
) -> SlotWorker:
    """This process's worker on `run` (a run's or a refresh's): `concurrency` lanes over `cells`, within the
    run's budget, waiting out outages of the state database and the store; its lines go to `folder`."""
    assert services.database is not None
    assignment = WorkerAssignment(
        run_id=run.run_id,
        cells=cells,
        worker=f"{socket.gethostname()}-{os.getpid()}",
        concurrency=concurrency,
        hops=run.options.hops,
        role=run.options.role,
        max_cost_usd=run.settings.max_cost_usd,
        styles=run.options.style_quotas(),
        personas={persona["name"]: persona["description"] for persona in run.options.personas or []},
        persona_quotas=persona_quotas(run.options.personas, run.options.count) if run.options.personas else {},
    )
    database = services.database
    pools = (database.checkpoints, database.bookkeeping, services.corpus.pool)
    outages = Outages(run.run_id, run.settings.database_wait_seconds, pools, tell)
    return SlotWorker(
        assignment, database.ledger.run(run.run_id), runner, folder, services.gateway, outages, on_done=on_done
    )


async def sample_runner(
    run: Run,
    services: RunServices,
    finished: list[FinishedSample],
    embeddings: Embeddings | None,
    book: QueryBook | None = None,
    *,
    preferred: Iterable[str] = (),
    dataset_version: int = 1,
) -> SampleRunner:
    """The runner of the run's samples, with its seeds and accepted questions as the state database has them.

    With queries, seeds are drawn only among the chunks they retrieved; `preferred` chunks are drawn first.
    The records written go into `dataset_version`.
    """
    assert services.database is not None
    ledger, options = services.database.ledger.run(run.run_id), run.options
    questions = RunQuestions(ledger, embeddings=embeddings, threshold=options.dedup_threshold)
    accepted = [(str(ThreadId(run.run_id, row["n"])), row["brief"]["question"]) for row in finished if row["brief"]]
    await questions.load(accepted)
    used = await ledger.used_seeds()
    weights = await seed_weights(
        services.corpus, options, book.weights if book is not None else None, services.settings.min_chunk_chars
    )
    seeds = services.seed_pool(
        run.run_id, used=used, random_seed=options.random_seed, batch=SEED_BATCH, weights=weights, preferred=preferred
    )
    context = options.context(run.run_id, dataset_version=dataset_version)
    return build_runner(services, seeds, context, questions=questions, queries=book)


async def rewrite_run_files(
    run: Run, database: StateDatabase
) -> tuple[RunFolder, list[FinishedSample], list[DatasetRecord]]:
    """The run's files rewritten from the state database: exactly the finished slots the funnel counts."""
    ledger, this_run = database.ledger, database.ledger.run(run.run_id)
    outages = Outages(run.run_id, run.settings.database_wait_seconds, (database.bookkeeping,), tell)
    folder = RunFolder(run.settings.runs_dir / run.run_id)
    finished = await outages.call(lambda: ledger.finished(run.run_id))
    slots = [row["n"] for row in finished]
    await outages.call(lambda: folder.rebuild(this_run.file_lines(slots)))
    examples = await outages.call(lambda: this_run.accepted_records(slots, REPORT_EXAMPLES))
    return folder, finished, examples
