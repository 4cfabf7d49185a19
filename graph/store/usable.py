"""The collection's usable chunks, for sampling seeds: their ids (all, or those holding numbered steps),
the ids of given documents, and a metadata value of each, read with one shape of query."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from psycopg import sql

from graph.store.reader import CollectionReader
from state.procedure import PROCEDURE_PATTERNS


class UsableChunks(CollectionReader):
    """A collection reader that also lists and samples the ids of its usable chunks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._usable_ids: dict[tuple[int, bool], list[str]] = {}
        """Usable chunk ids per (minimum length, procedural only), read once."""

    def _usable_rows(self, columns: sql.Composable, condition: sql.Composable) -> sql.Composed:
        """SELECT `columns` of the usable rows (`_usable`) that meet `condition`, by id. Parameters: those of
        `columns`, the scope's, the minimum length, then those of `condition`."""
        layout = self.layout
        return sql.SQL("SELECT {columns} FROM {table} WHERE {scope} AND {usable} AND {condition} ORDER BY 1").format(
            columns=columns, table=layout.table, scope=layout.scope, usable=self._usable(), condition=condition
        )

    async def _ids_with_min_chars(self, min_chars: int, procedural: bool = False) -> list[str]:
        """The usable chunks' ids (with `procedural`, those holding numbered steps), read once per kind."""
        if (min_chars, procedural) not in self._usable_ids:
            condition = self.procedural() if procedural else sql.SQL("true")
            query = self._usable_rows(sql.SQL("{}::text").format(self.layout.id_column), condition)
            rows = await self._fetch(query, (*self.layout.scope_params, max(1, min_chars)))
            self._usable_ids[min_chars, procedural] = [row[0] for row in rows]
        return self._usable_ids[min_chars, procedural]

    def procedural(self) -> sql.Composable:
        """Rows holding numbered steps (`state.procedure`): the two patterns, case-insensitive."""
        text = self.layout.text_column
        return sql.SQL(" AND ").join(
            sql.SQL("{text} ~* {pattern}").format(text=text, pattern=sql.Literal(pattern))
            for pattern in PROCEDURE_PATTERNS
        )

    async def metadata_values(self, key: str, min_chars: int) -> list[tuple[str, str | None, str | None]]:
        """(id, source, value of metadata `key`) of every usable chunk at least `min_chars` long."""
        layout = self.layout
        columns = sql.SQL("{id}::text, {meta}->>'source', {meta}->>%s").format(
            id=layout.id_column, meta=layout.metadata
        )
        rows = await self._fetch(
            self._usable_rows(columns, sql.SQL("true")), (key, *layout.scope_params, max(1, min_chars))
        )
        return [(chunk_id, source, value) for chunk_id, source, value in rows]

    async def ids_of_sources(self, sources: Sequence[str], min_chars: int) -> list[str]:
        """The usable chunks of these documents (by their metadata's `source`), each at least `min_chars` long."""
        if not sources:
            return []
        layout = self.layout
        query = self._usable_rows(
            sql.SQL("{}::text").format(layout.id_column),
            sql.SQL("{meta}->>'source' = ANY(%s::text[])").format(meta=layout.metadata),
        )
        return [row[0] for row in await self._fetch(query, (*layout.scope_params, max(1, min_chars), list(sources)))]

    async def _sample_pages(
        self, k: int, excluded: set[str], min_chars: int, rng: random.Random, procedural: bool = False
    ) -> list[str]:
        layout = self.layout
        table_rows = await self.estimated_rows()
        # Fraction of the collection in a shared (legacy) table, to size the page sample.
        share = max(await self.count() / table_rows, 1e-6) if layout.kind == "legacy" else 1.0
        percent = min(100.0, 100.0 * 4 * (k + 8) / (table_rows * share))
        chosen: list[str] = []
        for _ in range(8):
            query = sql.SQL(
                "SELECT {id}::text FROM {table} TABLESAMPLE SYSTEM (%s) REPEATABLE (%s) WHERE {scope} AND {usable}"
                " AND {procedural}"
            ).format(
                id=layout.id_column,
                table=layout.table,
                scope=layout.scope,
                usable=self._usable(),
                procedural=self.procedural() if procedural else sql.SQL("true"),
            )
            rows = await self._fetch(query, (percent, rng.randrange(2**31), *layout.scope_params, max(1, min_chars)))
            fresh = [row[0] for row in rows if row[0] not in excluded and row[0] not in chosen]
            rng.shuffle(fresh)
            chosen += fresh[: k - len(chosen)]
            if len(chosen) >= k or percent >= 100.0:
                break
            percent = min(100.0, percent * 4)
        return chosen
