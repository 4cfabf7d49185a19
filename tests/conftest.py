"""Shared fixtures: a real embedded PostgreSQL + pgvector, the real embedding model, a demo slice."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.embeddings import Embeddings

from graph.config.logs import configure_logging
from graph.demo import demo_embeddings, load_demo_chunks
from graph.ingestion.chunking import ChunkRecord
from graph.ingestion.writer import ingest_chunks
from graph.store.embedded import start_server, stop_embedded
from graph.store.embeddings import load_embeddings
from tests.support.commands import REPO_ROOT, TEST_HOME, TEST_STATE_URL

configure_logging(level="warning")

#: Demo pages whose chunks make the test slice: vacuum, autovacuum and WAL share many entities.
SLICE_SOURCES = (
    "postgresql-15/routine-vacuuming.html",
    "postgresql-15/runtime-config-autovacuum.html",
    "postgresql-15/sql-vacuum.html",
    "postgresql-15/wal-configuration.html",
)
SLICE_TABLE = "demo_slice"


@pytest.fixture(scope="session", autouse=True)
def scratch_home() -> Iterator[Path]:
    """The data home of every command a test runs without a home of its own, instead of the checkout's
    `.triad`; a server a command left running there is stopped at the end."""
    folder = Path(tempfile.mkdtemp(prefix="triad-test-home-"))
    folder.chmod(0o755)  # an embedded server's own user must reach `<home>/pg`
    os.environ[TEST_HOME] = str(folder)
    try:
        yield folder
    finally:
        os.environ.pop(TEST_HOME, None)
        stop_embedded(folder / "pg")
        shutil.rmtree(folder, ignore_errors=True)


#: What a command run from the checkout without `--runs-dir` writes there.
CHECKOUT_RUNS = REPO_ROOT / "runs"


@pytest.fixture(autouse=True)
def no_runs_in_the_checkout() -> Iterator[None]:
    """A test leaves no runs folder in the checkout: its commands name a runs folder of their own."""
    there_before = CHECKOUT_RUNS.exists()
    yield
    if not there_before and CHECKOUT_RUNS.exists():
        pytest.fail(f"{CHECKOUT_RUNS} appeared during this test: give its commands --runs-dir or TRIAD_RUNS_DIR")


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A PostgreSQL 16 + pgvector server of this test session, started as the commands start theirs,
    stopped and deleted at the end (also when its start fails halfway).

    Its data folder lies outside pytest's temporary root: another pytest session on the machine
    resets that root's permissions, which would lock the server's own user out of its folder.
    """
    folder = Path(tempfile.mkdtemp(prefix="triad-test-pg-"))
    folder.chmod(0o755)  # the server runs as its own user, which must reach the data folder
    server = None
    try:
        server = start_server(folder / "data", cleanup_mode="delete")
        url = server.get_uri()
        # Commands keep their runs on this server (schema triad), not in embedded servers of their own.
        os.environ[TEST_STATE_URL] = url
        yield url
    finally:
        os.environ.pop(TEST_STATE_URL, None)
        if server is not None:
            server.cleanup()
        else:  # a start that failed halfway may have left a server running in the folder
            stop_embedded(folder / "data")
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def minilm() -> Embeddings:
    """The embedded all-MiniLM-L6-v2 model (loaded once per session)."""
    return load_embeddings("minilm")


@pytest.fixture(scope="session")
def demo_vectors() -> Embeddings:
    """The demo corpus' MiniLM vectors as shipped (the model itself only for other texts)."""
    return demo_embeddings()


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
def demo_slice(pg_url: str, demo_vectors: Embeddings, demo_slice_chunks: list[ChunkRecord]) -> str:
    """A PGVectorStore table holding a slice of the demo corpus with its shipped MiniLM vectors; its name."""
    ingest_chunks(pg_url, SLICE_TABLE, demo_slice_chunks, "minilm", embeddings=demo_vectors)
    return SLICE_TABLE


SCALE_TABLE = "demo_scale"


@pytest.fixture(scope="session")
def scale_collection(pg_url: str, demo_vectors: Embeddings) -> str:
    """A larger demo slice (server configuration, vacuum, WAL): room for concurrent runs' seeds."""
    prefixes = ("postgresql-15/runtime-config", "postgresql-15/routine-vacuuming", "postgresql-15/wal-")
    chunks = [chunk for chunk in load_demo_chunks() if chunk.metadata["source"].startswith(prefixes)]
    ingest_chunks(pg_url, SCALE_TABLE, chunks, "minilm", embeddings=demo_vectors)
    return SCALE_TABLE
