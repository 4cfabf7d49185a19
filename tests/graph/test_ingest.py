"""Ingestion into a PGVectorStore table: idempotent, stale-aware, readable by langchain-postgres."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from graph.config.errors import UserError
from graph.ingestion.loaders import load_chunks
from graph.ingestion.writer import index_name, ingest_chunks
from tests.support.commands import create_store_table
from tests.support.documents import encrypted_pdf, mixed_folder


def _rows(url: str, table: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute(f'SELECT langchain_id::text, langchain_metadata FROM "{table}" ORDER BY 1').fetchall()


def test_reingesting_adds_nothing_and_an_edited_file_replaces_its_chunks(
    pg_url: str, minilm: Embeddings, tmp_path: Path
) -> None:
    (tmp_path / "wal.md").write_text("The WAL writer flushes records. " * 40)
    (tmp_path / "vacuum.txt").write_text("VACUUM reclaims storage occupied by dead tuples. " * 30)
    chunks = load_chunks(tmp_path, 300, 30).chunks
    first = ingest_chunks(pg_url, "idempotent", chunks, "minilm")
    assert first == {"added": len(chunks), "updated": 0, "kept": 0, "removed": 0}
    rows = _rows(pg_url, "idempotent")
    assert second_run_is_a_no_op(pg_url, chunks)
    assert _rows(pg_url, "idempotent") == rows
    assert all({"source", "start_index", "chunk_index"} <= set(meta) for _, meta in rows)

    (tmp_path / "wal.md").write_text("The WAL writer flushes records to disk. " * 10)
    edited = load_chunks(tmp_path, 300, 30).chunks
    counts = ingest_chunks(pg_url, "idempotent", edited, "minilm")
    assert counts["removed"] > 0
    assert {row[0] for row in _rows(pg_url, "idempotent")} == {chunk.id for chunk in edited}


def second_run_is_a_no_op(url: str, chunks: list) -> bool:
    return ingest_chunks(url, "idempotent", chunks, "minilm") == {
        "added": 0,
        "updated": 0,
        "kept": len(chunks),
        "removed": 0,
    }


def test_table_has_an_hnsw_index_and_langchain_postgres_can_search_it(
    pg_url: str, demo_slice: str, minilm: Embeddings
) -> None:
    from langchain_postgres import PGEngine, PGVectorStore

    with psycopg.connect(pg_url) as conn:
        indexdef = conn.execute(
            "SELECT indexdef FROM pg_indexes WHERE indexname = %s", (index_name(demo_slice),)
        ).fetchone()
    assert indexdef is not None and "hnsw" in indexdef[0] and "vector_cosine_ops" in indexdef[0]

    engine = PGEngine.from_connection_string(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    store = PGVectorStore.create_sync(engine, minilm, demo_slice)
    docs = store.similarity_search("How often does the autovacuum launcher wake up?", k=3)
    assert len(docs) == 3 and all(doc.metadata["source"].startswith("postgresql-15/") for doc in docs)


def test_dimension_mismatch_with_an_existing_table_is_a_user_error(pg_url: str, tmp_path: Path) -> None:
    create_store_table(pg_url, "small_dim", 8)
    (tmp_path / "a.txt").write_text("text about replication slots")
    with pytest.raises(UserError, match="stores 8-d embeddings but 'minilm' gives 384-d"):
        ingest_chunks(pg_url, "small_dim", load_chunks(tmp_path, 300, 30).chunks, "minilm")


def test_a_folder_of_documents_is_stored_with_its_places_and_an_unreadable_file_loses_nothing(
    pg_url: str, minilm: Embeddings, tmp_path: Path
) -> None:
    folder = mixed_folder(tmp_path / "docs")
    loaded = load_chunks(folder, 1600, 160)
    assert ingest_chunks(pg_url, "documents", loaded.chunks, "minilm")["added"] == len(loaded.chunks)
    stored = {meta["source"]: meta for _, meta in _rows(pg_url, "documents")}
    assert {"page", "section", "title"} <= set(stored["fontconfig-user.pdf"])
    assert {"section", "title"} <= set(stored["replication.docx"]) and "page" not in stored["replication.docx"]
    pdf_rows = len([1 for _, meta in _rows(pg_url, "documents") if meta["source"] == "fontconfig-user.pdf"])

    # The PDF is replaced by a copy that needs a password and the Markdown file is deleted: the PDF is
    # skipped, and while a file could not be read nothing of the documents not read is removed.
    pdf = folder / "fontconfig-user.pdf"
    readable = pdf.read_bytes()
    encrypted_pdf(pdf, tmp_path / "locked.pdf").replace(pdf)
    (folder / "backups.md").unlink()
    again = load_chunks(folder, 1600, 160)
    assert [result.source for result in again.skipped] == ["fontconfig-user.pdf"]
    counts = ingest_chunks(pg_url, "documents", again.chunks, "minilm", partial=True)
    assert counts == {"added": 0, "updated": 0, "kept": len(again.chunks), "removed": 0}
    assert len([1 for _, meta in _rows(pg_url, "documents") if meta["source"] == "fontconfig-user.pdf"]) == pdf_rows
    # Once every file reads again, the deleted document's chunks go.
    pdf.write_bytes(readable)
    whole = load_chunks(folder, 1600, 160)
    assert ingest_chunks(pg_url, "documents", whole.chunks, "minilm")["removed"] > 0
    assert "backups.md" not in {meta["source"] for _, meta in _rows(pg_url, "documents")}


def test_new_metadata_for_the_same_text_is_written_without_embedding_again(pg_url: str, tmp_path: Path) -> None:
    guide = tmp_path / "guide.md"
    guide.write_text("---\ntitle: Old name\n---\n# Slots\n\n" + "Replication slots retain WAL. " * 20)
    ingest_chunks(pg_url, "retitled", load_chunks(tmp_path, 300, 30).chunks, "minilm")
    guide.write_text("---\ntitle: New name\n---\n# Slots\n\n" + "Replication slots retain WAL. " * 20)
    chunks = load_chunks(tmp_path, 300, 30).chunks
    # No embedding model is needed when no text changed: a wrong spec is never loaded.
    counts = ingest_chunks(pg_url, "retitled", chunks, "openai:no-such-model")
    assert counts == {"added": 0, "updated": len(chunks), "kept": 0, "removed": 0}
    assert {meta["title"] for _, meta in _rows(pg_url, "retitled")} == {"New name"}
