"""The dataset record (SPEC section 3): one JSON object per line of `dataset.jsonl`."""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from state.draft import Construction
from state.evidence import Evidence
from state.languages import DEFAULT_LANGUAGE, answer_words
from state.location import where
from state.query_styles import NATURAL, QueryStyle
from state.sample import MAX_HOPS, MIN_HOPS, SINGLE_HOP_TYPES, UNANSWERABLE, Difficulty, SampleKind


def text_digest(text: str) -> str:
    """A chunk text's fingerprint: the first 16 hex digits of its SHA-256."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class SupportingChunk(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    evidence: list[Evidence] = Field(default_factory=list)
    """The facts of this chunk the answer needs (SPEC 19); empty in a record written before records carried
    evidence."""


#: What a record's evidence is: `quoted`, every supporting chunk carries the quotes the answer rests on; `none`, a
#: generated unanswerable question, which rests on nothing; `unrecorded`, a record written before records carried
#: evidence, scored by chunk id alone.
EvidenceStatus = Literal["quoted", "none", "unrecorded"]


class ContextPassage(BaseModel):
    """One passage of a record's context list: a chunk, labelled relevant or not, and where it comes from."""

    model_config = ConfigDict(extra="forbid")

    id: str
    text: str
    relevant: bool
    origin: Literal["supporting", "distractor", "retrieved"]
    """`retrieved`: a chunk the collection's retriever returned for a generated unanswerable question."""
    where: str = ""
    """Where the chunk comes from ("guide.pdf, p. 12, 3.2 Backups"); "" when its metadata does not say."""
    source: str | None = None
    """The chunk's document (`metadata.source`); None when its metadata does not say."""
    start_index: int | None = Field(default=None, ge=0)
    """Where the chunk starts in its document's text (`metadata.start_index`); None when its metadata does not say."""


#: How many non-relevant contexts an unanswerable variant holds.
MIN_UNANSWERABLE_CONTEXTS, MAX_UNANSWERABLE_CONTEXTS = 2, 5


class Unanswerable(BaseModel):
    """Contexts that do not support the answer: a RAG system given only these must abstain."""

    model_config = ConfigDict(extra="forbid")

    contexts: list[str] = Field(min_length=MIN_UNANSWERABLE_CONTEXTS, max_length=MAX_UNANSWERABLE_CONTEXTS)
    expected: Literal["abstain"] = "abstain"


def declared(construction: Any) -> Any:
    """A draft's construction as a record holds it: every fact present, one the generator did not declare empty
    (a record an earlier version wrote may lack some)."""
    if construction is None:
        construction = {}
    if not isinstance(construction, dict):
        return construction  # refused by validation, with its type named
    hidden = [
        {"chunk_id": "", **entity} if isinstance(entity, dict) else entity
        for entity in construction.get("hidden_entities") or []
    ]
    empty = {"compared_entities": [], "unanswerable_kind": "", "missing": ""}
    return empty | construction | {"hidden_entities": hidden}


class RetrievalCheck(BaseModel):
    """How a generated unanswerable question was checked: the chunks the collection's retriever returned for it."""

    model_config = ConfigDict(extra="forbid")

    k: int = Field(ge=1)
    chunk_ids: list[str]
    """The retrieved chunks the judge read; none of them answers the question."""
    embedding: str
    """The embedding model that retrieved them (the collection's)."""
    seed_id: str
    """The chunk the question was written from."""


class Turn(BaseModel):
    """One turn of the conversation a follow-up question ends."""

    model_config = ConfigDict(extra="forbid")

    role: Literal["user", "assistant"]
    content: str


class RestyleNote(BaseModel):
    """How the question was rewritten in the query style the sample was asked for."""

    model_config = ConfigDict(extra="forbid")

    wanted: QueryStyle
    """The query style the sample's place asked for."""
    attempts: int = Field(ge=0)
    """Rewrites written (the second from the first one's verdict)."""
    kept: bool
    """Whether a rewrite passed its check; when not, the record keeps the canonical question, style natural."""
    reason: str = ""
    """Why the last rewrite was refused (empty when kept)."""


class RePointed(BaseModel):
    """How a refresh pointed the record at the chunks of another cutting that hold its facts; its question, answer
    and verdicts are the ones the judges gave on the chunks it was written from."""

    model_config = ConfigDict(extra="forbid")

    collection: str | None
    supporting: dict[str, list[str]]
    """Each earlier supporting chunk -> the chunks that hold its facts now."""
    shared: list[str] = Field(default_factory=list)
    """Chunks that hold the facts of more than one earlier supporting chunk: flagged, since the question may no
    longer need as many chunks here (`hops` counts the chunks it rests on now)."""
    reason: str = ""


class Validation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    revisions: int = Field(ge=0)
    verdicts: list[dict[str, Any]]
    """The judges' verdicts in order (`state.sample.Verdict`); read as they are, so a record whose verdicts an earlier
    version or another tool wrote with fewer keys reads."""
    re_pointed: RePointed | None = None
    """Set when a refresh followed the record's facts into another cutting; None for a record as judged."""


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
    """The question as a user asks it: the canonical one, or its rewrite in `query_style`."""
    canonical_question: str = ""
    """The question as the judges accepted it: what the duplicate check, `graph.check`, refresh and calibration
    judge. A record written without it reads it as `question`."""
    query_style: QueryStyle = NATURAL
    """How `question` is asked (`state.query_styles`); `natural`: as validated."""
    restyle: RestyleNote | None = None
    """The rewrite in the query style the sample was asked for; None when it was asked for none."""
    turns: list[Turn] | None = None
    """Style follow-up: the conversation, the user's opening, the assistant's acknowledgement, and `question` last."""
    answer: str
    """The reference answer; empty for a generated unanswerable question (`expected` is then "abstain")."""
    question_type: SampleKind
    """comparison, intersection, composition; factual, procedural (single-hop); `unanswerable` for a generated
    unanswerable question."""
    binary: bool
    language: str | None = Field(default=None, pattern=r"^[a-z]{2}$")
    """ISO 639-1 code of the language the question and answer are written in; None where a record does not say."""
    temporal: bool | None
    """None for a generated unanswerable question (not classified)."""
    role: str
    persona: str | None = None
    """The name of the persona who asks (`--personas`); its description is `role`. None: no persona."""
    bridge_topic: str
    construction: Construction = Field(default_factory=dict, validate_default=True)
    """How the generator says it built the question (`state.draft.Construction`), every fact present."""
    hops: int = Field(ge=0, le=MAX_HOPS)
    """Supporting chunks; 1 for a single-hop question (factual, procedural), 0 for a generated unanswerable one."""
    supporting: list[SupportingChunk]
    evidence_status: EvidenceStatus = "unrecorded"
    """Whether the record carries its evidence (`EvidenceStatus`); the unanswerable variant of an answerable
    record has none of its own: its contexts state no fact the answer needs."""
    contexts: list[ContextPassage]
    n_relevant: int = Field(ge=0)
    difficulty: Difficulty | None
    """None for a generated unanswerable question."""
    unanswerable: Unanswerable | None
    """The simulated unanswerable variant of an answerable question."""
    answerable: bool = True
    """False for a generated unanswerable question: the collection holds no answer to it."""
    expected: Literal["answer", "abstain"] = "answer"
    """What a RAG system should do: answer, or abstain (generated unanswerable questions)."""
    retrieval_check: RetrievalCheck | None = None
    """Generated unanswerable: the retrieved chunks checked, none answering it."""
    seed_query: str | None = None
    """The real query whose retrieved chunk seeded the sample (`--queries`): a hash, or its text with --keep-queries."""
    validation: Validation
    version: int = Field(1, ge=1)
    """The dataset version this record belongs to (a run writes version 1)."""
    validated_at: str | None = None
    """When the judges last accepted it (ISO 8601, UTC)."""
    provenance: Provenance

    def places(self, contexts: list[ContextPassage]) -> list[str]:
        """Where each of the record's `contexts` comes from: its own `where`, else its supporting chunk's metadata
        (records written without `where`)."""
        supporting = {chunk.id: chunk.metadata for chunk in self.supporting}
        return [context.where or where(supporting.get(context.id)) for context in contexts]

    def context(self, context_id: str) -> ContextPassage:
        """The record's context `context_id`."""
        return next(context for context in self.contexts if context.id == context_id)

    def conversation(self) -> list[dict[str, str]]:
        """A follow-up's turns as JSON, its question last; none for any other question."""
        return [turn.model_dump() for turn in self.turns or []]

    def chunk_texts(self) -> list[tuple[str, str]]:
        """(id, text) of every chunk the record holds: its supporting chunks, then its contexts."""
        return [(c.id, c.text) for c in self.supporting] + [(c.id, c.text) for c in self.contexts]

    @field_validator("construction", mode="before")
    @classmethod
    def _declared(cls, construction: Any) -> Any:
        return declared(construction)

    @model_validator(mode="after")
    def _consistent(self) -> DatasetRecord:
        if not self.canonical_question:
            self.canonical_question = self.question
        if not self.answerable:
            return self._consistent_unanswerable()
        if self.question_type == UNANSWERABLE or self.expected != "answer":
            raise ValueError("a generated unanswerable question has answerable false")
        flagged = self.validation.re_pointed is not None and bool(self.validation.re_pointed.shared)
        least = 1 if self.question_type in SINGLE_HOP_TYPES or flagged else MIN_HOPS
        most = 1 if self.question_type in SINGLE_HOP_TYPES else MAX_HOPS
        if (
            not least <= self.hops <= most
            or not self.answer.strip()
            or self.temporal is None
            or self.difficulty is None
        ):
            raise ValueError(
                f"a {self.question_type} question has {least} to {most} hops, an answer, temporal and difficulty"
            )
        if len(self.supporting) != self.hops:
            raise ValueError(f"{len(self.supporting)} supporting chunks for hops={self.hops}")
        if self.n_relevant != sum(context.relevant for context in self.contexts):
            raise ValueError("n_relevant does not count the relevant contexts")
        words = answer_words(self.language or DEFAULT_LANGUAGE)
        if self.binary and words and self.answer not in words:
            raise ValueError(f"a binary question's answer is {words[0]} or {words[1]} (language {self.language})")
        if self.unanswerable is not None:
            relevant = {context.id for context in self.contexts if context.relevant}
            if relevant & set(self.unanswerable.contexts):
                raise ValueError("the unanswerable variant holds a relevant context")
            if set(self.unanswerable.contexts) - {context.id for context in self.contexts}:
                raise ValueError("the unanswerable variant names a context the record does not hold")
        return self

    def facts(self) -> list[Evidence]:
        """Every fact the answer needs, over the supporting chunks in order (none without evidence)."""
        return [fact for chunk in self.supporting for fact in chunk.evidence]

    def _consistent_unanswerable(self) -> DatasetRecord:
        if self.question_type != UNANSWERABLE or self.expected != "abstain" or self.retrieval_check is None:
            raise ValueError(
                "a generated unanswerable question has question_type unanswerable, expected abstain "
                "and its retrieval check"
            )
        if self.hops or self.supporting or self.n_relevant or any(c.relevant for c in self.contexts):
            raise ValueError("a generated unanswerable question has no supporting chunk and no relevant context")
        return self


class Rejection(BaseModel):
    """A sample that ended without a record (a line of `rejected.jsonl`): why it ended, and its history.

    Every field but `id` has a default, so a line an earlier version wrote reads; keys this model does not
    know are kept as they are."""

    model_config = ConfigDict(extra="allow")

    id: str
    outcome: str = "rejected"
    """rejected, no_bridge or failed."""
    end_reason: str = ""
    question_type: str | None = None
    binary: bool | None = None
    wanted_answer: str | None = None
    """The answer a yes/no sample was asked to have."""
    language: str | None = None
    hops: int = 2
    seed_id: str | None = None
    bridge_topic: str | None = None
    bridge_attempts: list[dict[str, Any]] = Field(default_factory=list)
    restarts: int = 0
    supporting_ids: list[str] = Field(default_factory=list)
    retrieved_ids: list[str] = Field(default_factory=list)
    drafts: list[dict[str, Any]] = Field(default_factory=list)
    verdicts: list[dict[str, Any]] = Field(default_factory=list)
    failure_raw: str | None = None
    """A model's reply that could not be read, as it came."""
    llm_calls: list[dict[str, Any]] = Field(default_factory=list)
    provenance: Provenance | None = None

    @model_validator(mode="before")
    @classmethod
    def _defaults_for_nulls(cls, line: Any) -> Any:
        """A null where a line has nothing to say takes the field's default (a sample that ended without an
        outcome is `failed`)."""
        if not isinstance(line, dict):
            return line
        return {key: value for key, value in line.items() if value is not None} | (
            {"outcome": "failed"} if "outcome" in line and line["outcome"] is None else {}
        )
