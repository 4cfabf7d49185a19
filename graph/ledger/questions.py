"""Accepted questions of a run, so that no question is accepted twice."""

from __future__ import annotations

import asyncio
import math
from typing import Any

from graph.ledger.ledger import RunLedger
from state.threads import ThreadId


class RunQuestions:
    """Accepted questions of a run: exact duplicates by normalised text, near ones by embedding cosine."""

    def __init__(self, ledger: RunLedger, *, threshold: float, embeddings: Any = None) -> None:
        self._ledger = ledger
        self._embeddings = embeddings
        self._threshold = threshold
        self._vectors: list[tuple[str, list[float]]] = []
        self._lock = asyncio.Lock()

    async def load(self, accepted: list[tuple[str, str]]) -> None:
        """Embed the questions accepted before a resume: (thread id, question) pairs."""
        if self._embeddings is not None and accepted:
            vectors = await asyncio.to_thread(self._embeddings.embed_documents, [q for _, q in accepted])
            self._vectors = [(thread, vector) for (thread, _), vector in zip(accepted, vectors, strict=True)]

    async def register(self, question: str, thread_id: str) -> str | None:
        n = ThreadId.parse(thread_id).n
        earlier = await self._ledger.claim_question(n, question)
        if earlier is not None:
            return str(ThreadId(self._ledger.run_id, earlier))
        if self._embeddings is None:
            return None
        vector = await asyncio.to_thread(self._embeddings.embed_query, question)
        async with self._lock:
            # A sample that registers again (resumed before the checkpoint of its check) is not its own duplicate.
            for other, known in self._vectors:
                if other != thread_id and _cosine(vector, known) >= self._threshold:
                    return other
            self._vectors = [(other, known) for other, known in self._vectors if other != thread_id]
            self._vectors.append((thread_id, vector))
        return None

    async def release(self, question: str, thread_id: str) -> None:
        thread = ThreadId.parse(thread_id)
        if thread.version is not None:  # a refresh thread: the question stays its sample's, whose record remains
            return
        await self._ledger.release_question(thread.n, question)
        async with self._lock:
            self._vectors = [(other, vector) for other, vector in self._vectors if other != thread_id]


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norm if norm else 0.0
