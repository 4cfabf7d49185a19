"""The demo corpus: chunks of the PostgreSQL 15 manual shipped with the package (see NOTICE)."""

from __future__ import annotations

import gzip
from pathlib import Path

from graph.ingestion.loaders import ChunkRecord, read_jsonl_chunks

DEMO_FILE = Path(__file__).resolve().parent / "pg15_manual.jsonl.gz"

#: Table the demo corpus is ingested into, and that `--demo` selects.
DEMO_COLLECTION = "triad_demo"

#: The embedding model the demo collection is built with.
DEMO_EMBEDDING = "minilm"


def load_demo_chunks() -> list[ChunkRecord]:
    """Every chunk of the demo corpus, with its stable id and its source page."""
    with gzip.open(DEMO_FILE, "rt", encoding="utf-8") as handle:
        return read_jsonl_chunks(DEMO_FILE, iter(handle.read().splitlines()))
