"""The dataset record (SPEC section 3): one JSON object per line of `dataset.jsonl`."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from state.sample import MAX_HOPS, MIN_HOPS, Difficulty, QuestionType


class SupportingChunk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)


class Context(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    relevant: bool
    origin: Literal["supporting", "distractor"]


#: How many non-relevant contexts an unanswerable variant holds.
MIN_UNANSWERABLE_CONTEXTS, MAX_UNANSWERABLE_CONTEXTS = 2, 5


class Unanswerable(BaseModel):
    """Contexts that do not support the answer: a RAG system given only these must abstain."""

    model_config = ConfigDict(extra="forbid")

    contexts: list[str] = Field(min_length=MIN_UNANSWERABLE_CONTEXTS, max_length=MAX_UNANSWERABLE_CONTEXTS)
    expected: Literal["abstain"] = "abstain"


class HiddenEntity(BaseModel):
    model_config = ConfigDict(extra="forbid")

    entity: str
    chunk_id: str = ""


class Construction(BaseModel):
    """How the generator says it built the question (empty where it did not say)."""

    model_config = ConfigDict(extra="forbid")

    compared_entities: list[str] = Field(default_factory=list)
    """Comparison: the entities compared, one per supporting chunk."""
    hidden_entities: list[HiddenEntity] = Field(default_factory=list)
    """Composition: the intermediate entities the question does not name, each with the chunk that identifies it."""


class Validation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    revisions: int = Field(ge=0)
    verdicts: list[dict[str, Any]]


class Provenance(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str
    thread_id: str
    models: dict[str, str]
    thinking: dict[str, str] = Field(default_factory=dict)
    """Thinking budget or level per role where one was set; a role not named thought as its provider's default."""
    prompt_version: str
    implementations: dict[str, str] = Field(default_factory=dict)
    created_at: str
    replayed_from: str | None = None


class DatasetRecord(BaseModel):
    """An accepted sample."""

    model_config = ConfigDict(extra="forbid")

    id: str
    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    question_type: QuestionType
    binary: bool
    temporal: bool
    role: str
    bridge_topic: str
    construction: Construction = Field(default_factory=Construction)
    hops: int = Field(ge=MIN_HOPS, le=MAX_HOPS)
    supporting: list[SupportingChunk]
    contexts: list[Context]
    n_relevant: int = Field(ge=0)
    difficulty: Difficulty
    unanswerable: Unanswerable | None
    validation: Validation
    provenance: Provenance

    @model_validator(mode="after")
    def _consistent(self) -> DatasetRecord:
        if len(self.supporting) != self.hops:
            raise ValueError(f"{len(self.supporting)} supporting chunks for hops={self.hops}")
        if self.n_relevant != sum(context.relevant for context in self.contexts):
            raise ValueError("n_relevant does not count the relevant contexts")
        if self.binary and self.answer not in ("Yes", "No"):
            raise ValueError("a binary question's answer is Yes or No")
        if self.unanswerable is not None:
            relevant = {context.id for context in self.contexts if context.relevant}
            if relevant & set(self.unanswerable.contexts):
                raise ValueError("the unanswerable variant holds a relevant context")
        return self
