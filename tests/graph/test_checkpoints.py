"""The pooled checkpointer writes the rows LangGraph's own Postgres saver writes, and reads them back alike."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from langgraph.checkpoint.base import ERROR, Checkpoint, empty_checkpoint
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde.types import _DeltaSnapshot
from langgraph.constants import START

from graph.config.settings import resolve_settings
from graph.services import open_state_database
from graph.store.checkpoints import write_batches
from graph.store.database import in_schema, prepare_state_schema
from tests.support.commands import STATE_SCHEMA, state_connection

DRAFTS = [{"question": "Which comes first?", "answer": "25.1", "revision": 0}]


def state_settings(url: str) -> Any:
    return resolve_settings({"database_url": url, "state_url": url}, env={})


def checkpoint(number: int, values: dict[str, Any], versions: dict[str, str]) -> Checkpoint:
    made = empty_checkpoint()
    made["id"], made["ts"] = f"1f0-{number:04d}", f"2026-01-01T00:00:{number:02d}+00:00"
    made["channel_values"] = values
    made["channel_versions"] = versions
    return made


async def history(saver: AsyncPostgresSaver, thread_id: str) -> None:
    """Checkpoints with and without blobs, ordinary and special writes, repeats of both."""
    root: Any = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    versions = {"question_type": "1", "hops": "1", "drafts": "1", "seed": "1"}
    values = {"question_type": "comparison", "hops": 2, "temporal": None, "drafts": DRAFTS, "seed": {"id": "c1"}}
    first = checkpoint(1, values, versions)
    config = await saver.aput(root, first, {"source": "input", "step": -1}, versions)  # type: ignore[typeddict-item]
    await saver.aput_writes(config, [("drafts", DRAFTS), ("branch:to:judge", None), ("drafts", [])], "task-1", "~a")
    await saver.aput_writes(config, [(ERROR, "first failure"), (ERROR, "second failure")], "task-2")
    await saver.aput_writes(config, [("revisions", 1)], "task-3")
    await saver.aput_writes(config, [("revisions", 2)], "task-3")  # a repeat keeps the first write
    await saver.aput_writes(config, [(ERROR, "replaced")], "task-2")  # a special write replaces
    # No channel with a blob changed: the checkpoint row alone.
    second = checkpoint(2, {**values, "revisions": 1}, {**versions, "revisions": "2"})
    config = await saver.aput(config, second, {"source": "loop", "step": 0}, {"revisions": "2"})  # type: ignore[typeddict-item]
    # A delta channel's snapshot: a blob, and `True` in the checkpoint row.
    delta = {"drafts": DRAFTS * 2, "log": _DeltaSnapshot(["seed", "bridge"])}
    third = checkpoint(3, {**values, "revisions": 1, **delta}, {**versions, "drafts": "3", "log": "3"})
    config = await saver.aput(config, third, {"source": "loop", "step": 1}, {"drafts": "3", "log": "3"})  # type: ignore[typeddict-item]
    await saver.aput(config, third, {"source": "loop", "step": 2}, {"drafts": "3"})  # type: ignore[typeddict-item]


def rows(url: str, thread_id: str) -> dict[str, list[str]]:
    queries = {  # every column but the thread id
        "checkpoints": "SELECT checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata "
        "FROM checkpoints",
        "blobs": "SELECT checkpoint_ns, channel, version, type, blob FROM checkpoint_blobs",
        "writes": "SELECT checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, blob "
        "FROM checkpoint_writes",
    }
    with state_connection(url) as conn:
        return {
            table: sorted(map(repr, conn.execute(f"{query} WHERE thread_id = %s", (thread_id,)).fetchall()))  # type: ignore[arg-type]
            for table, query in queries.items()
        }


def test_pooled_saver_writes_and_reads_what_the_upstream_saver_does(pg_url: str) -> None:
    upstream_thread, pooled_thread = f"upstream-{uuid.uuid4().hex[:8]}", f"pooled-{uuid.uuid4().hex[:8]}"

    async def main() -> tuple[Any, Any, Any]:
        prepare_state_schema(pg_url, STATE_SCHEMA)  # both savers write to the schema runs use
        async with AsyncPostgresSaver.from_conn_string(in_schema(pg_url, STATE_SCHEMA)) as upstream:
            await upstream.setup()
            await history(upstream, upstream_thread)
            kept_upstream = await upstream.aget_tuple({"configurable": {"thread_id": upstream_thread}})
        async with open_state_database(state_settings(pg_url), concurrency=2) as database:  # a run's checkpoint pool
            pooled = database.saver
            await history(pooled, pooled_thread)
            kept_pooled = await pooled.aget_tuple({"configurable": {"thread_id": pooled_thread}})
            first = await pooled.aget_tuple({"configurable": {"thread_id": pooled_thread, "checkpoint_id": "1f0-0001"}})
        return kept_upstream, kept_pooled, first

    kept_upstream, kept_pooled, first = asyncio.run(main())
    assert kept_upstream is not None and kept_pooled is not None and first is not None
    assert kept_pooled.checkpoint == kept_upstream.checkpoint
    assert kept_pooled.checkpoint["channel_values"]["drafts"] == DRAFTS * 2
    assert kept_pooled.metadata == kept_upstream.metadata
    assert kept_pooled.parent_config["configurable"]["checkpoint_id"] == "1f0-0002"  # type: ignore[index]
    assert sorted(first.pending_writes or [], key=repr) == sorted(
        [
            ("task-1", "drafts", DRAFTS),
            ("task-1", "branch:to:judge", None),
            ("task-1", "drafts", []),
            ("task-2", ERROR, "replaced"),
            ("task-3", "revisions", 1),
        ],
        key=repr,
    )
    written_upstream, written_pooled = rows(pg_url, upstream_thread), rows(pg_url, pooled_thread)
    assert [len(written_pooled[table]) for table in ("checkpoints", "blobs", "writes")] == [3, 4, 5]
    assert written_pooled == written_upstream


def test_a_thread_known_to_be_new_is_not_looked_up_once(pg_url: str) -> None:
    thread = f"new-{uuid.uuid4().hex[:8]}"
    config: Any = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}

    async def main() -> list[Any]:
        async with open_state_database(state_settings(pg_url), concurrency=2) as database:
            saver = database.saver
            await history(saver, thread)  # written by someone else: the block below is a wrong promise
            seen = []
            with saver.new_thread(thread):
                seen.append(await saver.aget_tuple(config))  # answered without a query
                seen.append(await saver.aget_tuple(config))  # from the second look on, the database answers
            with saver.new_thread(thread):
                by_id = {"configurable": {**config["configurable"], "checkpoint_id": "1f0-0001"}}
                seen.append(await saver.aget_tuple(by_id))  # a given checkpoint is always read
            with saver.new_thread(thread):
                pass
            seen.append(await saver.aget_tuple(config))  # the promise ends with its block
            return seen

    first, second, by_id, after = asyncio.run(main())
    assert first is None
    assert second is not None and second.checkpoint["id"] == "1f0-0003"
    assert by_id is not None and by_id.checkpoint["id"] == "1f0-0001"
    assert after is not None and after.checkpoint["id"] == "1f0-0003"


def test_held_batches_go_out_one_statement_at_a_time_in_order_with_the_checkpoints_last() -> None:
    sent: list[tuple[str, list[str]]] = []

    class Cursor:
        async def executemany(self, statement: str, rows: list[str]) -> None:
            sent.append((statement, rows))

    batches = [
        ("writes", ["w1"]),
        ("blobs", ["b1"]),
        ("checkpoints", ["c1"]),
        ("writes", ["w2", "w3"]),
        ("checkpoints", ["c2"]),
        ("special writes", ["e1"]),
    ]
    asyncio.run(write_batches(Cursor(), batches, last="checkpoints"))
    assert sent == [
        ("writes", ["w1", "w2", "w3"]),
        ("blobs", ["b1"]),
        ("special writes", ["e1"]),
        ("checkpoints", ["c1", "c2"]),
    ]


def test_held_writes_go_with_the_next_checkpoint_and_end_up_as_the_upstream_saver_writes_them(pg_url: str) -> None:
    upstream_thread, held_thread = f"upstream-{uuid.uuid4().hex[:8]}", f"held-{uuid.uuid4().hex[:8]}"
    counted = f"counted-{uuid.uuid4().hex[:8]}"
    root: Any = {"configurable": {"thread_id": counted, "checkpoint_ns": ""}}
    versions: Any = {"question_type": "1"}

    def saved_writes() -> int:
        with state_connection(pg_url) as conn:
            found = conn.execute("SELECT count(*) FROM checkpoint_writes WHERE thread_id = %s", (counted,)).fetchone()
        return found[0] if found else -1

    async def main() -> list[int]:
        prepare_state_schema(pg_url, STATE_SCHEMA)
        async with AsyncPostgresSaver.from_conn_string(in_schema(pg_url, STATE_SCHEMA)) as upstream:
            await upstream.setup()
            await history(upstream, upstream_thread)
        seen = []
        async with open_state_database(state_settings(pg_url), concurrency=2) as database:
            saver = database.saver
            async with saver.holding(held_thread):
                await history(saver, held_thread)
            async with saver.holding(counted):
                first = checkpoint(1, {"question_type": "comparison"}, versions)
                config = await saver.aput(root, first, {"source": "input", "step": -1}, versions)  # type: ignore[typeddict-item]
                await saver.aput_writes(config, [("drafts", DRAFTS)], "task-1")
                seen.append(saved_writes())  # held
                second = checkpoint(2, {"question_type": "comparison"}, versions)
                config = await saver.aput(config, second, {"source": "loop", "step": 0}, {})  # type: ignore[typeddict-item]
                seen.append(saved_writes())  # saved with the checkpoint they led to
                await saver.aput_writes(config, [("revisions", 1)], "task-2")
                await saver.aput_writes(config, [(ERROR, "boom")], "task-3")
                seen.append(saved_writes())  # an error is saved at once, with what was held before it
                await saver.aput_writes(config, [("revisions", 2)], "task-4")
                seen.append(saved_writes())
            seen.append(saved_writes())  # the block's end saves what no checkpoint followed
            await saver.aput_writes(config, [("revisions", 3)], "task-5")
            seen.append(saved_writes())  # outside the block, at once
        return seen

    assert asyncio.run(main()) == [0, 1, 3, 3, 4, 5]
    assert rows(pg_url, held_thread) == rows(pg_url, upstream_thread)


def test_the_checkpoint_of_a_step_that_asked_no_model_goes_out_with_the_next_one(pg_url: str) -> None:
    thread = f"quick-{uuid.uuid4().hex[:8]}"
    root: Any = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}

    def saved() -> tuple[int, int]:
        with state_connection(pg_url) as conn:
            counts = [
                conn.execute(f"SELECT count(*) FROM {table} WHERE thread_id = %s", (thread,)).fetchone()  # type: ignore[arg-type]
                for table in ("checkpoints", "checkpoint_writes")
            ]
        return counts[0][0], counts[1][0]  # type: ignore[index]

    async def main() -> tuple[list[tuple[int, int]], list[str]]:
        prepare_state_schema(pg_url, STATE_SCHEMA)
        seen = []
        async with open_state_database(state_settings(pg_url), concurrency=2) as database:
            saver = database.saver
            config = root

            async def step(number: int, *next_channel: str, source: str = "loop") -> None:
                nonlocal config
                made = checkpoint(number, {"question_type": "comparison", **dict.fromkeys(next_channel)}, {})
                config = await saver.aput(config, made, {"source": source, "step": number}, {})  # type: ignore[typeddict-item]
                seen.append(saved())

            async with saver.holding(thread, {START, "lint"}):
                await step(1, START, source="input")  # no step led to a run's input: it waits
                await step(2, "branch:to:lint")  # START's: waits
                await saver.aput_writes(config, [("drafts", DRAFTS)], "task-1")
                await step(3, "branch:to:judge")  # lint's: waits
                await step(4, "branch:to:lint")  # the judge asked a model: out at once, with all held
                await step(5, "branch:to:judge")  # lint's: waits
                await saver.aput_writes(config, [(ERROR, "boom")], "task-2")  # an error: out at once, with all held
                seen.append(saved())
                await step(6, "branch:to:lint")  # the judge's
                await step(7)  # lint's, the last: waits
            seen.append(saved())  # the block's end saves what is held
            await step(8)  # outside the block, at once
            parents = [
                found.parent_config["configurable"]["checkpoint_id"]  # type: ignore[index]
                async for found in saver.alist({"configurable": {"thread_id": thread}})
                if found.parent_config
            ]
        return seen, parents

    seen, parents = asyncio.run(main())
    assert seen == [(0, 0), (0, 0), (0, 0), (4, 1), (4, 1), (5, 2), (6, 2), (6, 2), (7, 2), (8, 2)]
    assert parents == [f"1f0-{number:04d}" for number in range(7, 0, -1)]  # newest first, none lost
