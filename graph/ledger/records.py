"""A run's finished records and rejections as its files and its report read them from `triad_samples`, and a
refreshed record put back."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import orjson
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool
from pydantic import ValidationError

from graph.folder.files import FileLines, as_written
from graph.store.jsonb import jsonb
from state.record import DatasetRecord

#: Finished samples per fetch when a run's files are rewritten.
LINES_BATCH = 50


class RunRecords:
    """The records of one run, on a connection pool of the state database."""

    pool: AsyncConnectionPool
    run_id: str

    async def update_records(self, records: dict[int, DatasetRecord]) -> None:
        """Put a new version of each slot's record in place of the one it holds."""
        async with self.pool.connection() as conn, conn.transaction():
            for n, record in records.items():
                await conn.execute(
                    "UPDATE triad_samples SET record = %s, styled = %s, updated_at = now()"
                    " WHERE run_id = %s AND n = %s",
                    (jsonb(record.model_dump(mode="json")), record.query_style, self.run_id, n),
                )

    async def file_lines(self, slots: list[int], batch: int = LINES_BATCH) -> AsyncGenerator[list[FileLines], None]:
        """The (record, rejection) pairs of the finished `slots`, in slot order, `batch` at a time.

        `slots` are those `finished` gave: the files then hold exactly the samples the funnel counts,
        even while other workers finish more. A server-side cursor keeps one batch in memory.
        """
        async with (
            self.pool.connection() as conn,
            conn.transaction(),
            conn.cursor("triad_file_lines") as cursor,
        ):
            set_json_loads(orjson.loads, cursor)  # faster than json.loads on long records
            await cursor.execute(
                "SELECT record, rejection FROM triad_samples WHERE run_id = %s AND n = ANY(%s) AND status = 'done'"
                " ORDER BY n",
                (self.run_id, slots),
            )
            while rows := await cursor.fetchmany(batch):
                yield [as_written(record, rejection) for record, rejection in rows]

    async def accepted_records(self, slots: list[int], limit: int) -> list[DatasetRecord]:
        """The first `limit` accepted records among the finished `slots`, in slot order; a record that does not
        validate (edited in the database) is passed over, as the dataset's reader skips its line."""
        found: list[DatasetRecord] = []
        read = 0
        async with self.pool.connection() as conn:
            while len(found) < limit:  # one page of `limit` unless some record is passed over
                cursor = await conn.execute(
                    "SELECT record FROM triad_samples WHERE run_id = %s AND n = ANY(%s) AND status = 'done'"
                    " AND record IS NOT NULL ORDER BY n LIMIT %s OFFSET %s",
                    (self.run_id, slots, limit, read),
                )
                page = [record for (record,) in await cursor.fetchall()]
                if not page:
                    break
                read += len(page)
                for record in page:
                    try:
                        found.append(DatasetRecord.model_validate(record))
                    except ValidationError:
                        continue
        return found[:limit]

    async def rejection(self, n: int) -> dict[str, Any] | None:
        """The rejected.jsonl entry of slot `n`, None when it has none."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT rejection FROM triad_samples WHERE run_id = %s AND n = %s", (self.run_id, n)
            )
            row = await cursor.fetchone()
            return row[0] if row else None
