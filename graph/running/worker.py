"""Running a run's quotas: slots claimed from the state database, `concurrency` samples in flight.

Cells are question type x binary (SPEC section 4). A worker keeps claiming slots until every cell
has its quota or hits its attempt cap; each slot is thread `<run_id>/<n>`, continued from its last
checkpoint when an earlier worker left it unfinished. Several workers, in one process or many, can
work on one run: the database decides who runs what.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import structlog
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.config.errors import RunCannotWork, first_line
from graph.figures.funnel import cell_name, sample_summary
from graph.folder.files import RunFolder
from graph.folder.run_document import Languages
from graph.ledger.ledger import RunLedger
from graph.ledger.slots import CellQuota, Completion, Slot
from graph.llm.gateway import LLMGateway
from graph.running.failures import FAILED_ALIKE, SameFailure
from graph.running.lanes import Budget, first_failure
from graph.running.outages import DATABASE_ERRORS, Outages
from graph.running.runner import SampleResult, SampleRunner
from state.sample import SampleInput

log = structlog.get_logger("triad.run")


#: Seconds an idle lane waits before asking again whether a running slot reopened a cell. The end of
#: this process's last sample in flight wakes idle lanes at once; this bounds the wait for other
#: workers' slots.
IDLE_POLL_SECONDS = 0.5


class Finishes:
    """This process's samples in flight and finished, for idle lanes to wait on instead of polling blindly.

    A sample that ends rejected reopens its place, and the lane that ran it claims next: it takes that
    place itself. So idle lanes are woken only when the process's last sample in flight ends: then the
    run may be over, and every lane has to see that to stop.
    """

    def __init__(self) -> None:
        self.count = 0
        self.running = 0
        self._next = asyncio.Event()

    def started(self) -> None:
        self.running += 1

    def note(self) -> None:
        self.count += 1
        self.running -= 1
        if self.running == 0:
            self._next.set()
            self._next = asyncio.Event()

    async def wait(self, seen: int, timeout_s: float) -> None:
        """Return at once if a sample finished since `seen`, else when the last in flight ends or after `timeout_s`."""
        if self.count != seen:
            return
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                await self._next.wait()


class LineWriter:
    """Appends finished samples to the run folder's files in the background, off the lanes' path.

    A sync to disk takes milliseconds; a lane that waited for it would start its next sample that
    much later. Samples that finish while a write is under way go out together in the next one. The
    files are rewritten from the state database at the end and on resume, so lines a crash keeps
    from being written are not lost. A failed write (a full disk, say) is raised by the next `add`
    or by `close`.
    """

    def __init__(self, folder: RunFolder) -> None:
        self.folder = folder
        self._queued: list[tuple[dict[str, Any] | None, dict[str, Any] | None]] = []
        self._writing: asyncio.Task[None] | None = None

    def add(self, record: dict[str, Any] | None, rejection: dict[str, Any] | None) -> None:
        if self._writing is not None and self._writing.done():
            self._writing.result()  # raises what the last write raised
            self._writing = None
        self._queued.append((record, rejection))
        if self._writing is None:
            self._writing = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            await asyncio.to_thread(self.folder.append, batch)

    async def close(self) -> None:
        """Wait for the lines queued so far to be written."""
        if self._writing is not None:
            writing, self._writing = self._writing, None
            await writing


_frozen_depth = 0


@contextlib.contextmanager
def start_up_heap_frozen() -> Iterator[None]:
    """Keeps the garbage collector off the objects that exist when the lanes start.

    After start-up the process tracks a great many objects (LangChain, LangGraph, pydantic, the
    graph), and every full collection walks them all while every lane waits. Frozen, they stay out
    of collections until the outermost caller leaves; what the samples allocate is collected as before.
    """
    global _frozen_depth
    if _frozen_depth == 0:
        gc.freeze()  # start-up garbage among them waits for the end of the run: no collection now
    _frozen_depth += 1
    try:
        yield
    finally:
        _frozen_depth -= 1
        if _frozen_depth == 0:
            gc.unfreeze()


@dataclass
class WorkResult:
    """How a worker's share of a run ended."""

    finished: int = 0
    stopped_by_cost: bool = False
    database_outages: int = 0
    languages: Languages | None = None
    """The collection's languages as surveyed before the run started (run.json's `languages`)."""


@dataclass(frozen=True)
class WorkerAssignment:
    """What one worker is to do: run `concurrency` samples of the run's cells at a time, within the budget."""

    run_id: str
    cells: list[CellQuota]
    worker: str
    """This worker's name in the state database (host and process)."""
    concurrency: int = 1
    hops: int = 2
    role: str | None = None
    max_cost_usd: float | None = None
    styles: dict[str, int] = field(default_factory=dict)
    """Samples per query style (`RunOptions.style_quotas`); empty when the run asks for none."""
    personas: dict[str, str] = field(default_factory=dict)
    """Who asks (`RunOptions.personas`): each persona's description by its name."""
    persona_quotas: dict[str, int] = field(default_factory=dict)
    """Samples per persona (`state.personas.persona_quotas`)."""


class SlotWorker:
    """Claims and runs slots with `concurrency` lanes until the quotas are met, capped, or the budget spent.

    While the database is away, lanes wait for it (through `outages`) and then go on.
    """

    def __init__(
        self,
        assignment: WorkerAssignment,
        ledger: RunLedger,
        runner: SampleRunner,
        folder: RunFolder,
        gateway: LLMGateway,
        outages: Outages,
        *,
        on_done: Callable[[Slot, SampleResult], None] | None = None,
    ) -> None:
        self.assignment = assignment
        self.ledger = ledger
        self.runner = runner
        self.gateway = gateway
        self.budget = Budget.of(gateway, assignment.max_cost_usd)
        self.outages = outages
        self.on_done = on_done
        self.work = WorkResult()
        self.finishes = Finishes()
        self.lines = LineWriter(folder)
        self.failures = SameFailure()

    async def run(self) -> WorkResult:
        """Work until no slot is left for this worker; a failure hands its unfinished slots back."""
        beat = asyncio.create_task(self._heartbeat())
        try:
            with start_up_heap_frozen():
                async with asyncio.TaskGroup() as lanes:
                    for _ in range(self.assignment.concurrency):
                        lanes.create_task(self._lane())
            await self.lines.close()
        except BaseException as error:
            # A clean stop hands this worker's unfinished slots back at once; they resume from checkpoints.
            try:
                await asyncio.shield(self.ledger.release(self.assignment.worker))
            except Exception as release_failed:  # the slots stay leased until their lease runs out
                log.warning("slots not handed back", run_id=self.assignment.run_id, error=first_line(release_failed))
            try:
                await asyncio.shield(self.lines.close())
            except Exception as close_failed:  # the lines are rebuilt from the state database at the run's end
                log.warning("run lines not closed", run_id=self.assignment.run_id, error=first_line(close_failed))
            if isinstance(error, BaseExceptionGroup):
                raise first_failure(error) from None  # e.g. refused credentials, other lanes' failures noted
            raise
        finally:
            beat.cancel()
        self.work.database_outages = self.outages.outages
        if self.failures.reason is not None:
            await self._stop_run(self.failures.reason)
        stopped = await self.outages.call(lambda: self.ledger.stopped())
        if stopped is not None:  # by this worker or another one
            raise RunCannotWork(stopped)
        return self.work

    async def _stop_run(self, reason: str) -> None:
        """Stop the run for every worker, and release the samples that failed on `reason`."""
        released = self.failures.released
        message = (
            f"the first {FAILED_ALIKE} samples that reached a model all failed on the same error, so no sample can "
            f"work: {first_line(Exception(reason))}; fix the model (python -m graph.preflight checks it), then "
            f"continue with --resume {self.assignment.run_id}: the {len(released)} samples that failed on it were "
            "released"
        )
        # Stopped first, so that no worker opens a slot (which could take a released slot's number) meanwhile.
        await self.outages.call(lambda: self.ledger.stop(message))
        checkpoints = self.runner.graph.checkpointer
        assert isinstance(checkpoints, BaseCheckpointSaver)
        for sample in released:
            await self.outages.call(lambda: checkpoints.adelete_thread(sample.thread_id))  # noqa: B023
        await self.outages.call(
            lambda: self.ledger.release_samples(
                [s.slot for s in released], [seed for s in released for seed in s.seeds]
            )
        )

    async def _lane(self) -> None:
        # The lane's last sample: recorded as done in the round trip that claims the next.
        ended: tuple[Completion, SampleResult] | None = None
        while True:
            over_budget = self.budget.exhausted()
            stopping = over_budget or self.failures.reason is not None
            seen = self.finishes.count
            slot = await self._claim(ended[0] if ended else None) if not stopping else None
            if stopping and ended is not None:
                last = ended[0]
                await self.outages.call(lambda: self.ledger.complete(last))  # noqa: B023
            if ended is not None:
                self._report(*ended)
                seen += 1  # the lane's own sample is no news to it
                ended = None
            if over_budget:
                self.work.stopped_by_cost = True
                return
            if stopping:  # no sample of the run can work: none is started
                return
            if slot is None:
                # Nothing to open now; a running slot that ends rejected may reopen its cell.
                if await self.outages.call(lambda: self.ledger.slots_running()):
                    await self.finishes.wait(seen, IDLE_POLL_SECONDS)
                    continue
                return
            ended = await self._run_slot(slot)

    async def _claim(self, completing: Completion | None) -> Slot | None:
        assignment = self.assignment
        claim_id = uuid.uuid4().hex  # the same for every try through an outage
        return await self.outages.call(
            lambda: self.ledger.claim(
                assignment.cells,
                assignment.worker,
                completing=completing,
                claim_id=claim_id,
                styles=assignment.styles,
                personas=assignment.persona_quotas,
            )
        )

    async def _run_slot(self, slot: Slot) -> tuple[Completion, SampleResult]:
        self.finishes.started()
        self.failures.started(slot.n)
        spec = SampleInput(question_type=slot.question_type, binary=slot.binary, hops=self.assignment.hops)  # type: ignore[typeddict-item]
        if slot.wanted:
            spec["wanted_answer"] = slot.wanted  # type: ignore[typeddict-item]
        if self.assignment.role:
            spec["role"] = self.assignment.role
        if slot.persona in self.assignment.personas:
            spec["role"], spec["persona"] = self.assignment.personas[slot.persona], slot.persona  # type: ignore[index]
        if slot.query_style:
            spec["query_style"] = slot.query_style  # type: ignore[typeddict-item]
        # Run again after an outage: the sample continues from its last checkpoint (looked up then).
        first_try = iter([slot.fresh])
        # Every event logged while the sample runs (its model calls too) names its run and thread.
        with structlog.contextvars.bound_contextvars(run_id=slot.run_id, thread_id=slot.thread_id):
            result = await self.outages.call(
                lambda: self.runner.run(spec, slot.thread_id, fresh=next(first_try, False))
            )
        done = Completion(slot, result.outcome, result.record, result.rejection, sample_summary(result.state))
        self.failures.note(slot.n, slot.thread_id, result.outcome, result.state)
        return done, result

    def _report(self, done: Completion, result: SampleResult) -> None:
        self.finishes.note()
        self.lines.add(done.record, done.rejection)
        self.work.finished += 1
        with structlog.contextvars.bound_contextvars(run_id=done.slot.run_id, thread_id=done.slot.thread_id):
            log.info("sample_done", cell=cell_name(done.slot.question_type, done.slot.binary), outcome=done.outcome)
        if self.on_done is not None:
            self.on_done(done.slot, result)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.ledger.lease_seconds / 3)
            with contextlib.suppress(*DATABASE_ERRORS):  # the lanes notice an outage and wait for it
                await self.ledger.heartbeat(self.assignment.worker)
