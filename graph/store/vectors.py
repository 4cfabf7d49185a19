"""A collection's embeddings in memory, for exact search without a scan."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.adapt import Loader
from psycopg.rows import tuple_row

from graph.store.reader import Chunk, CollectionReader

#: Rows whose nearest chunks a `VectorIndex` remembers: a sample asks for the neighbours of its seed and of its
#: other chunks more than once (restarts, distractors), within a few steps.
ROWS_REMEMBERED = 1024


class _VectorBytes(Loader):
    """Loads a pgvector value in binary format as its raw bytes (parsed in bulk with numpy)."""

    def load(self, data: Any) -> bytes:
        return bytes(data)


@dataclass(frozen=True)
class VectorIndex:
    """A snapshot of a collection's embeddings for exact search in memory, by the store's distance.

    Rows are in id order, so ranking by (distance, position) breaks ties by id as the SQL search does.
    For cosine, rows are kept at unit length and zero vectors, which have no direction, are left out.
    """

    ids: list[str]
    matrix: np.ndarray
    """One float32 row per chunk (unit length for cosine)."""
    oversize: np.ndarray
    """True where a chunk's stored text is longer in bytes than neighbour search admits."""
    position: dict[str, int]
    distance: str = "cosine"
    squared_norms: np.ndarray | None = None
    """Each row's squared length, for l2."""
    _near_rows: OrderedDict[int, tuple[int, list[tuple[str, float]]]] = field(
        default_factory=OrderedDict, init=False, repr=False, compare=False
    )
    """The last `ROWS_REMEMBERED` answers of `nearest_to_row`: (the limit asked, the usable chunks found), by row."""

    @classmethod
    def from_rows(cls, rows: Sequence[tuple[str, bool, bytes]], distance: str = "cosine") -> VectorIndex | None:
        """From (id, oversize, binary vector) rows; None when the vectors differ in dimension."""
        if not rows:
            return None
        if len({len(row[2]) for row in rows}) != 1:
            return None
        # pgvector's binary form: dimension and a reserved word (2 bytes each), then big-endian float4s.
        # Filled row by row into one array, so the load never holds the vectors more than twice.
        matrix = np.empty((len(rows), (len(rows[0][2]) - 4) // 4), dtype=np.float32)
        for index, row in enumerate(rows):
            matrix[index] = np.frombuffer(row[2], dtype=">f4", offset=4)
        keep = np.ones(len(rows), dtype=bool)
        if distance == "cosine":
            norms = np.linalg.norm(matrix, axis=1)
            keep = norms > 0
            if not keep.all():
                matrix, norms = matrix[keep], norms[keep]
            matrix /= norms[:, None]
        ids = [row[0] for row, kept in zip(rows, keep, strict=True) if kept]
        return cls(
            ids=ids,
            matrix=matrix,
            oversize=np.array([row[1] for row in rows], dtype=bool)[keep],
            position={chunk_id: index for index, chunk_id in enumerate(ids)},
            distance=distance,
            squared_norms=np.einsum("ij,ij->i", matrix, matrix) if distance == "l2" else None,
        )

    def distances(self, query: np.ndarray) -> np.ndarray | None:
        """Each row's distance to `query` as pgvector computes it; None for a zero query under cosine."""
        query = query.astype(np.float32)
        if self.distance == "cosine":
            norm = float(np.linalg.norm(query))
            return None if norm == 0 else 1.0 - self.matrix @ (query / norm)
        products = self.matrix @ query
        if self.distance == "ip":
            return -products  # pgvector's <#> is the negative inner product
        assert self.squared_norms is not None
        return np.sqrt(np.maximum(self.squared_norms - 2.0 * products + float(query @ query), 0.0))

    def nearest_to_row(self, at: int, limit: int) -> list[tuple[str, float]]:
        """`nearest` to row `at`'s vector, the row itself and oversize chunks left out.

        The ranking is one order, by (distance, position), so the first `limit` of a longer answer is the answer:
        a remembered one serves any limit up to its own.
        """
        remembered = self._near_rows.get(at)
        # An answer shorter than its limit holds every usable chunk: it serves any limit.
        if remembered is None or (remembered[0] < limit and len(remembered[1]) == remembered[0]):
            remembered = (limit, self.nearest(self.matrix[at], limit, exclude=at, usable_only=True))
            self._near_rows[at] = remembered
        self._near_rows.move_to_end(at)
        while len(self._near_rows) > ROWS_REMEMBERED:
            self._near_rows.popitem(last=False)
        return remembered[1][:limit]

    def nearest(
        self, query: np.ndarray, limit: int, *, exclude: int | None = None, usable_only: bool = False
    ) -> list[tuple[str, float]]:
        """Up to `limit` (id, distance) pairs, nearest first, ties by id."""
        distances = self.distances(query)
        if distances is None or limit <= 0:
            return []
        allowed = np.ones(len(self.ids), dtype=bool)
        if usable_only:
            allowed &= ~self.oversize
        if exclude is not None:
            allowed[exclude] = False
        candidates = np.flatnonzero(allowed)
        if len(candidates) > limit:
            # Everything as near as the limit-th candidate, so ties at the cut are ranked by id too.
            cut = np.partition(distances[candidates], limit - 1)[limit - 1]
            candidates = candidates[distances[candidates] <= cut]
        ranked = candidates[np.lexsort((candidates, distances[candidates]))][:limit]
        return [(self.ids[index], float(distances[index])) for index in ranked]


async def load_vector_index(
    reader: CollectionReader, *, exact_search_limit: int, vector_budget: int, text_budget: int
) -> tuple[VectorIndex | None, dict[str, Chunk]]:
    """The collection's vectors in memory when search is exact and they take at most `vector_budget` bytes, with
    its usable chunks when their texts take at most `text_budget`; (None, {}) where SQL must serve."""
    rows_estimate = await reader.estimated_rows()
    if rows_estimate > exact_search_limit:
        return None, {}
    if rows_estimate * await reader.dimension() * 4 > vector_budget:
        return None, {}
    layout = reader.layout
    async with reader.pool.connection() as conn:
        cursor = await conn.execute(
            sql.SQL("SELECT pg_typeof({emb})::oid FROM {table} WHERE {scope} AND {embedded} LIMIT 1").format(
                emb=layout.embedding_column, table=layout.table, scope=layout.scope, embedded=reader.embedded_only()
            ),
            layout.scope_params,
        )
        (type_oid,) = await cursor.fetchone() or (None,)
        if type_oid is None:
            return None, {}
        oversize = sql.SQL("NOT {}").format(reader.within_byte_bound())
        cursor = await conn.execute(
            sql.SQL(
                "SELECT coalesce(sum(octet_length({text})), 0) FROM {table} WHERE {scope} AND NOT {oversize}"
            ).format(text=layout.text_column, table=layout.table, scope=layout.scope, oversize=oversize),
            layout.scope_params,
        )
        (text_bytes,) = await cursor.fetchone() or (0,)
        with_texts = text_bytes <= text_budget
        binary = conn.cursor(binary=True, row_factory=tuple_row)
        binary.adapters.register_loader(type_oid, _VectorBytes)
        query = sql.SQL(
            "SELECT {id}::text, {oversize}, {emb}{texts} FROM {table} WHERE {scope} AND {embedded} ORDER BY {id}"
        ).format(
            id=layout.id_column,
            oversize=oversize,
            emb=layout.embedding_column,
            embedded=reader.embedded_only(),
            texts=sql.SQL(", {}, {}").format(layout.text_column, layout.metadata) if with_texts else sql.SQL(""),
            table=layout.table,
            scope=layout.scope,
        )
        await binary.execute(query, layout.scope_params)
        rows = await binary.fetchall()
    index = await asyncio.to_thread(VectorIndex.from_rows, rows, layout.distance)
    if index is None or not with_texts:
        return index, {}
    return index, {row[0]: reader.chunk_from_row((row[0], row[3], row[4])) for row in rows if not row[1]}
