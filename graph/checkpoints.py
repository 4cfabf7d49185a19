"""The checkpointer of runs: LangGraph's async Postgres saver on a connection pool, without its global lock.

`AsyncPostgresSaver` serialises every operation behind one `asyncio.Lock`, which a single shared
connection needs. On a pool each operation borrows its own connection, so the lock only makes
concurrent samples queue for each other's checkpoint writes (and, while the database is away, wait
out each other's connection timeouts one after another). `PooledPostgresSaver` drops it for pools.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool


class PooledPostgresSaver(AsyncPostgresSaver):
    """`AsyncPostgresSaver` whose operations on a pool run side by side."""

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
