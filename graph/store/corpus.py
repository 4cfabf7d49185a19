"""Read-only access to the user's langchain-postgres vector store: counting, lookup, sampling, search.

The collection's layout (`graph.store.layout`) is the only layout-specific part of every query.
Every statement is a SELECT with bound values and quoted identifiers, and every session is opened
read-only, so pointing triad at a production store cannot change it.

`Corpus` is one large class on purpose: its lookups, its sampling and both search paths
(SQL and the in-memory vectors of `graph.store.vectors`) share one read-only pool, the chunk cache,
the row estimate and the vector snapshot; split apart, each piece would hand all of these back and
forth.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg
from langchain_core.embeddings import Embeddings
from psycopg import sql
from psycopg.rows import tuple_row
from psycopg_pool import AsyncConnectionPool

from graph.config.errors import UserError
from graph.config.settings import MAX_CHUNK_CHARS
from graph.store.layout import READ_ONLY_SESSION, ColumnChoice, Layout, _connect, detect_layout
from graph.store.vectors import VectorIndex, _VectorBytes
from nodes.common import normalise_text

#: Up to this many chunks, sampling draws from the full id list held in memory (exactly uniform).
#: Above it, sampling reads random pages with TABLESAMPLE SYSTEM instead of scanning the table.
IN_MEMORY_SAMPLING_LIMIT = 50_000

#: Up to this many rows, similarity search is exact; above it, an HNSW index (approximate) serves it.
EXACT_SEARCH_LIMIT = 20_000

#: Exact search holds the collection's vectors in memory (float32) when they take at most this many
#: bytes: one matrix-vector product per query instead of a scan that reads every stored vector.
IN_MEMORY_VECTOR_BYTES = 256 * 2**20

#: With its vectors in memory, a collection's usable texts come along when they take at most this many
#: bytes: a sample then reads its seed and neighbours without a query.
IN_MEMORY_TEXT_BYTES = 64 * 2**20

#: Seconds a query waits at most for a pooled connection.
POOL_TIMEOUT_S = 30.0

#: Chunks kept in memory once read (least recently used first out).
CHUNK_CACHE_SIZE = 4096

#: Extra hits fetched by neighbour queries so that dropping duplicate texts still leaves n.
DUPLICATE_HEADROOM = 5


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


#: Connections the corpus keeps open for concurrent samples.
POOL_SIZE = 8


class Corpus:
    """A read-only view of one collection: counting, lookup, sampling and similarity search.

    Methods are coroutines on a small pool of read-only connections, so many samples can query
    at once.
    """

    def __init__(
        self,
        pool: AsyncConnectionPool,
        layout: Layout,
        collection: str,
        embeddings: Embeddings | None = None,
        *,
        max_chars: int = MAX_CHUNK_CHARS,
    ) -> None:
        self._pool = pool
        self.layout = layout
        self.collection = collection
        self.embeddings = embeddings
        """The collection's embedding model, for search by text (set once it is loaded)."""
        self._all_ids: list[str] | None = None
        self._rows_estimate: float | None = None
        self.exact_search_limit = EXACT_SEARCH_LIMIT
        self._all_ids_min_chars = 0
        self._dimension: int | None = layout.declared_dimension
        self._other_dimensions = 0
        """Embedded rows whose dimension is not the collection's (a plain `vector` column can mix them)."""
        self._vectors: asyncio.Task[VectorIndex | None] | None = None
        self._chunks: OrderedDict[str, Chunk] = OrderedDict()
        self._resident: dict[str, Chunk] = {}
        """Usable chunks read with the in-memory vectors (a snapshot, like them)."""
        self.in_memory_vector_bytes = IN_MEMORY_VECTOR_BYTES
        self.in_memory_text_bytes = IN_MEMORY_TEXT_BYTES
        self.max_chars = max_chars
        """Longer chunks are left out of sampling and neighbour search."""

    @classmethod
    async def open(
        cls,
        url: str,
        collection: str,
        *,
        schema: str = "public",
        columns: ColumnChoice | None = None,
        embeddings: Embeddings | None = None,
        max_chars: int = MAX_CHUNK_CHARS,
        pool_timeout_s: float = POOL_TIMEOUT_S,
    ) -> Corpus:
        """Connect read-only and find the collection; a missing or empty one is a `UserError`.

        `columns` names a table's columns and the store's distance where detection should not decide.
        A query waits at most `pool_timeout_s` for a connection (e.g. while the server restarts).
        """
        async with await _connect(url) as conn:
            layout = await detect_layout(conn, collection, schema, columns)
        pool = AsyncConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs=READ_ONLY_SESSION,
            open=False,
            timeout=pool_timeout_s,
        )
        await pool.open()
        try:
            corpus = cls(pool, layout, collection, embeddings, max_chars=max_chars)
            if await corpus.is_empty():
                raise UserError(f"collection {collection!r} is empty; ingest documents with `python -m graph.ingest`")
            await corpus._survey_dimensions()
        except BaseException:
            await pool.close()
            raise
        return corpus

    @property
    def pool(self) -> AsyncConnectionPool:
        """The read-only connection pool (for health checks after a database outage)."""
        return self._pool

    async def close(self) -> None:
        if self._vectors is not None and not self._vectors.done():
            # Cancelled, then awaited: the server is told to stop the query before the pool closes under it.
            self._vectors.cancel()
            await asyncio.wait([self._vectors])
        await self._pool.close()

    async def __aenter__(self) -> Corpus:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # -- query plumbing -------------------------------------------------------------------------

    def _columns(self) -> sql.Composable:
        layout = self.layout
        return sql.SQL("{id}::text, {text}, {meta}").format(
            id=layout.id_column, text=layout.text_column, meta=layout.metadata
        )

    def _embedded(self) -> sql.Composable:
        """Rows with an embedding of the collection's dimension (a pending or failed embedding job leaves
        none; a plain `vector` column may hold other dimensions, which no query can compare)."""
        emb = self.layout.embedding_column
        if not self._other_dimensions:
            return sql.SQL("{} IS NOT NULL").format(emb)
        return sql.SQL("{emb} IS NOT NULL AND vector_dims({emb}) = {dim}").format(
            emb=emb, dim=sql.Literal(self._dimension)
        )

    async def _survey_dimensions(self) -> None:
        """For a plain `vector` column: the dimension most rows have is the collection's, the others are left out."""
        if self.layout.declared_dimension is not None:
            return
        layout = self.layout
        query = sql.SQL(
            "SELECT vector_dims({emb}), count(*) FROM {table} WHERE {scope} AND {emb} IS NOT NULL"
            " GROUP BY 1 ORDER BY 2 DESC, 1"
        ).format(emb=layout.embedding_column, table=layout.table, scope=layout.scope)
        rows = await self._fetch(query, layout.scope_params)
        if rows:
            self._dimension = int(rows[0][0])
            self._other_dimensions = sum(int(count) for _, count in rows[1:])

    def _id_param(self) -> sql.Composable:
        return sql.SQL("%s::uuid") if self.layout.id_type == "uuid" else sql.SQL("%s::text")

    def _valid_ids(self, ids: Iterable[str]) -> list[str]:
        """Ids that can exist in this layout (a non-UUID string cannot be a PGVectorStore id)."""
        if self.layout.id_type != "uuid":
            return list(ids)
        valid = []
        for chunk_id in ids:
            try:
                valid.append(str(uuid.UUID(chunk_id)))
            except ValueError:
                continue
        return valid

    async def _fetch(
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

    def _within_byte_bound(self) -> sql.Composable:
        """Texts whose byte length could still hold at most `max_chars` characters (4 bytes each at most).

        The byte length of a stored text is read without decompressing it, unlike its character
        length: a cheap bound that keeps huge chunks out of scans (exact checks follow in Python).
        """
        return sql.SQL("(octet_length({text}) <= {most})").format(
            text=self.layout.text_column, most=sql.Literal(4 * int(self.max_chars))
        )

    def _usable(self) -> sql.Composable:
        """Rows worth a prompt: at least %s characters besides whitespace, at most `max_chars` in all, and
        an embedding (a row whose embedding job is pending or failed has none).

        The minimum is a bound value (the caller passes it); the maximum is an integer we own.
        """
        text = self.layout.text_column
        return sql.SQL("length(btrim({text}, {blank})) >= %s AND length({text}) <= {most} AND {embedded}").format(
            text=text,
            blank=sql.Literal(WHITESPACE),
            most=sql.Literal(int(self.max_chars)),
            embedded=self._embedded(),
        )

    @staticmethod
    def _chunk(row: Sequence[Any]) -> Chunk:
        metadata = row[2] if isinstance(row[2], dict) else {}
        return Chunk(id=row[0], text=row[1], metadata=metadata)

    # -- operations -----------------------------------------------------------------------------

    async def count(self) -> int:
        """Number of chunks in the collection."""
        layout = self.layout
        query = sql.SQL("SELECT count(*) FROM {table} WHERE {scope}").format(table=layout.table, scope=layout.scope)
        rows = await self._fetch(query, layout.scope_params)
        return int(rows[0][0])

    async def is_empty(self) -> bool:
        """Whether the collection has no chunk (reads one row at most)."""
        layout = self.layout
        query = sql.SQL("SELECT 1 FROM {table} WHERE {scope} LIMIT 1").format(table=layout.table, scope=layout.scope)
        return not await self._fetch(query, layout.scope_params)

    async def room(self, min_seed_chars: int) -> tuple[int, int, int]:
        """Chunks in all, usable ones, and usable ones long enough to seed (`min_seed_chars`), in one scan.

        Usable chunks are those sampling and neighbour search can return: not blank, not over
        `max_chars`, with an embedding.
        """
        layout = self.layout
        # `_usable`'s rule, each row's lengths computed once.
        query = sql.SQL(
            "SELECT count(*), count(*) FILTER (WHERE kept >= 1 AND whole <= {most} AND embedded),"
            " count(*) FILTER (WHERE kept >= %s AND whole <= {most} AND embedded)"
            " FROM (SELECT length(btrim({text}, {blank})) AS kept, length({text}) AS whole,"
            " {embedded} AS embedded FROM {table} WHERE {scope}) AS lengths"
        ).format(
            most=sql.Literal(int(self.max_chars)),
            text=layout.text_column,
            blank=sql.Literal(WHITESPACE),
            embedded=self._embedded(),
            table=layout.table,
            scope=layout.scope,
        )
        rows = await self._fetch(query, (max(1, min_seed_chars), *layout.scope_params))
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
                "ingest longer chunks (python -m graph.ingest --chunk-size)"
            )
        return total - usable

    async def sources(self) -> dict[str | None, int]:
        """Chunks per document, by the `source` key of their metadata (None: chunks without one)."""
        layout = self.layout
        query = sql.SQL("SELECT {meta}->>'source', count(*) FROM {table} WHERE {scope} GROUP BY 1").format(
            meta=layout.metadata, table=layout.table, scope=layout.scope
        )
        return {source: int(count) for source, count in await self._fetch(query, layout.scope_params)}

    async def without_embedding(self) -> tuple[int, int]:
        """Chunks with no embedding (pending or failed embedding jobs), and chunks whose embedding has another
        dimension than the collection's: never seeds, neighbours or candidates."""
        layout = self.layout
        query = sql.SQL("SELECT count(*) FROM {table} WHERE {scope} AND {emb} IS NULL").format(
            table=layout.table, scope=layout.scope, emb=layout.embedding_column
        )
        return int((await self._fetch(query, layout.scope_params))[0][0]), self._other_dimensions

    async def get(self, ids: Sequence[str]) -> list[Chunk]:
        """The chunks with these ids, in the order asked; unknown ids are left out.

        Chunks read with the in-memory vectors, or read before (a bounded cache: a run reads the same
        neighbours again and again), come without a query.
        """
        layout = self.layout
        wanted = self._valid_ids(ids)
        resident = self._resident
        missing = [
            chunk_id for chunk_id in dict.fromkeys(wanted) if chunk_id not in resident and chunk_id not in self._chunks
        ]
        if missing:
            array_type = sql.SQL("uuid[]") if layout.id_type == "uuid" else sql.SQL("text[]")
            query = sql.SQL("SELECT {cols} FROM {table} WHERE {scope} AND {id} = ANY(%s::{array_type})").format(
                cols=self._columns(), table=layout.table, scope=layout.scope, id=layout.id_column, array_type=array_type
            )
            for row in await self._fetch(query, (*layout.scope_params, missing)):
                self._chunks[row[0]] = self._chunk(row)
        found = []
        for chunk_id in wanted:
            if (chunk := resident.get(chunk_id)) is not None:
                found.append(chunk)
            elif (chunk := self._chunks.get(chunk_id)) is not None:
                self._chunks.move_to_end(chunk_id)
                found.append(chunk)
        while len(self._chunks) > CHUNK_CACHE_SIZE:
            self._chunks.popitem(last=False)
        return found

    async def sample_ids(
        self, k: int, *, exclude: Iterable[str] = (), min_chars: int = 0, rng: random.Random | None = None
    ) -> list[str]:
        """Up to `k` distinct random usable chunk ids, none in `exclude`, each at least `min_chars` long.

        A collection of up to `IN_MEMORY_SAMPLING_LIMIT` chunks is sampled exactly uniformly from
        its id list (read once). A larger one is sampled with TABLESAMPLE SYSTEM, which reads a
        few random pages instead of the table: every chunk has the same chance, at a cost that does
        not grow with the table. Pass `rng` for a reproducible draw.
        """
        rng = rng or random.Random()
        excluded = set(exclude)
        if await self._estimated_rows() <= IN_MEMORY_SAMPLING_LIMIT:
            candidates = [i for i in await self._ids_with_min_chars(min_chars) if i not in excluded]
            return rng.sample(candidates, min(k, len(candidates)))
        return await self._sample_pages(k, excluded, min_chars, rng)

    async def neighbours(self, chunk_id: str, n: int) -> list[Hit]:
        """The `n` usable chunks nearest to a stored chunk by its stored embedding.

        The chunk itself, chunks with the same text as it, repeated texts, blank chunks and chunks
        over `max_chars` are left out.
        """
        limit = n + DUPLICATE_HEADROOM
        index = await self.vector_index()
        if index is not None and chunk_id in index.position:
            at = index.position[chunk_id]
            ranked = index.nearest(index.matrix[at], limit, exclude=at, usable_only=True)
            found = {chunk.id: chunk for chunk in await self.get([chunk_id, *(hit_id for hit_id, _ in ranked)])}
            seed = found.get(chunk_id)
            rows = self._ranked_rows(ranked, found)
        else:
            seed = next(iter(await self.get([chunk_id])), None)
            rows = await self._nearest_to_stored(seed.id, limit) if seed is not None else []
        if seed is None:
            raise UserError(f"no chunk with id {chunk_id!r} in collection {self.collection!r}")
        usable = [row for row in rows if row[1].strip() and len(row[1]) <= self.max_chars]
        return self._distinct_hits(usable, n, seen={normalise_text(seed.text)})

    async def search(self, text: str, n: int) -> list[Hit]:
        """The `n` chunks nearest to `text`, embedded with the collection's embedding model."""
        if self.embeddings is None:
            raise UserError("searching by text needs an embedding model; pass --embedding")
        vector = await asyncio.to_thread(self.embeddings.embed_query, text)
        return await self.search_vector(vector, n)

    async def search_vector(self, vector: Sequence[float], n: int) -> list[Hit]:
        """The `n` chunks nearest to an embedding made with the collection's model."""
        await self._check_dimension(len(vector))
        limit = n + DUPLICATE_HEADROOM
        index = await self.vector_index()
        if index is not None:
            ranked = index.nearest(np.asarray(vector, dtype=np.float32), limit)
            rows = self._ranked_rows(ranked, {chunk.id: chunk for chunk in await self.get([i for i, _ in ranked])})
        else:
            literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
            rows = await self._nearest(sql.SQL("%s::vector"), (literal,), limit)
        return self._distinct_hits(rows, n, seen=set())

    @staticmethod
    def _ranked_rows(ranked: list[tuple[str, float]], found: dict[str, Chunk]) -> list[tuple[Any, ...]]:
        """Rows shaped like the SQL search's, in ranked order; chunks deleted since are skipped."""
        return [(c.id, c.text, c.metadata, d) for c, d in ((found.get(i), d) for i, d in ranked) if c is not None]

    async def _nearest_to_stored(self, chunk_id: str, limit: int) -> list[tuple[Any, ...]]:
        layout = self.layout
        # A scalar subquery becomes an InitPlan parameter, so an HNSW index can serve the ORDER BY.
        target = sql.SQL("(SELECT {emb} FROM {table} WHERE {scope} AND {id} = {param})").format(
            emb=layout.embedding_column,
            table=layout.table,
            scope=layout.scope,
            id=layout.id_column,
            param=self._id_param(),
        )
        return await self._nearest(
            target, (*layout.scope_params, chunk_id), limit, exclude_id=chunk_id, usable_only=True
        )

    async def vector_index(self) -> VectorIndex | None:
        """The collection's vectors in memory when search is exact and they fit; else None (SQL serves).

        Loaded once, on first use, by whichever sample asks first; the others wait for the same load.
        Chunks added to the store afterwards are not in it (as they are not in the sampling id list).
        """
        self.warm()
        assert self._vectors is not None
        try:
            return await asyncio.shield(self._vectors)
        except psycopg.Error:
            self._vectors = None  # a later query tries again (after a database outage, say)
            raise

    def warm(self) -> None:
        """Start loading the in-memory vectors (when they fit) in the background, if not started yet.

        A run calls it as it opens the collection, so the load overlaps the rest of its start-up
        instead of delaying its first sample. A failed load is raised to the first search.
        """
        if self._vectors is None:
            self._vectors = asyncio.ensure_future(self._load_vectors())
            # Retrieved here too, so a run that ends before its first search leaves no unretrieved error.
            self._vectors.add_done_callback(lambda task: task.cancelled() or task.exception())

    async def _load_vectors(self) -> VectorIndex | None:
        rows_estimate = await self._estimated_rows()
        if rows_estimate > self.exact_search_limit:
            return None
        if rows_estimate * await self.dimension() * 4 > self.in_memory_vector_bytes:
            return None
        layout = self.layout
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                sql.SQL("SELECT pg_typeof({emb})::oid FROM {table} WHERE {scope} AND {embedded} LIMIT 1").format(
                    emb=layout.embedding_column, table=layout.table, scope=layout.scope, embedded=self._embedded()
                ),
                layout.scope_params,
            )
            (type_oid,) = await cursor.fetchone() or (None,)
            if type_oid is None:
                return None
            oversize = sql.SQL("NOT {}").format(self._within_byte_bound())
            cursor = await conn.execute(
                sql.SQL(
                    "SELECT coalesce(sum(octet_length({text})), 0) FROM {table} WHERE {scope} AND NOT {oversize}"
                ).format(text=layout.text_column, table=layout.table, scope=layout.scope, oversize=oversize),
                layout.scope_params,
            )
            (text_bytes,) = await cursor.fetchone() or (0,)
            with_texts = text_bytes <= self.in_memory_text_bytes
            binary = conn.cursor(binary=True, row_factory=tuple_row)
            binary.adapters.register_loader(type_oid, _VectorBytes)
            query = sql.SQL(
                "SELECT {id}::text, {oversize}, {emb}{texts} FROM {table} WHERE {scope} AND {embedded} ORDER BY {id}"
            ).format(
                id=layout.id_column,
                oversize=oversize,
                emb=layout.embedding_column,
                embedded=self._embedded(),
                texts=sql.SQL(", {}, {}").format(layout.text_column, layout.metadata) if with_texts else sql.SQL(""),
                table=layout.table,
                scope=layout.scope,
            )
            await binary.execute(query, layout.scope_params)
            rows = await binary.fetchall()
        index = await asyncio.to_thread(VectorIndex.from_rows, rows, layout.distance)
        if index is not None and with_texts:
            self._resident = {row[0]: self._chunk((row[0], row[3], row[4])) for row in rows if not row[1]}
        return index

    async def _nearest(
        self,
        target: sql.Composable,
        target_params: tuple[Any, ...],
        limit: int,
        *,
        exclude_id: str | None = None,
        usable_only: bool = False,
    ) -> list[tuple[Any, ...]]:
        """Rows ordered by the store's distance to `target`.

        Up to `exact_search_limit` rows the search is exact (index scans off, ties broken by id), so
        the same store always gives the same neighbours and recorded runs replay request for request;
        an HNSW index is approximate and its graph differs from build to build. Larger tables use
        the index.
        """
        layout = self.layout
        exact = await self._estimated_rows() <= self.exact_search_limit
        excluded = sql.SQL(" AND {id} <> {param}").format(id=layout.id_column, param=self._id_param())
        usable = sql.SQL(" AND {}").format(self._within_byte_bound())
        query = sql.SQL(
            "SELECT {cols}, {emb} {op} {target} FROM {table} WHERE {scope} AND {embedded}{excluded}{usable}"
            " ORDER BY {emb} {op} {target}{tie_break} LIMIT %s"
        ).format(
            cols=self._columns(),
            emb=layout.embedding_column,
            op=layout.operator,
            embedded=self._embedded(),
            target=target,
            table=layout.table,
            scope=layout.scope,
            excluded=excluded if exclude_id is not None else sql.SQL(""),
            usable=usable if usable_only else sql.SQL(""),
            tie_break=sql.SQL(", {}").format(layout.id_column) if exact else sql.SQL(""),
        )
        params = (
            *target_params,
            *layout.scope_params,
            *((exclude_id,) if exclude_id is not None else ()),
            *target_params,
            limit,
        )
        return await self._fetch(query, params, exact=exact)

    async def dimension(self) -> int:
        """Dimension of the stored embeddings."""
        if self._dimension is None:
            layout = self.layout
            query = sql.SQL(
                "SELECT vector_dims({emb}) FROM {table} WHERE {scope} AND {emb} IS NOT NULL LIMIT 1"
            ).format(emb=layout.embedding_column, table=layout.table, scope=layout.scope)
            rows = await self._fetch(query, layout.scope_params)
            if not rows:
                raise UserError(
                    f"no chunk of collection {self.collection!r} has an embedding yet; embed it, or ingest it with "
                    "`python -m graph.ingest`"
                )
            self._dimension = int(rows[0][0])
        return self._dimension

    # -- helpers --------------------------------------------------------------------------------

    async def check_embedding(self, model: Embeddings) -> None:
        """Fail with one line when `model` gives vectors of another dimension than the collection stores."""
        vector = await asyncio.to_thread(model.embed_query, "dimension check")
        await self._check_dimension(len(vector))

    async def _check_dimension(self, model_dimension: int) -> None:
        stored = await self.dimension()
        if stored != model_dimension:
            raise UserError(
                f"collection {self.collection!r} stores {stored}-d embeddings but the embedding model gives "
                f"{model_dimension}-d; pass --embedding with the model that filled the collection"
            )

    def _distinct_hits(self, rows: list[tuple[Any, ...]], n: int, seen: set[str]) -> list[Hit]:
        hits = []
        for row in rows:
            key = normalise_text(row[1])
            if key in seen:
                continue
            seen.add(key)
            hits.append(Hit(chunk=self._chunk(row), distance=float(row[3])))
            if len(hits) == n:
                break
        return hits

    async def _estimated_rows(self) -> float:
        """Planner's row estimate of the underlying table, read once (exact counts scan)."""
        if self._rows_estimate is None:
            query = sql.SQL("SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)")
            async with self._pool.connection() as conn:
                name = self.layout.table.as_string(conn)
            rows = await self._fetch(query, (name,))
            estimate = float(rows[0][0]) if rows else -1.0
            # -1 means never analysed; count exactly then (only small or new tables are in that state).
            self._rows_estimate = estimate if estimate >= 0 else float(await self.count())
        return self._rows_estimate

    async def _ids_with_min_chars(self, min_chars: int) -> list[str]:
        if self._all_ids is None or self._all_ids_min_chars != min_chars:
            layout = self.layout
            query = sql.SQL("SELECT {id}::text FROM {table} WHERE {scope} AND {usable} ORDER BY 1").format(
                id=layout.id_column, table=layout.table, scope=layout.scope, usable=self._usable()
            )
            self._all_ids = [row[0] for row in await self._fetch(query, (*layout.scope_params, max(1, min_chars)))]
            self._all_ids_min_chars = min_chars
        return self._all_ids

    async def _sample_pages(self, k: int, excluded: set[str], min_chars: int, rng: random.Random) -> list[str]:
        layout = self.layout
        table_rows = await self._estimated_rows()
        # Fraction of the collection in a shared (legacy) table, to size the page sample.
        share = max(await self.count() / table_rows, 1e-6) if layout.kind == "legacy" else 1.0
        percent = min(100.0, 100.0 * 4 * (k + 8) / (table_rows * share))
        chosen: list[str] = []
        for _ in range(8):
            query = sql.SQL(
                "SELECT {id}::text FROM {table} TABLESAMPLE SYSTEM (%s) REPEATABLE (%s) WHERE {scope} AND {usable}"
            ).format(id=layout.id_column, table=layout.table, scope=layout.scope, usable=self._usable())
            rows = await self._fetch(query, (percent, rng.randrange(2**31), *layout.scope_params, max(1, min_chars)))
            fresh = [row[0] for row in rows if row[0] not in excluded and row[0] not in chosen]
            rng.shuffle(fresh)
            chosen += fresh[: k - len(chosen)]
            if len(chosen) >= k or percent >= 100.0:
                break
            percent = min(100.0, percent * 4)
        return chosen
