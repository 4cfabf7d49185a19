"""Read-only access to the user's langchain-postgres vector store: lookup, sampling and similarity search.

Two search paths serve one ranking: SQL on the store (`graph.store.search`), and for a collection whose
vectors fit in memory, `graph.store.vectors`. Both share the read-only pool, the chunk cache and the
vector snapshot held here.
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import psycopg
from langchain_core.embeddings import Embeddings
from psycopg import sql
from psycopg_pool import AsyncConnectionPool

from graph.config.errors import UserError
from graph.config.settings import MAX_CHUNK_CHARS
from graph.store.layout import READ_ONLY_SESSION, ColumnChoice, _connect, detect_layout
from graph.store.reader import POOL_TIMEOUT_S, Chunk, CollectionReader, Hit
from graph.store.search import StoreSearch
from graph.store.usable import PROCEDURE_PROBE_ROWS, UsableChunks
from graph.store.vectors import VectorIndex, load_vector_index
from nodes.common import normalise_text

#: Up to this many chunks, sampling draws from the full id list held in memory (exactly uniform).
#: Above it, sampling reads random pages with TABLESAMPLE SYSTEM instead of scanning the table.
IN_MEMORY_SAMPLING_LIMIT = 50_000

#: Exact search holds the collection's vectors in memory (float32) when they take at most this many
#: bytes: one matrix-vector product per query instead of a scan that reads every stored vector.
IN_MEMORY_VECTOR_BYTES = 256 * 2**20

#: With its vectors in memory, a collection's usable texts come along when they take at most this many
#: bytes: a sample then reads its seed and neighbours without a query.
IN_MEMORY_TEXT_BYTES = 64 * 2**20

#: Chunks kept in memory once read (least recently used first out).
CHUNK_CACHE_SIZE = 4096

#: Extra hits fetched by neighbour queries so that dropping duplicate texts still leaves n.
DUPLICATE_HEADROOM = 5


#: Connections the corpus keeps open for concurrent samples.
POOL_SIZE = 8


class Corpus:
    """A read-only view of one collection: lookup, sampling and similarity search, made of its parts.

    - `reader` (`CollectionReader`): the SQL every query shares and what the collection holds (its counts,
      documents, dimension);
    - `usable` (`UsableChunks`): the ids of its usable chunks, listed and sampled;
    - `sql_search` (`StoreSearch`): its rows ranked by distance in SQL;
    - the in-memory vectors (`graph.store.vectors`), loaded once where they fit, and a cache of chunks read.

    Methods are coroutines on a small pool of read-only connections, so many samples can query
    at once.
    """

    def __init__(self, reader: CollectionReader, embeddings: Embeddings | None = None) -> None:
        self.reader = reader
        self.usable = UsableChunks(reader)
        self.sql_search = StoreSearch(reader)
        self.embeddings = embeddings
        """The collection's embedding model, for search by text (set once it is loaded)."""
        self._vectors: asyncio.Task[VectorIndex | None] | None = None
        self._chunks: OrderedDict[str, Chunk] = OrderedDict()
        self._resident: dict[str, Chunk] = {}
        """Usable chunks read with the in-memory vectors (a snapshot, like them)."""
        self.in_memory_vector_bytes = IN_MEMORY_VECTOR_BYTES
        self.in_memory_text_bytes = IN_MEMORY_TEXT_BYTES

    @property
    def collection(self) -> str:
        return self.reader.collection

    @property
    def max_chars(self) -> int:
        """Longer chunks are left out of sampling and neighbour search."""
        return self.reader.max_chars

    @property
    def pool(self) -> AsyncConnectionPool:
        """The read-only connection pool (for health checks after a database outage)."""
        return self.reader.pool

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
        allow_empty: bool = False,
    ) -> Corpus:
        """Connect read-only and find the collection; a missing one is a `UserError`, and so is an empty one
        unless `allow_empty` (a check of a dataset against a store that lost every chunk).

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
            reader = CollectionReader(pool, layout, collection, max_chars=max_chars)
            if not allow_empty and await reader.is_empty():
                raise UserError(f"collection {collection!r} is empty; ingest documents with `python -m graph.ingest`")
            await reader.survey_dimensions()
        except BaseException:
            await pool.close()
            raise
        return cls(reader, embeddings)

    async def close(self) -> None:
        if self._vectors is not None and not self._vectors.done():
            # Cancelled, then awaited: the server is told to stop the query before the pool closes under it.
            self._vectors.cancel()
            await asyncio.wait([self._vectors])
        await self.reader.pool.close()

    async def __aenter__(self) -> Corpus:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # -- operations -----------------------------------------------------------------------------

    async def get(self, ids: Sequence[str]) -> list[Chunk]:
        """The chunks with these ids, in the order asked; unknown ids are left out.

        Chunks read with the in-memory vectors, or read before (a bounded cache: a run reads the same
        neighbours again and again), come without a query.
        """
        layout = self.reader.layout
        resident = self._resident
        wanted = self.reader.valid_ids(ids, known=resident)
        missing = [
            chunk_id for chunk_id in dict.fromkeys(wanted) if chunk_id not in resident and chunk_id not in self._chunks
        ]
        if missing:
            array_type = sql.SQL("uuid[]") if layout.id_type == "uuid" else sql.SQL("text[]")
            query = sql.SQL("SELECT {cols} FROM {table} WHERE {scope} AND {id} = ANY(%s::{array_type})").format(
                cols=self.reader.columns(),
                table=layout.table,
                scope=layout.scope,
                id=layout.id_column,
                array_type=array_type,
            )
            for row in await self.reader.fetch(query, (*layout.scope_params, missing)):
                self._chunks[row[0]] = self.reader.chunk_from_row(row)
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
        self,
        k: int,
        *,
        exclude: Iterable[str] = (),
        min_chars: int = 0,
        rng: random.Random | None = None,
        procedural: bool = False,
    ) -> list[str]:
        """Up to `k` distinct random usable chunk ids, none in `exclude`, each at least `min_chars` long.

        A collection of up to `IN_MEMORY_SAMPLING_LIMIT` chunks is sampled exactly uniformly from
        its id list (read once). A larger one is sampled with TABLESAMPLE SYSTEM, which reads a
        few random pages instead of the table: every chunk has the same chance, at a cost that does
        not grow with the table. Pass `rng` for a reproducible draw; `procedural` draws only chunks that hold
        a procedure (`state.procedure`).
        """
        rng = rng or random.Random()
        excluded = set(exclude)
        if await self.reader.estimated_rows() <= IN_MEMORY_SAMPLING_LIMIT:
            candidates = [i for i in await self.usable.ids_with_min_chars(min_chars, procedural) if i not in excluded]
            return rng.sample(candidates, min(k, len(candidates)))
        return await self.usable.sample_pages(k, excluded, min_chars, rng, procedural)

    async def find_procedure(self, min_chars: int) -> tuple[bool, int | None]:
        """Whether a usable chunk at least `min_chars` long holds a procedure (`state.procedure`), and how many
        rows the answer rests on: None for all of them (a collection sampled from its id list, read as procedural
        draws read it anyway), else the size of the page sample a larger one is asked about."""
        if await self.reader.estimated_rows() <= IN_MEMORY_SAMPLING_LIMIT:
            return bool(await self.usable.ids_with_min_chars(min_chars, procedural=True)), None
        return await self.usable.probe_procedure(min_chars), PROCEDURE_PROBE_ROWS

    async def neighbours(self, chunk_id: str, n: int) -> list[Hit]:
        """The `n` usable chunks nearest to a stored chunk by its stored embedding.

        The chunk itself, chunks with the same text as it, repeated texts, blank chunks and chunks
        over `max_chars` are left out.
        """
        limit = n + DUPLICATE_HEADROOM
        index = await self.vector_index()
        if index is not None and chunk_id in index.position:
            at = index.position[chunk_id]
            ranked = index.nearest_to_row(at, limit)
            found = {chunk.id: chunk for chunk in await self.get([chunk_id, *(hit_id for hit_id, _ in ranked)])}
            seed = found.get(chunk_id)
            rows = self._ranked_rows(ranked, found)
        else:
            seed = next(iter(await self.get([chunk_id])), None)
            rows = await self.sql_search.nearest_to_stored(seed.id, limit) if seed is not None else []
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
        await self.reader.check_dimension(len(vector))
        limit = n + DUPLICATE_HEADROOM
        index = await self.vector_index()
        if index is not None:
            ranked = index.nearest(np.asarray(vector, dtype=np.float32), limit)
            rows = self._ranked_rows(ranked, {chunk.id: chunk for chunk in await self.get([i for i, _ in ranked])})
        else:
            literal = "[" + ",".join(repr(float(x)) for x in vector) + "]"
            rows = await self.sql_search.nearest(sql.SQL("%s::vector"), (literal,), limit)
        return self._distinct_hits(rows, n, seen=set())

    @staticmethod
    def _ranked_rows(ranked: list[tuple[str, float]], found: dict[str, Chunk]) -> list[tuple[Any, ...]]:
        """Rows shaped like the SQL search's, in ranked order; chunks deleted since are skipped."""
        return [(c.id, c.text, c.metadata, d) for c, d in ((found.get(i), d) for i, d in ranked) if c is not None]

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
        index, self._resident = await load_vector_index(
            self.reader,
            exact_search_limit=self.sql_search.exact_search_limit,
            vector_budget=self.in_memory_vector_bytes,
            text_budget=self.in_memory_text_bytes,
        )
        return index

    def _distinct_hits(self, rows: list[tuple[Any, ...]], n: int, seen: set[str]) -> list[Hit]:
        hits = []
        for row in rows:
            key = normalise_text(row[1])
            if key in seen:
                continue
            seen.add(key)
            hits.append(Hit(chunk=self.reader.chunk_from_row(row), distance=float(row[3])))
            if len(hits) == n:
                break
        return hits
