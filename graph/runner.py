"""Running a quota plan: slots claimed from the state database, `concurrency` samples in flight.

Cells are question type x binary (SPEC section 4). A worker keeps claiming slots until every cell
has its quota or hits its attempt cap; each slot is thread `<run_id>/<n>`, continued from its last
checkpoint when an earlier worker left it unfinished. Several workers, in one process or many, can
work on one run: the database decides who runs what.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg
import structlog
from psycopg_pool import AsyncConnectionPool

from graph.errors import UserError, first_line
from graph.funnel import cell_name
from graph.llm import LLMGateway
from graph.outputs import RunFolder
from graph.runstore import CellPlan, Completion, RunStore, Slot
from graph.sample import SampleResult, SampleRunner
from state.sample import SampleInput

log = structlog.get_logger("triad.run")

#: A cell may start this many samples per accepted sample it wants before it is given up.
ATTEMPT_FACTOR = 3

#: Seconds an idle lane waits before asking again whether a running slot reopened a cell. The end of
#: this process's last sample in flight wakes idle lanes at once; this bounds the wait for other
#: workers' slots.
IDLE_POLL_SECONDS = 0.5

#: What a database that went away raises: a dropped connection, or none to be had in time.
DATABASE_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError)

#: Seconds between tries while the database is away.
OUTAGE_POLL_SECONDS = 1.0

T = TypeVar("T")


class Outages:
    """Repeats database work through an outage: waits for the server to come back, up to `wait_s`.

    Samples continue from their last checkpoint afterwards, so an outage costs at most the steps in
    flight. A server that stays away longer ends the run with one line naming `--resume`.
    """

    def __init__(
        self,
        run_id: str,
        wait_s: float,
        pools: Sequence[AsyncConnectionPool] = (),
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.run_id = run_id
        self.wait_s = wait_s
        self.pools = pools
        """Pools whose idle connections are checked while waiting, so dead ones are replaced."""
        self.notify = notify or (lambda text: None)
        """Tells the user an outage began or ended (the command prints it)."""
        self.outages = 0
        self._since: float | None = None

    async def call(self, operation: Callable[[], Awaitable[T]]) -> T:
        # Outage events are the run's, not the sample's whose call noticed them: thread_id=None.
        while True:
            try:
                result = await operation()
            except DATABASE_ERRORS as error:
                await self._wait(error)
                continue
            if self._since is not None:
                away = time.monotonic() - self._since
                log.info("database_back", run_id=self.run_id, thread_id=None, after_s=round(away, 1))
                self.notify(f"the database is back after {away:.0f} s; going on")
                self._since = None
            return result

    async def _wait(self, error: BaseException) -> None:
        reason = first_line(error)
        now = time.monotonic()
        if self._since is None:
            self._since = now
            self.outages += 1
            log.info("database_unreachable", run_id=self.run_id, thread_id=None, error=reason)
            self.notify(f"the database is unreachable ({reason}); waiting up to {self.wait_s:.0f} s for it")
        if now - self._since > self.wait_s:
            raise UserError(
                f"the database stayed unreachable for {self.wait_s:.0f} s ({reason}); "
                f"start it again, then continue with --resume {self.run_id}"
            ) from None
        await asyncio.sleep(OUTAGE_POLL_SECONDS)
        for pool in self.pools:
            with contextlib.suppress(Exception):  # still away: the next try says so
                await pool.check()


def plan_cells(
    count: int, types: Sequence[str], binary_modes: Sequence[bool], attempt_factor: int = ATTEMPT_FACTOR
) -> list[CellPlan]:
    """Equal shares of `count` over types x binary modes; the first cells take any remainder."""
    pairs = [(question_type, binary) for question_type in types for binary in binary_modes]
    share, remainder = divmod(count, len(pairs))
    cells = []
    for index, (question_type, binary) in enumerate(pairs):
        quota = share + (1 if index < remainder else 0)
        if quota:
            cells.append(CellPlan(question_type, binary, quota, cap=attempt_factor * quota))
    return cells


def sample_summary(state: dict[str, Any]) -> dict[str, Any]:
    """What the funnel and the report need of a finished sample's state."""
    return {
        "question_type": state.get("question_type"),
        "binary": state.get("binary"),
        "outcome": state.get("outcome", "failed"),
        "end_reason": state.get("end_reason", ""),
        "drafts": state.get("drafts", []),
        "revisions": state.get("revisions", 0),
        "verdicts": [
            {"judge": v["judge"], "accepted": v["accepted"], "reason": v["reason"], "revision": v["revision"]}
            for v in state.get("verdicts", [])
        ],
        "restarts": state.get("restarts", 0),
        "llm_calls": state.get("llm_calls", []),
    }


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

    After start-up the process tracks some 140,000 objects (LangChain, LangGraph, pydantic, the
    graph), and every full collection walks them all: about 90 ms, once every twenty-odd samples,
    while every lane waits. Frozen, they stay out of collections until the outermost caller leaves;
    what the samples allocate is collected as before.
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


async def work(
    run_id: str,
    cells: list[CellPlan],
    store: RunStore,
    runner: SampleRunner,
    folder: RunFolder,
    gateway: LLMGateway,
    *,
    worker: str,
    concurrency: int = 1,
    hops: int = 2,
    role: str | None = None,
    max_cost_usd: float | None = None,
    database_wait_s: float = 120.0,
    pools: Sequence[AsyncConnectionPool] = (),
    notify: Callable[[str], None] | None = None,
    on_done: Callable[[Slot, SampleResult], None] | None = None,
) -> WorkResult:
    """Claim and run slots with `concurrency` lanes until the plan is met, capped, or the budget spent.

    While the database is away, lanes wait for it (up to `database_wait_s`) and then go on.
    """
    outcome = WorkResult()
    outages = Outages(run_id, database_wait_s, pools, notify)
    finishes = Finishes()
    lines = LineWriter(folder)

    def report(done: Completion, result: SampleResult) -> None:
        finishes.note()
        lines.add(done.record, done.rejection)
        outcome.finished += 1
        with structlog.contextvars.bound_contextvars(run_id=run_id, thread_id=done.slot.thread_id):
            log.info("sample_done", cell=cell_name(done.slot.question_type, done.slot.binary), outcome=done.outcome)
        if on_done is not None:
            on_done(done.slot, result)

    async def lane() -> None:
        # The lane's last sample: recorded as done in the round trip that claims the next.
        ended: tuple[Completion, SampleResult] | None = None
        while True:
            over_budget = max_cost_usd is not None and gateway.cost_usd >= max_cost_usd
            seen = finishes.count
            slot = None
            if not over_budget:
                completing = ended[0] if ended is not None else None
                slot = await outages.call(lambda: store.claim(run_id, cells, worker, completing=completing))  # noqa: B023
            elif ended is not None:
                done = ended[0]
                await outages.call(lambda: store.complete(done))  # noqa: B023
            if ended is not None:
                report(*ended)
                seen += 1  # the lane's own sample is no news to it
                ended = None
            if over_budget:
                outcome.stopped_by_cost = True
                return
            if slot is None:
                # Nothing to open now; a running slot that ends rejected may reopen its cell.
                if await outages.call(lambda: store.slots_running(run_id)):
                    await finishes.wait(seen, IDLE_POLL_SECONDS)
                    continue
                return
            finishes.started()
            spec = SampleInput(question_type=slot.question_type, binary=slot.binary, hops=hops)  # type: ignore[typeddict-item]
            if role:
                spec["role"] = role
            # Run again after an outage: the sample continues from its last checkpoint (looked up then).
            first_try = iter([slot.fresh])
            # Every event logged while the sample runs (its model calls too) names its run and thread.
            with structlog.contextvars.bound_contextvars(run_id=run_id, thread_id=slot.thread_id):
                result = await outages.call(
                    lambda: runner.run(spec, slot.thread_id, fresh=next(first_try, False))  # noqa: B023
                )
            done = Completion(slot, result.outcome, result.record, result.rejection, sample_summary(result.state))
            ended = (done, result)

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(store.lease_seconds / 3)
            with contextlib.suppress(*DATABASE_ERRORS):  # the lanes notice an outage and wait for it
                await store.heartbeat(run_id, worker)

    beat = asyncio.create_task(heartbeat())
    try:
        with start_up_heap_frozen():
            async with asyncio.TaskGroup() as lanes:
                for _ in range(concurrency):
                    lanes.create_task(lane())
        await lines.close()
    except BaseException as error:
        # A clean stop hands this worker's unfinished slots back at once; they resume from checkpoints.
        with contextlib.suppress(Exception):
            await asyncio.shield(store.release(run_id, worker))
        with contextlib.suppress(Exception):
            await asyncio.shield(lines.close())
        if isinstance(error, BaseExceptionGroup):
            raise error.exceptions[0] from None  # the first lane's failure, e.g. refused credentials
        raise
    finally:
        beat.cancel()
    outcome.database_outages = outages.outages
    return outcome
