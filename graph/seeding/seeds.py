"""Seeds of a run: each chunk drawn at most once per run, uniformly among the unused ones, or, when the
run is seeded from real queries, among the chunks they retrieved, weighted by how many did.

One pool serves every way a sample runs: `graph.run` and its workers record their draws in the run's
state (`RunLedger.claim_seeds`), so no two workers seed from the same chunk; a single sample of the
Python API or LangGraph Studio keeps them in memory.
"""

from __future__ import annotations

import asyncio
import collections
import random
from collections.abc import Iterable
from dataclasses import replace

from graph.figures.funnel import cell_name
from graph.ledger.ledger import RunLedger
from graph.ledger.slots import CellQuota
from graph.store.corpus import Corpus
from nodes.question_types import needs_procedure
from state.procedure import looks_procedural

#: Seeds a run's worker draws and records at a time.
SEED_BATCH = 8


class RunSeeds:
    """Seeds drawn uniformly among chunks not used yet, recorded in the run's state when it has one.

    With `batch` above one, draws are made and recorded `batch` at a time (one statement) and handed
    out in the order drawn: with a fixed `random_seed`, the same sequence as one at a time, for a round trip
    per `batch` samples instead of one per sample. Up to `batch - 1` recorded seeds go unused when a
    worker stops; the run never offers them again.
    """

    def __init__(
        self,
        corpus: Corpus,
        *,
        ledger: RunLedger | None = None,
        used: Iterable[str] = (),
        random_seed: int | None = None,
        batch: int = 1,
        weights: dict[str, float] | None = None,
        preferred: Iterable[str] = (),
    ) -> None:
        self._corpus = corpus
        self._ledger = ledger
        self._used = set(used)
        self._rng = random.Random(random_seed)
        self._lock = asyncio.Lock()
        self._batch = max(1, batch)
        self._ready: collections.deque[str] = collections.deque()
        self._weights = {k: w for k, w in sorted(weights.items()) if w > 0} if weights is not None else None
        """The only chunks drawn, each as likely as its weight: the number of queries that retrieved it, its
        document's weight (`graph.seeding.weights`), or both multiplied."""
        self._procedure_ids: list[str] | None = None
        self._preferred = sorted(set(preferred))
        """Chunks drawn first, uniformly, while any is unused (graph.refresh: those of documents added since the
        run); the others after them."""

    async def draw(self, *, min_chars: int, procedural: bool = False) -> str | None:
        # One draw at a time from the shared generator and used set.
        async with self._lock:
            if procedural:
                return await self._draw_procedural(min_chars)
            while not self._ready:
                drawn: list[str] = []
                for _ in range(self._batch):
                    found = await self._sample(min_chars)
                    if not found:
                        break
                    drawn += found
                    self._used.update(found)
                if not drawn:
                    return None
                # Another worker may have taken some since this one last looked: they are drawn anew.
                taken = set(drawn) if self._ledger is None else await self._ledger.claim_seeds(drawn)
                self._ready.extend(chunk_id for chunk_id in drawn if chunk_id in taken)
            return self._ready.popleft()

    async def _draw_procedural(self, min_chars: int) -> str | None:
        """One chunk that holds a procedure (`state.procedure`), drawn and recorded on its own."""
        while True:
            if self._weights is None:
                found = await self._corpus.sample_ids(
                    1, exclude=self._used, min_chars=min_chars, rng=self._rng, procedural=True
                )
            else:
                left = [chunk_id for chunk_id in await self._procedural_weighted() if chunk_id not in self._used]
                found = self._rng.choices(left, weights=[self._weights[i] for i in left]) if left else []
            if not found:
                return await self._ready_procedure()
            self._used.update(found)
            taken = set(found) if self._ledger is None else await self._ledger.claim_seeds(found)
            if taken:
                return found[0]

    async def _ready_procedure(self) -> str | None:
        """A procedure among the seeds drawn ahead for other cells and not handed out yet: in a small collection
        those batches can hold every procedure it has."""
        ready = await self._corpus.get(list(self._ready)) if self._ready else []
        chosen = next((chunk.id for chunk in ready if looks_procedural(chunk.text)), None)
        if chosen is not None:
            self._ready.remove(chosen)
        return chosen

    async def _procedural_weighted(self) -> list[str]:
        """The weighted chunks that hold a procedure, read once."""
        if self._procedure_ids is None:
            assert self._weights is not None
            ids = list(self._weights)
            chunks = [c for start in range(0, len(ids), 500) for c in await self._corpus.get(ids[start : start + 500])]
            self._procedure_ids = sorted(c.id for c in chunks if looks_procedural(c.text))
        return self._procedure_ids

    async def _sample(self, min_chars: int) -> list[str]:
        preferred = [chunk_id for chunk_id in self._preferred if chunk_id not in self._used]
        if preferred:  # checked for length when they were listed
            return [self._rng.choice(preferred)]
        if self._weights is None:
            return await self._corpus.sample_ids(1, exclude=self._used, min_chars=min_chars, rng=self._rng)
        # The weighted chunks were checked for length when the queries retrieved them.
        left = [chunk_id for chunk_id in self._weights if chunk_id not in self._used]
        if not left:
            return []
        return self._rng.choices(left, weights=[self._weights[chunk_id] for chunk_id in left])

    async def claim(self, chunk_id: str) -> None:
        self._used.add(chunk_id)
        if self._ledger is not None:
            await self._ledger.claim_seed(chunk_id)


async def with_procedural_seeds(
    cells: list[CellQuota], corpus: Corpus, collection: str, min_chars: int
) -> tuple[list[CellQuota], str | None]:
    """The run's cells and, where the collection holds no procedure, the note to say once at the start.

    Where no chunk holds one, the procedural cells get no attempts (they end short, with the reason) instead of
    each sample finding no seed; where a large collection's page sample holds none, they are still tried, since
    a rare procedure may lie outside the sample."""
    procedural = [cell for cell in cells if needs_procedure(cell.question_type)]
    if not procedural:
        return cells, None
    found, looked_at = await corpus.find_procedure(min_chars)
    if found:
        return cells, None
    names = ", ".join(cell_name(cell.question_type, cell.binary) for cell in procedural)
    what = "(numbered or bulleted steps, or a sequence in prose such as 'First ... Then ...')"
    fix = "drop procedural from --types, or ingest documents whose step lists keep their numbers"
    if looked_at is not None:
        return cells, (
            f"note: none of about {looked_at:,} sampled chunks of {collection!r} holds a procedure {what}; "
            f"the cell {names} may end short; {fix}"
        )
    note = (
        f"note: no chunk of {collection!r} holds a procedure {what}, so the cell {names} cannot be filled and "
        f"ends short; {fix}"
    )
    return [replace(cell, cap=0) if needs_procedure(cell.question_type) else cell for cell in cells], note
