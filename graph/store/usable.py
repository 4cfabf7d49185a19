"""The collection's usable chunks, for sampling seeds: their ids (all, or those holding a procedure),
the ids of given documents, and a metadata value of each, read with one shape of query."""

from __future__ import annotations

import random
from collections.abc import Sequence

from psycopg import sql

from graph.store.reader import CollectionReader
from state.procedure import BULLETED_HINT, BULLETED_PATTERN, NUMBERED_PATTERNS, SEQUENCE_HINT, SEQUENCE_PATTERN

#: About how many rows a large collection's question "does any chunk hold a procedure?" reads.
PROCEDURE_PROBE_ROWS = 20_000


class UsableChunks:
    """The ids of one collection's usable chunks (`CollectionReader.usable_condition`), listed and sampled
    through its reader."""

    def __init__(self, reader: CollectionReader) -> None:
        self.reader = reader
        self._usable_ids: dict[tuple[int, bool], list[str]] = {}
        """Usable chunk ids per (minimum length, procedural only), read once."""

    def usable_rows(self, columns: sql.Composable, condition: sql.Composable) -> sql.Composed:
        """SELECT `columns` of the usable rows (`usable_condition`) that meet `condition`, by id. Parameters: those of
        `columns`, the scope's, the minimum length, then those of `condition`."""
        layout = self.reader.layout
        return sql.SQL("SELECT {columns} FROM {table} WHERE {scope} AND {usable} AND {condition} ORDER BY 1").format(
            columns=columns,
            table=layout.table,
            scope=layout.scope,
            usable=self.reader.usable_condition(),
            condition=condition,
        )

    async def ids_with_min_chars(self, min_chars: int, procedural: bool = False) -> list[str]:
        """The usable chunks' ids (with `procedural`, those holding a procedure), read once per kind."""
        if (min_chars, procedural) not in self._usable_ids:
            condition = self.procedural() if procedural else sql.SQL("true")
            query = self.usable_rows(sql.SQL("{}::text").format(self.reader.layout.id_column), condition)
            rows = await self.reader.fetch(query, (*self.reader.layout.scope_params, max(1, min_chars)))
            self._usable_ids[min_chars, procedural] = [row[0] for row in rows]
        return self._usable_ids[min_chars, procedural]

    async def probe_procedure(self, min_chars: int) -> bool:
        """Whether a sample of about `PROCEDURE_PROBE_ROWS` rows (TABLESAMPLE SYSTEM) holds a usable chunk with a
        procedure, stopping at the first: the same cost on a million rows as on fifty thousand."""
        layout = self.reader.layout
        query = sql.SQL(
            "SELECT 1 FROM {table} TABLESAMPLE SYSTEM (%s) WHERE {scope} AND {usable} AND {procedural} LIMIT 1"
        ).format(
            table=layout.table, scope=layout.scope, usable=self.reader.usable_condition(), procedural=self.procedural()
        )
        percent = min(100.0, 100.0 * PROCEDURE_PROBE_ROWS / max(1, await self.reader.estimated_rows()))
        return bool(await self.reader.fetch(query, (percent, *layout.scope_params, max(1, min_chars))))

    def procedural(self) -> sql.Composable:
        """Rows holding a procedure (`state.procedure`), as Python finds them."""
        return procedural_condition(self.reader.layout.text_column)

    async def metadata_values(self, key: str, min_chars: int) -> list[tuple[str, str | None, str | None]]:
        """(id, source, value of metadata `key`) of every usable chunk at least `min_chars` long."""
        layout = self.reader.layout
        columns = sql.SQL("{id}::text, {meta}->>'source', {meta}->>%s").format(
            id=layout.id_column, meta=layout.metadata
        )
        rows = await self.reader.fetch(
            self.usable_rows(columns, sql.SQL("true")), (key, *layout.scope_params, max(1, min_chars))
        )
        return [(chunk_id, source, value) for chunk_id, source, value in rows]

    async def ids_of_sources(self, sources: Sequence[str], min_chars: int) -> list[str]:
        """The usable chunks of these documents (by their metadata's `source`), each at least `min_chars` long."""
        if not sources:
            return []
        layout = self.reader.layout
        query = self.usable_rows(
            sql.SQL("{}::text").format(layout.id_column),
            sql.SQL("{meta}->>'source' = ANY(%s::text[])").format(meta=layout.metadata),
        )
        return [
            row[0] for row in await self.reader.fetch(query, (*layout.scope_params, max(1, min_chars), list(sources)))
        ]

    async def sample_pages(
        self, k: int, excluded: set[str], min_chars: int, rng: random.Random, procedural: bool = False
    ) -> list[str]:
        """Up to `k` usable ids not in `excluded`, from random pages (TABLESAMPLE SYSTEM), more pages each round."""
        layout = self.reader.layout
        table_rows = await self.reader.estimated_rows()
        # Fraction of the collection in a shared (legacy) table, to size the page sample.
        share = max(await self.reader.count() / table_rows, 1e-6) if layout.kind == "legacy" else 1.0
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
                usable=self.reader.usable_condition(),
                procedural=self.procedural() if procedural else sql.SQL("true"),
            )
            rows = await self.reader.fetch(
                query, (percent, rng.randrange(2**31), *layout.scope_params, max(1, min_chars))
            )
            fresh = [row[0] for row in rows if row[0] not in excluded and row[0] not in chosen]
            rng.shuffle(fresh)
            chosen += fresh[: k - len(chosen)]
            if len(chosen) >= k or percent >= 100.0:
                break
            percent = min(100.0, percent * 4)
        return chosen


def procedural_condition(text: sql.Composable) -> sql.Composable:
    """A condition on the text column `text` that holds where `state.procedure` finds a procedure: its patterns,
    case-insensitive, each costly one behind its cheap hint (most chunks have no bulleted line and no sequence
    word, and PostgreSQL tries the bulleted pattern's many verbs at every position)."""

    def matches(pattern: str) -> sql.Composable:
        return sql.SQL("{text} ~* {pattern}").format(text=text, pattern=sql.Literal(pattern))

    numbered = sql.SQL(" AND ").join(matches(pattern) for pattern in NUMBERED_PATTERNS)
    bulleted = sql.SQL("{} AND {}").format(matches(BULLETED_HINT), matches(BULLETED_PATTERN))
    sequence = sql.SQL("{} AND {}").format(matches(SEQUENCE_HINT), matches(SEQUENCE_PATTERN))
    return sql.SQL("(({numbered}) OR ({bulleted}) OR ({sequence}))").format(
        numbered=numbered, bulleted=bulleted, sequence=sequence
    )
