"""What nodes need from the outside world, as interfaces the graph layer implements.

Nodes ask a role for a structured answer; they never see vendors, retries, caches or limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from state.usage import ModelCall, Role

T = TypeVar("T", bound=BaseModel)


class ModelCallFailed(Exception):
    """A call that gave no usable answer within its bounds (unparseable replies, provider errors
    past the retry budget); the sample ends as `failed`, with the raw reply kept."""

    def __init__(self, message: str, *, raw: str, call: ModelCall) -> None:
        super().__init__(message)
        self.raw = raw
        self.call = call


class StructuredChat(Protocol):
    """Asks the model of a role for an answer validated against a pydantic schema."""

    async def ask(
        self, role: Role, schema: type[T], messages: Sequence[BaseMessage], *, node: str
    ) -> tuple[T, ModelCall]:
        """The validated answer and what the call cost; raises `ModelCallFailed` when there is none."""
        ...


class ChunkLike(Protocol):
    """A chunk as the corpus returns it (read-only)."""

    @property
    def id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def metadata(self) -> dict[str, Any]: ...


class HitLike(Protocol):
    """A similarity hit as the corpus returns it (read-only)."""

    @property
    def chunk(self) -> ChunkLike: ...

    @property
    def distance(self) -> float: ...


class CorpusReader(Protocol):
    """The read-only corpus operations nodes use."""

    async def get(self, ids: Sequence[str]) -> Sequence[ChunkLike]: ...

    async def neighbours(self, chunk_id: str, n: int) -> Sequence[HitLike]: ...

    async def search(self, text: str, n: int) -> Sequence[HitLike]:
        """The `n` chunks the collection's retriever returns for `text` (embedded with its model)."""
        ...


class SeedPool(Protocol):
    """Seeds of one run: each chunk is drawn at most once per run."""

    async def draw(self, *, min_chars: int, procedural: bool = False) -> str | None:
        """A random chunk id not yet used as a seed in this run, or None when none is left; with `procedural`,
        only a chunk that holds a procedure."""
        ...

    async def claim(self, chunk_id: str) -> None:
        """Mark a manually chosen seed as used."""
        ...


class QuestionRegistry(Protocol):
    """Accepted questions of one run, so that no question is accepted twice."""

    async def register(self, question: str, thread_id: str) -> str | None:
        """Claim a validated question for the sample; the thread id of an earlier (near-)duplicate, else None."""
        ...

    async def release(self, question: str, thread_id: str) -> None:
        """Give back the sample's claim on `question`: it ended without a record, so the question is free again."""
        ...


class QueryGuide(Protocol):
    """Real user queries of a run (`--queries`): what each seed chunk's record links to, and style examples.

    Query texts never enter a sample's state: nodes ask for them by seed chunk id when they need one.
    """

    def link(self, chunk_id: str) -> str | None:
        """The record's link to the query that led to this seed: its hash (its text with --keep-queries)."""
        ...

    def style(self, chunk_id: str) -> tuple[str, str | None] | None:
        """(wording, role) of the real query nearest to this seed, when the run writes in its register."""
        ...


@dataclass(frozen=True)
class Ports:
    """The run's shared resources, handed to nodes through the runtime context."""

    corpus: CorpusReader
    llm: StructuredChat
    seeds: SeedPool
    questions: QuestionRegistry | None = None
    queries: QueryGuide | None = None
