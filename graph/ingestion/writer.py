"""Writing chunks into a PGVectorStore table: embedded in batches, stable ids, stale chunks removed.

The table has langchain-postgres' PGVectorStore layout (`langchain_id, content, embedding,
langchain_metadata`) and an HNSW cosine index, so a RAG system built on langchain-postgres can use
it as is.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from typing import Any

import psycopg
from langchain_core.embeddings import Embeddings
from psycopg import sql
from tqdm import tqdm

from graph.config.errors import UserError
from graph.ingestion.chunking import ChunkRecord
from graph.ingestion.loaders import FOLDER_KEY
from graph.store.embedded import ensure_vector_extension
from graph.store.embeddings import EmbeddingKeys, embedding_dimension, load_embeddings

#: Chunks embedded and written per batch.
BATCH_SIZE = 64


DEFAULT_CHUNK_SIZE = 1600


DEFAULT_CHUNK_OVERLAP = 160


def index_name(table: str) -> str:
    """langchain-postgres' default name for a table's vector index."""
    return f"{table}_langchainvectorindex"


def _stored_dimension(conn: psycopg.Connection, table: sql.Identifier) -> int | None:
    row = conn.execute(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = to_regclass(%s) AND attname = 'embedding'",
        (table.as_string(conn),),
    ).fetchone()
    return int(row[0]) if row and row[0] > 0 else None


def _create_table(conn: psycopg.Connection, table: sql.Identifier, dimension: int) -> None:
    conn.execute(
        sql.SQL(
            "CREATE TABLE IF NOT EXISTS {table} (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,"
            " embedding vector({dim}) NOT NULL, langchain_metadata JSON)"
        ).format(table=table, dim=sql.Literal(dimension))
    )


def _stored(conn: psycopg.Connection, table: sql.Identifier, ids: list[str]) -> dict[str, tuple[str, Any]]:
    """MD5 of the stored text and the stored metadata per id, for the ids already in the table."""
    if conn.execute("SELECT to_regclass(%s)", (table.as_string(conn),)).fetchone()[0] is None:  # type: ignore[index]
        return {}
    rows = conn.execute(
        sql.SQL(
            "SELECT langchain_id::text, md5(content), langchain_metadata FROM {} WHERE langchain_id = ANY(%s::uuid[])"
        ).format(table),
        (ids,),
    ).fetchall()
    return {row[0]: (row[1], row[2]) for row in rows}


def _update_metadata(conn: psycopg.Connection, table: sql.Identifier, chunks: Sequence[ChunkRecord]) -> None:
    """New metadata for chunks whose text is unchanged (a renamed title, a section found): no new embedding."""
    update = sql.SQL("UPDATE {} SET langchain_metadata = %s::json WHERE langchain_id = %s::uuid").format(table)
    with conn.transaction():
        conn.cursor().executemany(update, [(json.dumps(chunk.metadata), chunk.id) for chunk in chunks])


def _remove_stale(conn: psycopg.Connection, table: sql.Identifier, chunks: Sequence[ChunkRecord], partial: bool) -> int:
    """Delete chunks no longer produced: of the ingested sources (an edited file) and, for a folder, of its
    documents that are gone from it (a deleted file, a row removed from a JSONL file). A chunk another folder
    was ingested from is never touched, whatever its source is called. A `partial` read (some files could
    not be read) removes only chunks of the files read: whatever came from the others stays."""
    sources = sorted({str(chunk.metadata.get("source")) for chunk in chunks})
    folders = sorted({str(chunk.metadata[FOLDER_KEY]) for chunk in chunks if FOLDER_KEY in chunk.metadata})
    cursor = conn.execute(
        sql.SQL(
            "DELETE FROM {table} WHERE NOT (langchain_id = ANY(%(ids)s::uuid[])) AND ("
            " (langchain_metadata->>%(key)s = ANY(%(folders)s) AND NOT %(partial)s)"
            " OR (langchain_metadata->>'source' = ANY(%(sources)s)"
            " AND coalesce(langchain_metadata->>%(key)s = ANY(%(folders)s), true)))"
        ).format(table=table),
        {
            "ids": [chunk.id for chunk in chunks],
            "key": FOLDER_KEY,
            "folders": folders,
            "sources": sources,
            "partial": partial,
        },
    )
    return cursor.rowcount


def _write_batches(
    conn: psycopg.Connection, table: sql.Identifier, chunks: Sequence[ChunkRecord], embeddings: Embeddings
) -> None:
    insert = sql.SQL(
        "INSERT INTO {} (langchain_id, content, embedding, langchain_metadata)"
        " VALUES (%s::uuid, %s, %s::vector, %s::json) ON CONFLICT (langchain_id) DO UPDATE SET"
        " content = EXCLUDED.content, embedding = EXCLUDED.embedding, langchain_metadata = EXCLUDED.langchain_metadata"
    ).format(table)
    batches = -(-len(chunks) // BATCH_SIZE)
    description = f"embedding {len(chunks)} chunks in {batches} batch{'es' if batches > 1 else ''}"
    with tqdm(total=len(chunks), desc=description, unit="chunk", disable=None, file=sys.stderr) as progress:
        for start in range(0, len(chunks), BATCH_SIZE):
            batch = chunks[start : start + BATCH_SIZE]
            vectors = embeddings.embed_documents([chunk.text for chunk in batch])
            rows = [
                (chunk.id, chunk.text, "[" + ",".join(map(repr, vector)) + "]", json.dumps(chunk.metadata))
                for chunk, vector in zip(batch, vectors, strict=True)
            ]
            with conn.transaction():
                conn.cursor().executemany(insert, rows)
            progress.update(len(batch))


def ingest_chunks(
    url: str,
    collection: str,
    chunks: Sequence[ChunkRecord],
    embedding_spec: str,
    schema: str = "public",
    keys: EmbeddingKeys | None = None,
    embeddings: Embeddings | None = None,
    partial: bool = False,
) -> dict[str, int]:
    """Write the chunks not stored yet or changed; return counts of added, updated, kept and removed chunks.

    `embeddings` is the model named by `embedding_spec` when the caller has it already (the demo's
    stored vectors); else it is loaded from the spec. `partial` says some files could not be read: chunks
    of documents not read this time stay as they are stored.
    "updated" counts chunks whose text is unchanged and whose metadata is new.
    """
    if not chunks:
        raise UserError("no text found to ingest; check the path and that files are not empty")
    unique = list({chunk.id: chunk for chunk in chunks}.values())
    table = sql.Identifier(schema, collection)
    with psycopg.connect(url, autocommit=True) as conn:
        try:
            ensure_vector_extension(conn)
        except psycopg.Error as error:
            raise UserError(
                f"cannot enable pgvector ({error.diag.message_primary}); "
                "ask the database owner to run CREATE EXTENSION vector"
            ) from None
        stored = _stored(conn, table, [chunk.id for chunk in unique])
        # New ids, and known ids whose text changed, are embedded and written.
        new = [
            chunk for chunk in unique if stored.get(chunk.id, ("",))[0] != hashlib.md5(chunk.text.encode()).hexdigest()
        ]
        written = {chunk.id for chunk in new}
        relabelled = [c for c in unique if c.id not in written and stored[c.id][1] != c.metadata]
        if new:
            embeddings = embeddings or load_embeddings(embedding_spec, keys or EmbeddingKeys())
            dimension = embedding_dimension(embeddings)
            stored_dimension = _stored_dimension(conn, table)
            if stored_dimension is not None and stored_dimension != dimension:
                raise UserError(
                    f"table {collection!r} stores {stored_dimension}-d embeddings but {embedding_spec!r} "
                    f"gives {dimension}-d;"
                    " pass the --embedding the table was built with, or another --collection"
                )
            _create_table(conn, table, dimension)
            _write_batches(conn, table, new, embeddings)
        if relabelled:
            _update_metadata(conn, table, relabelled)
        removed = _remove_stale(conn, table, unique, partial)
        conn.execute(
            sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} USING hnsw (embedding vector_cosine_ops)").format(
                sql.Identifier(index_name(collection)), table
            )
        )
        if new or removed:
            conn.execute(sql.SQL("ANALYZE {}").format(table))
    kept = len(unique) - len(new) - len(relabelled)
    return {"added": len(new), "updated": len(relabelled), "kept": kept, "removed": removed}
