"""Real user queries as seeds (`graph.run --queries FILE`, read by `graph.planning.query_file`): embedded, and the
chunks they retrieve.

A query file holds one query per line, or JSON lines with `query` and an optional `role`. Each query
is embedded with the collection's own embedding model and retrieves its top k chunks; a chunk's
weight as a seed is the number of queries that retrieved it. Queries may hold personal data: their
texts stay in this process's memory. A record links to the nearest query that retrieved its seed by
the first 16 hex digits of the query's SHA-256 (its text with `--keep-queries`), and a model sees a
query only with `--role-from-queries`, as a style example.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from langchain_core.embeddings import Embeddings

from graph.config.errors import UserError
from graph.planning.options import RunOptions
from graph.planning.query_file import Query, file_digest, query_hash, read_queries
from graph.services import RunServices
from graph.store.corpus import Corpus

#: Queries embedded per worker-thread hop (a progress line follows each).
EMBED_BATCH = 256


@dataclass(frozen=True)
class QueryHit:
    query: int
    """Index of the query in the file's order."""
    distance: float


class QueryBook:
    """A run's queries: their embeddings, the chunks each retrieved, and the links records carry.

    It is the run's `nodes.ports.QueryGuide`.
    """

    def __init__(
        self,
        queries: Sequence[Query],
        vectors: np.ndarray,
        hits: dict[str, list[QueryHit]],
        *,
        keep_queries: bool = False,
        role_from_queries: bool = False,
    ) -> None:
        self.queries = list(queries)
        self.vectors = vectors
        """One row per query, as the embedding model gave it."""
        self.hits = hits
        """Per usable chunk id, the queries that retrieved it, nearest first."""
        self.keep_queries = keep_queries
        self.role_from_queries = role_from_queries

    @property
    def weights(self) -> dict[str, int]:
        """A chunk's weight as a seed: how many queries retrieved it."""
        return {chunk_id: len(found) for chunk_id, found in self.hits.items()}

    def shown(self, index: int) -> str:
        """How outputs name query `index`: its hash, or its text with --keep-queries."""
        text = self.queries[index].text
        return text if self.keep_queries else query_hash(text)

    def link(self, chunk_id: str) -> str | None:
        found = self.hits.get(chunk_id)
        return self.shown(found[0].query) if found else None

    def style(self, chunk_id: str) -> tuple[str, str | None] | None:
        found = self.hits.get(chunk_id)
        if not self.role_from_queries or not found:
            return None
        query = self.queries[found[0].query]
        return query.text, query.role


def embedded_queries(embeddings: Embeddings, texts: Sequence[str]) -> list[list[float]]:
    """Texts embedded as the user's retriever embeds a question (some models embed queries and documents apart)."""
    return [embeddings.embed_query(text) for text in texts]


async def build_query_book(
    queries: Sequence[Query],
    corpus: Corpus,
    embeddings: Embeddings,
    *,
    k: int,
    min_chars: int,
    keep_queries: bool = False,
    role_from_queries: bool = False,
    say: Callable[[str], None] = lambda _: None,
) -> QueryBook:
    """Embed every query and retrieve its top `k` chunks; chunks too short to seed a sample are left out."""
    texts = [query.text for query in queries]
    rows: list[list[float]] = []
    for start in range(0, len(texts), EMBED_BATCH):
        rows += await asyncio.to_thread(embedded_queries, embeddings, texts[start : start + EMBED_BATCH])
        if len(texts) > EMBED_BATCH:
            say(f"queries: {len(rows)} of {len(texts)} embedded")
    hits: dict[str, list[QueryHit]] = {}
    for index, vector in enumerate(rows):
        for hit in await corpus.search_vector(vector, k):
            if min_chars <= len(hit.chunk.text) <= corpus.max_chars:
                hits.setdefault(hit.chunk.id, []).append(QueryHit(index, hit.distance))
    for found in hits.values():
        found.sort(key=lambda hit: (hit.distance, hit.query))
    if not hits:
        raise UserError(
            f"none of the {len(texts)} queries retrieved a chunk of at least {min_chars} characters; "
            "check that --queries fits the collection"
        )
    say(f"queries: {len(texts)} retrieved {len(hits)} distinct chunks that can seed a sample (top {k} each)")
    return QueryBook(
        queries,
        np.asarray(rows, dtype=np.float32),
        hits,
        keep_queries=keep_queries,
        role_from_queries=role_from_queries,
    )


def queries_of_run(run_id: str, kept: str, digest: str | None, given: Path | None) -> list[Query]:
    """The queries a run was seeded from: its file (`given` where it moved) must hold what it held at the start."""
    path = given or Path(kept)
    if not path.is_file():
        raise UserError(f"run {run_id} was seeded from the queries in {kept}; give that file with --queries")
    if digest and file_digest(path) != digest:
        raise UserError(
            f"{path} is not the query file run {run_id} began with (its contents changed); "
            "give that file with --queries"
        )
    return read_queries(path)


async def open_query_book(
    services: RunServices, queries: Sequence[Query], options: RunOptions, say: Callable[[str], None] = lambda _: None
) -> QueryBook:
    """The run's queries embedded with the collection's model (checked against the collection), and what each
    retrieves, as the run's options say (k, query texts kept, style examples)."""
    model = services.embeddings
    await services.corpus.reader.check_embedding(model)
    return await build_query_book(
        queries,
        services.corpus,
        model,
        k=options.retrieval_k,
        min_chars=services.settings.min_chunk_chars,
        keep_queries=options.keep_queries,
        role_from_queries=options.role_from_queries,
        say=say,
    )
