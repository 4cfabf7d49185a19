"""Shared fixtures: a real embedded PostgreSQL + pgvector, the real embedding model, a demo slice."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from langchain_core.embeddings import Embeddings

from graph.demo import load_demo_chunks
from graph.embeddings import load_embeddings
from graph.ingest import ingest_chunks
from graph.loaders import ChunkRecord
from graph.logs import configure_logging

REPO_ROOT = Path(__file__).resolve().parent.parent
configure_logging(level="warning")

#: Demo pages whose chunks make the test slice: vacuum, autovacuum and WAL share many entities.
SLICE_SOURCES = (
    "postgresql-15/routine-vacuuming.html",
    "postgresql-15/runtime-config-autovacuum.html",
    "postgresql-15/sql-vacuum.html",
    "postgresql-15/wal-configuration.html",
)
SLICE_TABLE = "demo_slice"


@pytest.fixture(scope="session")
def pg_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL 16 + pgvector server of this test session, deleted at the end."""
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
    import pgserver

    server = pgserver.get_server(tmp_path_factory.mktemp("pg") / "data", cleanup_mode="delete")
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    yield url
    server.cleanup()


@pytest.fixture(scope="session")
def minilm() -> Embeddings:
    """The embedded all-MiniLM-L6-v2 model (loaded once per session)."""
    return load_embeddings("minilm")


@pytest.fixture(scope="session")
def demo_slice_chunks() -> list[ChunkRecord]:
    return [chunk for chunk in load_demo_chunks() if chunk.metadata["source"] in SLICE_SOURCES]


@pytest.fixture(scope="session")
def seed_chunk_id(demo_slice_chunks: list[ChunkRecord]) -> str:
    """A routine-vacuuming chunk about autovacuum: the manual seed of path tests."""
    for chunk in demo_slice_chunks:
        if (
            chunk.metadata["source"].endswith("routine-vacuuming.html")
            and "autovacuum" in chunk.text
            and len(chunk.text) > 1200
        ):
            return chunk.id
    raise AssertionError("no autovacuum chunk in the demo slice")


@pytest.fixture(scope="session")
def demo_slice(pg_url: str, minilm: Embeddings, demo_slice_chunks: list[ChunkRecord]) -> str:
    """A PGVectorStore table holding a slice of the demo corpus with real embeddings; its name."""
    ingest_chunks(pg_url, SLICE_TABLE, demo_slice_chunks, "minilm")
    return SLICE_TABLE


def create_store_table(url: str, name: str, dimension: int) -> None:
    """An empty table in langchain-postgres' PGVectorStore layout."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f'CREATE TABLE IF NOT EXISTS "{name}" (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,'
            f" embedding vector({dimension}) NOT NULL, langchain_metadata JSON)"
        )


def run_cli(
    module: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m module args` as a user would; TRIAD_* and API keys of the caller's environment are dropped."""
    return _run_python(["-m", module, *args], env=env, cwd=cwd)


def run_script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a script under scripts/ as a user would, from the repository root (environment as `run_cli`)."""
    return _run_python([f"scripts/{script}", *args])


def _run_python(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    keys = ("GOOGLE_API_KEY", "OPENAI_API_KEY")  # no test may reach a hosted model with the caller's key
    base = {k: v for k, v in os.environ.items() if not k.startswith("TRIAD_") and k not in keys}
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        cwd=cwd or REPO_ROOT,
        timeout=600,
    )


SCALE_TABLE = "demo_scale"


@pytest.fixture(scope="session")
def scale_collection(pg_url: str, minilm: Embeddings) -> str:
    """A larger demo slice (server configuration, vacuum, WAL): room for concurrent runs' seeds."""
    prefixes = ("postgresql-15/runtime-config", "postgresql-15/routine-vacuuming", "postgresql-15/wal-")
    chunks = [chunk for chunk in load_demo_chunks() if chunk.metadata["source"].startswith(prefixes)]
    ingest_chunks(pg_url, SCALE_TABLE, chunks, "minilm")
    return SCALE_TABLE
