"""Similarity search in SQL on the store: exact (index scans off, ties broken by id) up to `EXACT_SEARCH_LIMIT`
rows, an HNSW index above. `graph.store.vectors` gives the same ranking from memory where the vectors fit."""

from __future__ import annotations

from typing import Any

from psycopg import sql

from graph.store.reader import CollectionReader

#: Up to this many rows, similarity search is exact; above it, an HNSW index (approximate) serves it.
EXACT_SEARCH_LIMIT = 20_000


class StoreSearch:
    """One collection's rows ranked by the store's distance to a target, in SQL, through its reader."""

    def __init__(self, reader: CollectionReader) -> None:
        self.reader = reader
        self.exact_search_limit = EXACT_SEARCH_LIMIT

    async def nearest_to_stored(self, chunk_id: str, limit: int) -> list[tuple[Any, ...]]:
        """Rows nearest to a stored chunk by its stored embedding, usable ones only, the chunk itself left out."""
        layout = self.reader.layout
        # A scalar subquery becomes an InitPlan parameter, so an HNSW index can serve the ORDER BY.
        target = sql.SQL("(SELECT {emb} FROM {table} WHERE {scope} AND {id} = {param})").format(
            emb=layout.embedding_column,
            table=layout.table,
            scope=layout.scope,
            id=layout.id_column,
            param=self.reader.id_param(),
        )
        return await self.nearest(
            target, (*layout.scope_params, chunk_id), limit, exclude_id=chunk_id, usable_only=True
        )

    async def nearest(
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
        the same store always gives the same neighbours and runs answered from recorded calls repeat
        request for request; an HNSW index is approximate and its graph differs from build to build. Larger tables use
        the index.
        """
        layout = self.reader.layout
        exact = await self.reader.estimated_rows() <= self.exact_search_limit
        excluded = sql.SQL(" AND {id} <> {param}").format(id=layout.id_column, param=self.reader.id_param())
        usable = sql.SQL(" AND {}").format(self.reader.within_byte_bound())
        query = sql.SQL(
            "SELECT {cols}, {emb} {op} {target} FROM {table} WHERE {scope} AND {embedded}{excluded}{usable}"
            " ORDER BY {emb} {op} {target}{tie_break} LIMIT %s"
        ).format(
            cols=self.reader.columns(),
            emb=layout.embedding_column,
            op=layout.operator,
            embedded=self.reader.embedded_only(),
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
        return await self.reader.fetch(query, params, exact=exact)
