"""The demo corpus: chunks of the PostgreSQL 15 manual shipped with the package (see NOTICE)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.ingestion.chunking import ChunkRecord
from graph.ingestion.loaders import read_jsonl_chunks
from graph.store.embeddings import DeferredEmbeddings, StoredEmbeddings

DEMO_FILE = Path(__file__).resolve().parent / "pg15_manual.jsonl.gz"

#: The demo chunks' all-MiniLM-L6-v2 vectors (float32, one row per chunk in file order), made as
#: `python -m graph.ingest` makes them: `scripts/build_demo_corpus.py --vectors-only` writes it.
DEMO_VECTORS = DEMO_FILE.with_name("pg15_manual.minilm.npy")

#: Table the demo corpus is ingested into, and that `--demo` selects.
DEMO_COLLECTION = "triad_demo"

#: The embedding model the demo collection is built with.
DEMO_EMBEDDING = "minilm"


def demo_embeddings() -> Embeddings:
    """The demo corpus' embedding model with its chunks' vectors already made (other texts go to the model)."""
    chunks = load_demo_chunks()
    rows = np.load(DEMO_VECTORS)
    vectors = {chunk.text: row.tolist() for chunk, row in zip(chunks, rows, strict=True)}
    return StoredEmbeddings(vectors, DeferredEmbeddings(DEMO_EMBEDDING))


def load_demo_chunks() -> list[ChunkRecord]:
    """Every chunk of the demo corpus, with its stable id and its source page."""
    with gzip.open(DEMO_FILE, "rt", encoding="utf-8") as handle:
        return read_jsonl_chunks(DEMO_FILE, iter(handle.read().splitlines()))
