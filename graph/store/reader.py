"""Reading one collection of the user's langchain-postgres store: its SQL, its counts and its dimension.

The collection's layout (`graph.store.layout`) is the only layout-specific part of every query.
Every statement is a SELECT with bound values and quoted identifiers, and every session is opened
read-only, so pointing triad at a production store cannot change it.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import defaultdict
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from psycopg import sql
from psycopg.rows import tuple_row
from psycopg_pool import AsyncConnectionPool

from graph.config.errors import UserError
from graph.config.settings import MAX_CHUNK_CHARS
from graph.store.embeddings import embedding_dimension
from graph.store.layout import Layout
from state.evidence import document_place, laid_out

#: Seconds a query waits at most for a pooled connection.
POOL_TIMEOUT_S = 30.0

#: Characters trimmed before a chunk's length is measured: a chunk of only these is blank.
WHITESPACE = " \t\r\n\x0b\x0c"


@dataclass(frozen=True)
class Chunk:
    """One chunk of the user's store, under the id the store gives it."""

    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Hit:
    """A chunk returned by a similarity query; `distance` is the store's (cosine, l2, or negative inner product)."""

    chunk: Chunk
    distance: float


class CollectionReader:
    """One collection on a pool of read-only connections: the SQL every query shares, what the
    collection holds (chunks in all, usable ones, documents) and the dimension of its embeddings."""

    def __init__(
        self, pool: AsyncConnectionPool, layout: Layout, collection: str, *, max_chars: int = MAX_CHUNK_CHARS
    ) -> None:
        self._pool = pool
        self.layout = layout
        self.collection = collection
        self.max_chars = max_chars
        """Longer chunks are left out of sampling and neighbour search."""
        self._rows_estimate: float | None = None
        self._dimension: int | None = layout.declared_dimension
        self._other_dimensions = 0
        """Embedded rows whose dimension is not the collection's (a plain `vector` column can mix them)."""

    @property
    def pool(self) -> AsyncConnectionPool:
        """The read-only connection pool (for health checks after a database outage)."""
        return self._pool

    # -- query plumbing -------------------------------------------------------------------------

    def columns(self) -> sql.Composable:
        layout = self.layout
        return sql.SQL("{id}::text, {text}, {meta}").format(
            id=layout.id_column, text=layout.text_column, meta=layout.metadata
        )

    def embedded_only(self) -> sql.Composable:
        """Rows with an embedding of the collection's dimension (a pending or failed embedding job leaves
        none; a plain `vector` column may hold other dimensions, which no query can compare)."""
        emb = self.layout.embedding_column
        if not self._other_dimensions:
            return sql.SQL("{} IS NOT NULL").format(emb)
        return sql.SQL("{emb} IS NOT NULL AND vector_dims({emb}) = {dim}").format(
            emb=emb, dim=sql.Literal(self._dimension)
        )

    async def survey_dimensions(self) -> None:
        """For a plain `vector` column: the dimension most rows have is the collection's, the others are left out."""
        if self.layout.declared_dimension is not None:
            return
        layout = self.layout
        query = sql.SQL(
            "SELECT vector_dims({emb}), count(*) FROM {table} WHERE {scope} AND {emb} IS NOT NULL"
            " GROUP BY 1 ORDER BY 2 DESC, 1"
        ).format(emb=layout.embedding_column, table=layout.table, scope=layout.scope)
        rows = await self.fetch(query, layout.scope_params)
        if rows:
            self._dimension = int(rows[0][0])
            self._other_dimensions = sum(int(count) for _, count in rows[1:])

    def id_param(self) -> sql.Composable:
        return sql.SQL("%s::uuid") if self.layout.id_type == "uuid" else sql.SQL("%s::text")

    def valid_ids(self, ids: Iterable[str], known: Container[str] = ()) -> list[str]:
        """Ids that can exist in this layout (a non-UUID string cannot be a PGVectorStore id); an id in `known`,
        one the store wrote and as it writes it, is taken as it is."""
        if self.layout.id_type != "uuid":
            return list(ids)
        valid = []
        for chunk_id in ids:
            if chunk_id in known:
                valid.append(chunk_id)
                continue
            try:
                valid.append(str(uuid.UUID(chunk_id)))
            except ValueError:
                continue
        return valid

    async def fetch(
        self, query: sql.SQL | sql.Composed, params: Sequence[Any], *, exact: bool = False
    ) -> list[tuple[Any, ...]]:
        async with self._pool.connection() as conn:
            cursor = conn.cursor(row_factory=tuple_row)
            if not exact:
                await cursor.execute(query, params)
                return await cursor.fetchall()
            async with conn.transaction():
                await cursor.execute("SET LOCAL enable_indexscan = off")
                await cursor.execute(query, params)
                return await cursor.fetchall()

    def within_byte_bound(self) -> sql.Composable:
        """Texts whose byte length could still hold at most `max_chars` characters (4 bytes each at most).

        The byte length of a stored text is read without decompressing it, unlike its character
        length: a cheap bound that keeps huge chunks out of scans (exact checks follow in Python).
        """
        return sql.SQL("(octet_length({text}) <= {most})").format(
            text=self.layout.text_column, most=sql.Literal(4 * int(self.max_chars))
        )

    def usable_condition(self) -> sql.Composable:
        """Rows worth a prompt: at least %s characters besides whitespace, at most `max_chars` in all, and
        an embedding (a row whose embedding job is pending or failed has none).

        The minimum is a bound value (the caller passes it); the maximum is an integer we own.
        """
        text = self.layout.text_column
        return sql.SQL("length(btrim({text}, {blank})) >= %s AND length({text}) <= {most} AND {embedded}").format(
            text=text,
            blank=sql.Literal(WHITESPACE),
            most=sql.Literal(int(self.max_chars)),
            embedded=self.embedded_only(),
        )

    @staticmethod
    def chunk_from_row(row: Sequence[Any]) -> Chunk:
        metadata = row[2] if isinstance(row[2], dict) else {}
        return Chunk(id=row[0], text=row[1], metadata=metadata)

    # -- what the collection holds --------------------------------------------------------------

    async def count(self) -> int:
        """Number of chunks in the collection."""
        layout = self.layout
        query = sql.SQL("SELECT count(*) FROM {table} WHERE {scope}").format(table=layout.table, scope=layout.scope)
        rows = await self.fetch(query, layout.scope_params)
        return int(rows[0][0])

    async def is_empty(self) -> bool:
        """Whether the collection has no chunk (reads one row at most)."""
        layout = self.layout
        query = sql.SQL("SELECT 1 FROM {table} WHERE {scope} LIMIT 1").format(table=layout.table, scope=layout.scope)
        return not await self.fetch(query, layout.scope_params)

    async def room(self, min_seed_chars: int) -> tuple[int, int, int]:
        """Chunks in all, usable ones, and usable ones long enough to seed (`min_seed_chars`), in one scan.

        Usable chunks are those sampling and neighbour search can return: not blank, not over
        `max_chars`, with an embedding.
        """
        layout = self.layout
        # `usable_condition`'s rule, each row's lengths computed once.
        query = sql.SQL(
            "SELECT count(*), count(*) FILTER (WHERE kept >= 1 AND whole <= {most} AND embedded),"
            " count(*) FILTER (WHERE kept >= %s AND whole <= {most} AND embedded)"
            " FROM (SELECT length(btrim({text}, {blank})) AS kept, length({text}) AS whole,"
            " {embedded} AS embedded FROM {table} WHERE {scope}) AS lengths"
        ).format(
            most=sql.Literal(int(self.max_chars)),
            text=layout.text_column,
            blank=sql.Literal(WHITESPACE),
            embedded=self.embedded_only(),
            table=layout.table,
            scope=layout.scope,
        )
        rows = await self.fetch(query, (max(1, min_seed_chars), *layout.scope_params))
        total, usable, seedable = rows[0]
        return int(total), int(usable), int(seedable)

    async def check_room(self, hops: int, min_seed_chars: int) -> int:
        """Fail with a `UserError` when no `hops`-hop question fits; else the number of chunks left out."""
        total, usable, seedable = await self.room(min_seed_chars)
        if usable < hops + 1:
            raise UserError(
                f"collection {self.collection!r} has {usable} usable chunk(s) of {total} (blank chunks, chunks over "
                f"{self.max_chars} characters and chunks without an embedding of the collection's dimension "
                "are left out); "
                f"a {hops}-hop question needs at least {hops + 1}: ingest more documents or lower --hops"
            )
        if seedable == 0:
            raise UserError(
                f"no chunk of collection {self.collection!r} has the {min_seed_chars} characters a seed needs; "
                "ingest longer chunks (python -m graph.ingest --chunk-size) or lower --min-chunk-chars"
            )
        return total - usable

    async def sources(self) -> dict[str | None, int]:
        """Chunks per document, by the `source` key of their metadata (None: chunks without one)."""
        layout = self.layout
        query = sql.SQL("SELECT {meta}->>'source', count(*) FROM {table} WHERE {scope} GROUP BY 1").format(
            meta=layout.metadata, table=layout.table, scope=layout.scope
        )
        return {source: int(count) for source, count in await self.fetch(query, layout.scope_params)}

    async def documents(self) -> dict[str, str]:
        """The text of each document the collection was cut from, in the characters `graph.ingest` counted
        `start_index` in: every chunk with a `source` and a `start_index` laid at its place (overlapping chunks
        write the same characters; a gap between two chunks stays blank). Chunks without both are left out."""
        layout = self.layout
        query = sql.SQL("SELECT {columns} FROM {table} WHERE {scope}").format(
            columns=self.columns(), table=layout.table, scope=layout.scope
        )
        pieces: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for row in await self.fetch(query, layout.scope_params):
            chunk = self.chunk_from_row(row)
            place = document_place(chunk.metadata)
            if "source" in place and "start_index" in place:
                pieces[place["source"]].append((place["start_index"], chunk.text))
        # Each document from its first character: a blank piece at 0 makes the offsets count from there.
        return {source: laid_out([(0, ""), *placed]) for source, placed in pieces.items()}

    async def chunks_of_sources(self, sources: Sequence[str]) -> list[Chunk]:
        """Every chunk of these documents (by their metadata's `source`), whatever its length."""
        if not sources:
            return []
        layout = self.layout
        query = sql.SQL("SELECT {columns} FROM {table} WHERE {scope} AND {meta}->>'source' = ANY(%s::text[])").format(
            columns=self.columns(), table=layout.table, scope=layout.scope, meta=layout.metadata
        )
        return [self.chunk_from_row(row) for row in await self.fetch(query, (*layout.scope_params, list(sources)))]

    async def chunks_holding(self, fragment: str, limit: int = 50) -> list[Chunk]:
        """Chunks whose text holds `fragment` as written (a scan of the collection's texts), at most `limit`."""
        layout = self.layout
        query = sql.SQL("SELECT {columns} FROM {table} WHERE {scope} AND strpos({text}, %s) > 0 LIMIT %s").format(
            columns=self.columns(), table=layout.table, scope=layout.scope, text=layout.text_column
        )
        return [self.chunk_from_row(row) for row in await self.fetch(query, (*layout.scope_params, fragment, limit))]

    async def without_embedding(self) -> tuple[int, int]:
        """Chunks with no embedding (pending or failed embedding jobs), and chunks whose embedding has another
        dimension than the collection's: never seeds, neighbours or candidates."""
        layout = self.layout
        query = sql.SQL("SELECT count(*) FROM {table} WHERE {scope} AND {emb} IS NULL").format(
            table=layout.table, scope=layout.scope, emb=layout.embedding_column
        )
        return int((await self.fetch(query, layout.scope_params))[0][0]), self._other_dimensions

    async def dimension(self) -> int:
        """Dimension of the stored embeddings."""
        if self._dimension is None:
            layout = self.layout
            query = sql.SQL(
                "SELECT vector_dims({emb}) FROM {table} WHERE {scope} AND {emb} IS NOT NULL LIMIT 1"
            ).format(emb=layout.embedding_column, table=layout.table, scope=layout.scope)
            rows = await self.fetch(query, layout.scope_params)
            if not rows:
                raise UserError(
                    f"no chunk of collection {self.collection!r} has an embedding yet; embed it, or ingest it with "
                    "`python -m graph.ingest`"
                )
            self._dimension = int(rows[0][0])
        return self._dimension

    async def check_embedding(self, model: Embeddings) -> None:
        """Fail with one line when `model` gives vectors of another dimension than the collection stores."""
        await self.check_dimension(await asyncio.to_thread(embedding_dimension, model))

    async def check_dimension(self, model_dimension: int) -> None:
        stored = await self.dimension()
        if stored != model_dimension:
            raise UserError(
                f"collection {self.collection!r} stores {stored}-d embeddings but the embedding model gives "
                f"{model_dimension}-d; pass --embedding with the model that filled the collection"
            )

    async def ids_of_texts(self, texts: Sequence[str]) -> dict[str, str]:
        """The id of a chunk holding each of these texts exactly, where one does (one pass over the collection)."""
        if not texts:
            return {}
        layout = self.layout
        query = sql.SQL("SELECT {text}, {id}::text FROM {table} WHERE {scope} AND {text} = ANY(%s::text[])").format(
            text=layout.text_column, id=layout.id_column, table=layout.table, scope=layout.scope
        )
        return {text: chunk_id for text, chunk_id in await self.fetch(query, (*layout.scope_params, list(texts)))}

    async def modifications(self) -> int | None:
        """Rows inserted, updated and deleted in the collection's table since the server's statistics began: a
        counter that moves whenever the table changes (None where the server keeps no statistics of it)."""
        async with self._pool.connection() as conn:
            name = self.layout.table.as_string(conn)
        query = sql.SQL(
            "SELECT n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_all_tables WHERE relid = to_regclass(%s)"
        )
        rows = await self.fetch(query, (name,))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def estimated_rows(self) -> float:
        """Planner's row estimate of the underlying table, read once (exact counts scan)."""
        if self._rows_estimate is None:
            query = sql.SQL("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)")
            async with self._pool.connection() as conn:
                name = self.layout.table.as_string(conn)
            rows = await self.fetch(query, (name,))
            estimate = float(rows[0][0]) if rows else -1.0
            # -1 means never analysed; count exactly then (only small or new tables are in that state).
            self._rows_estimate = estimate if estimate >= 0 else float(await self.count())
        return self._rows_estimate
