"""Where a collection lives: its table and columns, found from its name, on read-only sessions.

Two layouts are understood: `PGVectorStore` (langchain-postgres v2: one table per collection, by
default with the columns `langchain_id, content, embedding, langchain_metadata`, but any names, no
JSON metadata column, and metadata keys in columns of their own) and legacy `PGVector` (every
collection in `langchain_pg_embedding`, selected through `langchain_pg_collection.name`). A table's
columns are the ones the user names, else found where only one column fits a role.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg import sql

from graph.config.errors import UserError, first_line, redact

LEGACY_COLLECTIONS = "langchain_pg_collection"


LEGACY_EMBEDDINGS = "langchain_pg_embedding"


#: pgvector's distance operators by the names triad takes; langchain-postgres's strategies use the same.
DISTANCE_OPERATORS = {"cosine": "<=>", "l2": "<->", "ip": "<#>"}

#: Column types that can hold a chunk's id, its text, its JSON metadata.
ID_TYPES = ("uuid", "text", "varchar", "bpchar")
TEXT_TYPES = ("text", "varchar", "bpchar")
JSON_TYPES = ("json", "jsonb")

#: Columns never taken for metadata: search helpers, not facts about a chunk.
NOT_METADATA_TYPES = ("vector", "tsvector", "halfvec", "sparsevec")

#: `jsonb_build_object` takes at most 100 arguments: metadata columns are merged this many at a time.
COLUMNS_PER_OBJECT = 50


@dataclass(frozen=True)
class ColumnChoice:
    """What the user said of a table's columns (`--id-column`, ...); None where detection decides."""

    id_column: str | None = None
    content_column: str | None = None
    embedding_column: str | None = None
    metadata_json_column: str | None = None
    """A column name, or "none" for a table made with `store_metadata=False`."""
    metadata_columns: tuple[str, ...] | None = None
    distance: str = "cosine"


@dataclass(frozen=True)
class Layout:
    """Where a collection's columns are; the only layout-specific part of every query."""

    kind: str  # "pgvectorstore" | "legacy"
    table: sql.Composable
    id_column: sql.Identifier
    text_column: sql.Identifier
    embedding_column: sql.Identifier
    metadata: sql.Composable
    """A jsonb expression: the JSON metadata column merged with the metadata columns (theirs win)."""
    id_type: str  # "uuid" or "text": how ids are compared
    scope: sql.Composable = field(default_factory=lambda: sql.SQL("TRUE"))  # restricts a shared table
    scope_params: tuple[Any, ...] = ()
    distance: str = "cosine"
    declared_dimension: int | None = None
    """The dimension the column's type fixes (`vector(384)`); None for a plain `vector` column."""

    @property
    def operator(self) -> sql.SQL:
        """pgvector's operator of the store's distance (`<=>` cosine, `<->` l2, `<#>` negative inner product)."""
        return sql.SQL(DISTANCE_OPERATORS[self.distance])


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
        "SELECT DISTINCT table_name FROM information_schema.columns WHERE table_schema = %s"
        " AND udt_name = 'vector' AND table_name <> %s ORDER BY table_name",
        (schema, LEGACY_EMBEDDINGS),
    )
    names = [row[0] for row in await cursor.fetchall()]
    if await _table_columns(conn, "public", LEGACY_COLLECTIONS):
        cursor = await conn.execute(
            sql.SQL("SELECT name FROM {} ORDER BY name").format(sql.Identifier("public", LEGACY_COLLECTIONS))
        )
        names += [row[0] for row in await cursor.fetchall()]
    return names


async def _declared_dimension(conn: psycopg.AsyncConnection[Any], table: sql.Identifier, column: str) -> int | None:
    cursor = await conn.execute(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attname = %s",
        (table.as_string(conn), column),
    )
    row = await cursor.fetchone()
    return int(row[0]) if row is not None and row[0] > 0 else None


async def _primary_key(conn: psycopg.AsyncConnection[Any], table: sql.Identifier) -> list[str]:
    cursor = await conn.execute(
        "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
        " WHERE i.indrelid = to_regclass(%s) AND i.indisprimary",
        (table.as_string(conn),),
    )
    return [row[0] for row in await cursor.fetchall()]


def _pick(
    name: str, role: str, option: str, given: str | None, defaults: tuple[str, ...], candidates: list[str]
) -> str:
    """The column of `role`: the one given, else a default name among the candidates, else the only candidate."""
    if given is not None:
        return given
    for default in defaults:
        if default in candidates:
            return default
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise UserError(f"table {name} has no {role} column triad can tell; pass {option}")
    raise UserError(f"table {name} has {role} columns {', '.join(candidates)}: pass {option}")


def metadata_expression(json_column: str | None, metadata_columns: tuple[str, ...]) -> sql.Composable:
    """jsonb of a row's metadata: its JSON column (or nothing) merged with its metadata columns, theirs winning.

    langchain-postgres reads a row's metadata the same way.
    """
    merged: sql.Composable = (
        sql.SQL("coalesce({}::jsonb, '{{}}'::jsonb)").format(sql.Identifier(json_column))
        if json_column
        else sql.SQL("'{}'::jsonb")
    )
    for start in range(0, len(metadata_columns), COLUMNS_PER_OBJECT):
        pairs = sql.SQL(", ").join(
            sql.SQL("{}, {}").format(sql.Literal(column), sql.Identifier(column))
            for column in metadata_columns[start : start + COLUMNS_PER_OBJECT]
        )
        merged = sql.SQL("{} || jsonb_build_object({})").format(merged, pairs)
    return merged


async def _table_layout(
    conn: psycopg.AsyncConnection[Any], schema: str, table: str, columns: dict[str, str], choice: ColumnChoice
) -> Layout:
    """A PGVectorStore table's layout: the columns given, the rest found where only one column fits."""
    name = f"{schema}.{table}"
    identifier = sql.Identifier(schema, table)
    for option, given in (
        ("--id-column", choice.id_column),
        ("--content-column", choice.content_column),
        ("--embedding-column", choice.embedding_column),
        ("--metadata-json-column", None if choice.metadata_json_column == "none" else choice.metadata_json_column),
        *(("--metadata-columns", column) for column in choice.metadata_columns or ()),
    ):
        if given is not None and given not in columns:
            raise UserError(f"table {name} has no column {given!r}; fix {option} (its columns: {', '.join(columns)})")
    embedding = _pick(
        name,
        "vector",
        "--embedding-column",
        choice.embedding_column,
        ("embedding",),
        [c for c, t in columns.items() if t == "vector"],
    )
    if columns[embedding] != "vector":
        raise UserError(f"column {embedding!r} of table {name} is not a pgvector vector; fix --embedding-column")
    keys = [c for c in await _primary_key(conn, identifier) if columns.get(c) in ID_TYPES]
    if columns.get("langchain_id") in ID_TYPES and "langchain_id" not in keys:  # a table made without a key
        keys.append("langchain_id")
    id_column = _pick(name, "id", "--id-column", choice.id_column, ("langchain_id",), keys)
    listed = set(choice.metadata_columns or ())
    if choice.metadata_json_column == "none":
        json_column = None
    else:
        jsons = [c for c, t in columns.items() if t in JSON_TYPES and c not in listed]
        json_column = (
            _pick(
                name,
                "JSON metadata",
                "--metadata-json-column",
                choice.metadata_json_column,
                ("langchain_metadata",),
                jsons,
            )
            if jsons or choice.metadata_json_column
            else None
        )
    texts = [c for c, t in columns.items() if t in TEXT_TYPES and c not in listed and c != id_column]
    content = _pick(name, "text", "--content-column", choice.content_column, ("content",), texts)
    taken = {id_column, content, embedding, json_column}
    if choice.metadata_columns is not None:
        metadata_columns = tuple(choice.metadata_columns)
    else:
        metadata_columns = tuple(c for c, t in columns.items() if c not in taken and t not in NOT_METADATA_TYPES)
    return Layout(
        kind="pgvectorstore",
        table=identifier,
        id_column=sql.Identifier(id_column),
        text_column=sql.Identifier(content),
        embedding_column=sql.Identifier(embedding),
        metadata=metadata_expression(json_column, metadata_columns),
        id_type="uuid" if columns[id_column] == "uuid" else "text",
        distance=choice.distance,
        declared_dimension=await _declared_dimension(conn, identifier, embedding),
    )


async def detect_layout(
    conn: psycopg.AsyncConnection[Any], collection: str, schema: str = "public", choice: ColumnChoice | None = None
) -> Layout:
    """Find `collection` as a PGVectorStore table first, then as a legacy PGVector collection."""
    choice = choice or ColumnChoice()
    columns = await _table_columns(conn, schema, collection)
    is_table = bool(columns) and (schema, collection) != ("public", LEGACY_EMBEDDINGS)
    if is_table and ("vector" in columns.values() or choice.embedding_column):
        return await _table_layout(conn, schema, collection, columns, choice)
    if await _table_columns(conn, "public", LEGACY_COLLECTIONS):
        cursor = await conn.execute(
            sql.SQL("SELECT uuid FROM {} WHERE name = %s").format(sql.Identifier("public", LEGACY_COLLECTIONS)),
            (collection,),
        )
        row = await cursor.fetchone()
        if row is not None:
            table = sql.Identifier("public", LEGACY_EMBEDDINGS)
            return Layout(
                kind="legacy",
                table=table,
                id_column=sql.Identifier("id"),
                text_column=sql.Identifier("document"),
                embedding_column=sql.Identifier("embedding"),
                metadata=sql.SQL("coalesce(cmetadata::jsonb, '{}'::jsonb)"),
                id_type="text",
                scope=sql.SQL("collection_id = %s"),
                scope_params=(row[0],),
                distance=choice.distance,
                declared_dimension=await _declared_dimension(conn, table, "embedding"),
            )
    if is_table:  # a table of that name, but no vector column: say so
        return await _table_layout(conn, schema, collection, columns, choice)
    # A table the role may not read has no columns it can see, yet the catalogue names it.
    try:
        cursor = await conn.execute("SELECT to_regclass(%s)", (sql.Identifier(schema, collection).as_string(conn),))
    except psycopg.errors.InsufficientPrivilege:
        raise UserError(
            f"permission denied on schema {schema}: grant USAGE on it to this role, or use a role that may read it"
        ) from None
    if (await cursor.fetchone() or (None,))[0] is not None:
        raise UserError(
            f"permission denied on {schema}.{collection}: grant SELECT on it to this role, "
            "or use a role that may read it"
        )
    known = await _available_collections(conn, schema)
    hint = f"available: {', '.join(known[:10])}" if known else "ingest one with `python -m graph.ingest`"
    raise UserError(f"collection {collection!r} not found in schema {schema!r}; {hint}")
