"""Where a collection lives: its table and columns, found from its name, on read-only sessions.

Two layouts are understood: `PGVectorStore` (langchain-postgres v2: one table per collection with
the columns `langchain_id, content, embedding, langchain_metadata`) and legacy `PGVector` (every
collection in `langchain_pg_embedding`, selected through `langchain_pg_collection.name`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from graph.config.errors import UserError, first_line, redact

LEGACY_COLLECTIONS = "langchain_pg_collection"


LEGACY_EMBEDDINGS = "langchain_pg_embedding"


@dataclass(frozen=True)
class Layout:
    """Where a collection's columns are; the only layout-specific part of every query."""

    kind: str  # "pgvectorstore" | "legacy"
    table: sql.Composable
    id_column: sql.Identifier
    text_column: sql.Identifier
    embedding_column: sql.Identifier
    metadata_column: sql.Identifier
    id_type: str  # "uuid" or "text": how ids are compared
    scope: sql.Composable = field(default_factory=lambda: sql.SQL("TRUE"))  # restricts a shared table
    scope_params: tuple[Any, ...] = ()


#: Every corpus session is read-only: nothing triad sends can change the user's store.
READ_ONLY_SESSION: dict[str, Any] = {"autocommit": True, "options": "-c default_transaction_read_only=on"}


async def _connect(url: str) -> psycopg.AsyncConnection[Any]:
    try:
        return await psycopg.AsyncConnection.connect(url, connect_timeout=5, **READ_ONLY_SESSION)
    except psycopg.Error as error:
        raise UserError(
            f"cannot connect to {redact(url)} ({first_line(error)}); fix --database-url / TRIAD_DATABASE_URL"
        ) from None


async def _table_columns(conn: psycopg.AsyncConnection[Any], schema: str, table: str) -> dict[str, str]:
    cursor = await conn.execute(
        "SELECT column_name, udt_name FROM information_schema.columns WHERE table_schema = %s AND table_name = %s",
        (schema, table),
    )
    return {name: udt for name, udt in await cursor.fetchall()}


async def _available_collections(conn: psycopg.AsyncConnection[Any], schema: str) -> list[str]:
    cursor = await conn.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = %s"
        " AND column_name = 'langchain_id' ORDER BY table_name",
        (schema,),
    )
    names = [row[0] for row in await cursor.fetchall()]
    if await _table_columns(conn, "public", LEGACY_COLLECTIONS):
        cursor = await conn.execute(
            sql.SQL("SELECT name FROM {} ORDER BY name").format(sql.Identifier("public", LEGACY_COLLECTIONS))
        )
        names += [row[0] for row in await cursor.fetchall()]
    return names


async def detect_layout(conn: psycopg.AsyncConnection[Any], collection: str, schema: str = "public") -> Layout:
    """Find `collection` as a PGVectorStore table first, then as a legacy PGVector collection."""
    columns = await _table_columns(conn, schema, collection)
    if {"langchain_id", "content", "embedding"} <= columns.keys():
        return Layout(
            kind="pgvectorstore",
            table=sql.Identifier(schema, collection),
            id_column=sql.Identifier("langchain_id"),
            text_column=sql.Identifier("content"),
            embedding_column=sql.Identifier("embedding"),
            metadata_column=sql.Identifier("langchain_metadata"),
            id_type="uuid" if columns["langchain_id"] == "uuid" else "text",
        )
    if await _table_columns(conn, "public", LEGACY_COLLECTIONS):
        cursor = await conn.execute(
            sql.SQL("SELECT uuid FROM {} WHERE name = %s").format(sql.Identifier("public", LEGACY_COLLECTIONS)),
            (collection,),
        )
        row = await cursor.fetchone()
        if row is not None:
            return Layout(
                kind="legacy",
                table=sql.Identifier("public", LEGACY_EMBEDDINGS),
                id_column=sql.Identifier("id"),
                text_column=sql.Identifier("document"),
                embedding_column=sql.Identifier("embedding"),
                metadata_column=sql.Identifier("cmetadata"),
                id_type="text",
                scope=sql.SQL("collection_id = %s"),
                scope_params=(row[0],),
            )
    # A table the role may not read has no columns it can see, yet the catalogue names it.
    cursor = await conn.execute("SELECT to_regclass(%s)", (sql.Identifier(schema, collection).as_string(conn),))
    if (await cursor.fetchone() or (None,))[0] is not None:
        raise UserError(
            f"permission denied on {schema}.{collection}: grant SELECT on it to this role, "
            "or use a role that may read it"
        )
    known = await _available_collections(conn, schema)
    hint = f"available: {', '.join(known[:10])}" if known else "ingest one with `python -m graph.ingest`"
    raise UserError(f"collection {collection!r} not found in schema {schema!r}; {hint}")
