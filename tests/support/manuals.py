"""The test corpora in other languages: sections of the Debian Reference in German, French, Spanish and
Japanese (tests/data/manuals, cut by scripts/extract_manual_slices.py; GPL-2+, see the NOTICE there)."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.ingestion.chunking import ChunkRecord, stable_id
from graph.store.embeddings import DeferredEmbeddings, StoredEmbeddings
from tests.support.commands import REPO_ROOT

MANUALS = REPO_ROOT / "tests" / "data" / "manuals"
MANUAL_LANGUAGES = ("de", "fr", "es", "ja")
#: Chunks of each slice whose MiniLM vectors are shipped beside it.
VECTOR_CHUNKS = 40


def slice_path(language: str, suffix: str = "jsonl.gz") -> Path:
    return MANUALS / f"debian-reference.{language}.{suffix}"


def manual_rows(language: str) -> list[dict[str, Any]]:
    """Every chunk of a language's slice: id, text (its section heading first) and metadata."""
    with gzip.open(slice_path(language), "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def manual_chunks(language: str, count: int = VECTOR_CHUNKS) -> list[ChunkRecord]:
    """A slice's first `count` chunks, as ingestion writes them (stable ids)."""
    return [ChunkRecord(stable_id(row["id"]), row["text"], row["metadata"]) for row in manual_rows(language)[:count]]


def shipped_vectors() -> StoredEmbeddings:
    """MiniLM's vectors of every slice's first `VECTOR_CHUNKS` chunks; other texts go to the model itself."""
    vectors: dict[str, list[float]] = {}
    for language in MANUAL_LANGUAGES:
        rows = np.load(slice_path(language, "minilm.npy"))
        vectors |= {chunk.text: row.tolist() for chunk, row in zip(manual_chunks(language), rows, strict=True)}
    return StoredEmbeddings(vectors, DeferredEmbeddings("minilm"))


def demo_vectors_else_hashed() -> StoredEmbeddings:
    """The demo corpus' shipped vectors; any other text gets a deterministic hashed vector of the same size
    (for tests that edit demo text and need no meaning from its vector: no model is loaded)."""
    from graph.demo import demo_embeddings

    shipped = demo_embeddings()
    assert isinstance(shipped, StoredEmbeddings)
    return StoredEmbeddings(shipped.vectors, HashedEmbeddings(shipped.dimension))


class HashedEmbeddings(Embeddings):
    """A vector per text from a hash of it: the same text, the same vector; no meaning."""

    def __init__(self, size: int) -> None:
        self.size = size

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")
        return np.random.default_rng(seed).standard_normal(self.size).astype(float).tolist()
