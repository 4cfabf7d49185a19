"""The checkpointer of runs: LangGraph's async Postgres saver on a connection pool, without its global lock.

`AsyncPostgresSaver` serialises every operation behind one `asyncio.Lock`, which a single shared
connection needs. On a pool each operation borrows its own connection, so the lock only makes
concurrent samples queue for each other's checkpoint writes (and, while the database is away, wait
out each other's connection timeouts one after another). `PooledPostgresSaver` drops it for pools.

It also serialises a step's values on the event loop: for a sample's state (tens of kilobytes) the
upstream saver's hop to a worker thread costs more than the work. Its JSON columns are encoded with
orjson. The rows written are the upstream saver's (tests/graph/test_checkpoints.py compares them).

Within `holding(thread_id, quick_nodes)`, which a run's samples use, a finished task's writes wait for
the checkpoint of their step and go to the database in the same pipeline: one round trip and one
transaction per step instead of two. The checkpoint of a step that ran only `quick_nodes` (nodes that
ask no chat model) waits too, and goes out with the next one: what a crash repeats grows only by such
steps.

It relies on names langgraph-checkpoint-postgres does not publish (`UPSTREAM_NAMES`); pyproject.toml
pins that package to the minor versions tested, and `missing_upstream_names` says which are gone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    WRITES_IDX_MAP,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    get_checkpoint_id,
    get_serializable_checkpoint_metadata,
)
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde import types as serde_types
from langgraph.constants import START
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from graph.store.jsonb import jsonb

#: What the saver takes from `AsyncPostgresSaver` beyond its public interface.
UPSTREAM_NAMES = (
    "_cursor",
    "_dump_blobs",
    "_dump_writes",
    "UPSERT_CHECKPOINTS_SQL",
    "UPSERT_CHECKPOINT_BLOBS_SQL",
    "UPSERT_CHECKPOINT_WRITES_SQL",
    "INSERT_CHECKPOINT_WRITES_SQL",
)


#: langgraph-checkpoint's marker of a channel stored as a delta (not published either).
DELTA_SNAPSHOT: type | None = getattr(serde_types, "_DeltaSnapshot", None)

#: How LangGraph names the channel that triggers a node: a checkpoint holds one for each node its next step runs.
TRIGGER_PREFIX = "branch:to:"


def missing_upstream_names(saver_class: type = AsyncPostgresSaver) -> list[str]:
    """The names of `UPSTREAM_NAMES` (and `_DeltaSnapshot`) that the installed packages no longer have."""
    missing = [name for name in UPSTREAM_NAMES if not hasattr(saver_class, name)]
    return missing + ([] if DELTA_SNAPSHOT is not None else ["_DeltaSnapshot"])


def split_channel_values(values: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A checkpoint's channel values as the upstream saver stores them: (inline, blobs).

    Primitives stay in the checkpoint row; other values go to the blobs table. A delta snapshot goes
    there too and leaves `True` inline, which tells readers to look for its blob.
    """
    inline: dict[str, Any] = {}
    blobs: dict[str, Any] = {}
    for name, value in values.items():
        if DELTA_SNAPSHOT is not None and isinstance(value, DELTA_SNAPSHOT):
            blobs[name] = value
            inline[name] = True
        elif value is None or isinstance(value, str | int | float | bool):
            inline[name] = value
        else:
            blobs[name] = value
    return inline, blobs


def next_nodes(checkpoint: Checkpoint) -> frozenset[str]:
    """The nodes the step after `checkpoint` runs, from its trigger channels (START for a run's input)."""
    values = checkpoint["channel_values"]
    return frozenset(name.removeprefix(TRIGGER_PREFIX) for name in values if name.startswith(TRIGGER_PREFIX)) | (
        {START} if START in values else frozenset()
    )


@dataclass
class Held:
    """What a thread within `PooledPostgresSaver.holding` has waiting, and what decides whether a checkpoint waits."""

    quick_nodes: frozenset[str]
    batches: list[tuple[str, list[Any]]] = field(default_factory=list)
    """(statement, rows) in the order LangGraph gave them."""
    running: frozenset[str] | None = None
    """The nodes of the step under way, named by the last checkpoint; None until the block has seen one."""

    def take(self) -> list[tuple[str, list[Any]]]:
        """The batches held so far; holding goes on."""
        batches, self.batches = self.batches, []
        return batches

    def waits(self, checkpoint: Checkpoint, metadata: CheckpointMetadata) -> bool:
        """Whether `checkpoint` waits for the next one: a step of quick nodes led to it, or none did (a run's input).

        With no quick nodes, none waits; nor does one whose step the block did not see start.
        """
        ran, self.running = self.running, next_nodes(checkpoint)
        if not self.quick_nodes:
            return False
        if metadata.get("source") == "input":
            return True
        return ran is not None and bool(ran) and ran <= self.quick_nodes


async def write_batches(cursor: Any, batches: list[tuple[str, list[Any]]], last: str) -> None:
    """The (statement, rows) batches, one `executemany` per statement, its rows in the order given; statement
    `last` after the others.

    Rows of one statement keep their order, so repeated writes of a key resolve as they would one by one. Rows
    of two statements share no key but for a task write that an insert and the special channels' upsert both
    make, and that upsert ends any list it is in (`aput_writes` sends it at once), so it still comes last.
    With `last` the checkpoints, no checkpoint is in the database before the blobs and writes sent with it.
    """
    merged: dict[str, list[Any]] = {}
    for statement, rows in batches:
        merged.setdefault(statement, []).extend(rows)
    final = merged.pop(last, None)
    for statement, rows in merged.items():
        await cursor.executemany(statement, rows)
    if final:
        await cursor.executemany(last, final)


class PooledPostgresSaver(AsyncPostgresSaver):
    """`AsyncPostgresSaver` whose operations on a pool run side by side, serialising on the event loop."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        missing = missing_upstream_names()
        if missing:
            raise RuntimeError(
                f"this langgraph-checkpoint-postgres has no {', '.join(missing)}, which triad's checkpointer "
                "relies on; install the version pyproject.toml pins (pip install -e .)"
            )
        super().__init__(*args, **kwargs)
        if not hasattr(self, "supports_pipeline"):  # set by the upstream saver's own __init__
            raise RuntimeError(
                "this langgraph-checkpoint-postgres sets no supports_pipeline, which triad's checkpointer "
                "relies on; install the version pyproject.toml pins (pip install -e .)"
            )
        self._new_threads: set[str] = set()
        self._held: dict[str, Held] = {}
        """The threads within `holding`, each with what it holds."""

    @contextmanager
    def new_thread(self, thread_id: str) -> Iterator[None]:
        """Within the block, the first look for `thread_id`'s latest checkpoint answers None unasked.

        For a thread its caller has just created: the graph looks up where to continue before its
        first step, and a new sample has nowhere to continue from.
        """
        self._new_threads.add(thread_id)
        try:
            yield
        finally:
            self._new_threads.discard(thread_id)

    @asynccontextmanager
    async def holding(self, thread_id: str, quick_nodes: Collection[str] = frozenset()) -> AsyncIterator[None]:
        """Within the block, the thread's writes wait and go to the database together, one round trip per wait.

        LangGraph saves each finished task's writes, then the checkpoint they lead to. Held, a step's writes
        wait for its checkpoint. The checkpoint of a step that ran only `quick_nodes` waits too, for the
        next checkpoint, so such steps cost no round trip of their own; the checkpoint of any other step
        goes out at once, with everything held before it. Writes to the special channels (errors,
        interrupts) are saved at once, with any held before them; whatever is still held when the block
        ends is saved then. A crash loses the step in flight, a checkpoint on its way, and the quick steps
        held; their tasks run again on resume.
        """
        self._held[thread_id] = Held(frozenset(quick_nodes))
        try:
            yield
        finally:
            held = self._held.pop(thread_id, None)
            if held is not None and held.batches:
                async with self._cursor(pipeline=True) as cursor:
                    await write_batches(cursor, held.batches, self.UPSERT_CHECKPOINTS_SQL)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        configurable = config["configurable"]
        thread_id = configurable["thread_id"]
        if thread_id in self._new_threads:
            self._new_threads.discard(thread_id)
            if not get_checkpoint_id(config) and not configurable.get("checkpoint_ns"):
                return None
        return await super().aget_tuple(config)

    @asynccontextmanager
    async def _cursor(self, *, pipeline: bool = False) -> AsyncIterator[Any]:
        if not isinstance(self.conn, AsyncConnectionPool):
            async with super()._cursor(pipeline=pipeline) as cursor:
                yield cursor
            return
        async with self.conn.connection() as conn:
            if pipeline and self.supports_pipeline:
                async with conn.pipeline(), conn.cursor(binary=True, row_factory=dict_row) as cursor:
                    yield cursor
            elif pipeline:
                async with conn.transaction(), conn.cursor(binary=True, row_factory=dict_row) as cursor:
                    yield cursor
            else:
                async with conn.cursor(binary=True, row_factory=dict_row) as cursor:
                    yield cursor

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        configurable = config["configurable"]
        thread_id, namespace = configurable["thread_id"], configurable["checkpoint_ns"]
        inline, blobs = split_channel_values(checkpoint["channel_values"])
        changed = {name: version for name, version in new_versions.items() if name in blobs}
        blob_rows = self._dump_blobs(thread_id, namespace, blobs, changed)
        row = (
            thread_id,
            namespace,
            checkpoint["id"],
            configurable.get("checkpoint_id"),  # the parent
            jsonb({**checkpoint, "channel_values": inline}),
            jsonb(get_serializable_checkpoint_metadata(config, metadata)),
        )
        held = self._held.get(thread_id)
        batches = held.take() if held is not None else []
        if blob_rows:
            batches.append((self.UPSERT_CHECKPOINT_BLOBS_SQL, blob_rows))
        batches.append((self.UPSERT_CHECKPOINTS_SQL, [row]))
        saved: RunnableConfig = {
            "configurable": {"thread_id": thread_id, "checkpoint_ns": namespace, "checkpoint_id": checkpoint["id"]}
        }
        if held is not None and held.waits(checkpoint, metadata):
            held.batches = batches  # goes out with the next checkpoint
            return saved
        async with self._cursor(pipeline=True) as cursor:
            await write_batches(cursor, batches, self.UPSERT_CHECKPOINTS_SQL)
        return saved

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        configurable = config["configurable"]
        # Special channels (errors, interrupts) keep one row per slot; a repeated write replaces it.
        special = all(channel in WRITES_IDX_MAP for channel, _ in writes)
        query = self.UPSERT_CHECKPOINT_WRITES_SQL if special else self.INSERT_CHECKPOINT_WRITES_SQL
        rows = self._dump_writes(
            configurable["thread_id"],
            configurable["checkpoint_ns"],
            configurable["checkpoint_id"],
            task_id,
            task_path,
            writes,
        )
        thread_held = self._held.get(configurable["thread_id"])
        if thread_held is None:
            held = [(query, rows)]
        else:
            thread_held.batches.append((query, rows))
            if not special:
                return  # sent with the next checkpoint
            held = thread_held.take()
        async with self._cursor(pipeline=True) as cursor:
            await write_batches(cursor, held, self.UPSERT_CHECKPOINTS_SQL)
