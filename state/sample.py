"""The state of one sample's thread: everything a person needs to inspect how it went.

Values are plain JSON-like data (TypedDicts), so every checkpoint is readable in LangGraph Studio
and in the state database. Lists that several nodes append to carry the `operator.add` reducer.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from state.draft import Draft
from state.languages import Polarity
from state.query_styles import QueryStyle
from state.usage import ModelCall

QuestionType = Literal["comparison", "intersection", "composition", "factual", "procedural"]
#: The paper's multi-hop types: a run's default.
MULTI_HOP_TYPES: tuple[QuestionType, ...] = ("comparison", "intersection", "composition")
#: Questions written from one chunk: a fact it states, or the steps of a task it describes.
SINGLE_HOP_TYPES: tuple[QuestionType, ...] = ("factual", "procedural")
QUESTION_TYPES: tuple[QuestionType, ...] = (*MULTI_HOP_TYPES, *SINGLE_HOP_TYPES)
#: Types with no yes/no form: a procedure's steps are not answered Yes or No.
OPEN_ONLY_TYPES: tuple[QuestionType, ...] = ("procedural",)
#: The cell kind of generated unanswerable questions: plausible questions the collection has no answer to.
UNANSWERABLE: Literal["unanswerable"] = "unanswerable"
#: What a sample is asked to write: a typed question, or a generated unanswerable one.
SampleKind = Literal["comparison", "intersection", "composition", "factual", "procedural", "unanswerable"]
SAMPLE_KINDS: tuple[SampleKind, ...] = (*QUESTION_TYPES, UNANSWERABLE)
Outcome = Literal["accepted", "rejected", "no_bridge", "failed"]
Judge = Literal["lint", "quality", "sufficiency", "unanswerable"]
Difficulty = Literal["easy", "medium", "hard"]

#: Who asks when a run names no role: general, so it fits any corpus.
DEFAULT_ROLE = "a person looking for specific facts"

#: Supporting chunks a multi-hop question may combine (SPEC 2.1); a single-hop question has one.
MIN_HOPS, MAX_HOPS = 2, 4


class ChunkRef(TypedDict):
    """A chunk of the user's store as the sample uses it."""

    id: str
    """Id in the user's store."""
    text: str
    metadata: dict[str, Any]


#: How a bridge attempt looked for its bridge (see `BridgeAttempt.method`).
BridgeMethod = Literal["proposal", "exact_match"]


class Proposal(TypedDict):
    """What the bridge proposer named for a seed: the common topic ("" when none) and the entities of each chunk."""

    topic: str
    entities: dict[str, list[str]]
    """Chunk id -> the entities it names."""


class BridgeAttempt(TypedDict):
    """One try at finding a bridge for one seed; a failed one explains the restart that follows."""

    seed_id: str
    method: BridgeMethod
    """`proposal`: the bridge proposer named a common topic; `exact_match`: found by match_bridge."""
    found: bool
    topic: str
    chunk_ids: list[str]
    cause: str
    """Why it failed (empty when found)."""


class Verdict(TypedDict):
    """One judgement of one draft."""

    judge: Judge
    revision: int
    """Which draft it judged."""
    accepted: bool
    reason: str
    """What failed and how to fix it (empty when accepted)."""
    details: dict[str, Any]
    """Judge-specific findings: failed lint checks, per-dimension booleans, per-chunk sufficiency."""


class RelevanceLabel(TypedDict):
    """The relevance of one distractor candidate to the final question."""

    chunk_id: str
    relevant: bool
    reason: str
    labeller: str
    """Which implementation labelled it (care, care_batched, direct, indirect; kept: an earlier version's label of
    the same text, graph.refresh)."""


class KnownRelevance(TypedDict):
    """Relevance labels of an earlier version of a record, for the draft they were given for."""

    question: str
    answer: str
    labels: dict[str, bool]
    """Text digest (`state.record.text_digest`) -> relevant."""


class RePointing(TypedDict):
    """How a refresh pointed a record at the chunks of another cutting that hold its facts (`graph.refresh`)."""

    collection: str | None
    """The collection the record was pointed into."""
    supporting: dict[str, list[str]]
    """Each earlier supporting chunk -> the chunks that hold its facts now (two where a cut split a quote)."""
    shared: list[str]
    """Chunks that now hold the facts of more than one earlier supporting chunk: the question may no longer need
    as many chunks on this collection."""
    reason: str


class ContextItem(TypedDict):
    """One entry of the labelled context list."""

    id: str
    text: str
    relevant: bool
    origin: Literal["supporting", "distractor"]
    where: NotRequired[str]
    """Where the chunk comes from ("guide.pdf, p. 12, 3.2 Backups"), from its metadata; "" when unknown."""
    source: NotRequired[str]
    """The chunk's document (`metadata.source`), where its metadata names it."""
    start_index: NotRequired[int]
    """Where the chunk starts in its document's text (`metadata.start_index`), where its metadata says."""


class Turn(TypedDict):
    """One turn of a conversation a follow-up question ends (role `user` or `assistant`)."""

    role: Literal["user", "assistant"]
    content: str


class Restyle(TypedDict):
    """The accepted question rewritten in the sample's query style (restyle_question)."""

    query_style: QueryStyle
    question: str
    attempt: int
    """0 for the first rewrite, 1 for the one written from its check's verdict."""
    changes: NotRequired[str]
    """The writer's account of what it changed and kept."""
    turns: NotRequired[list[Turn]]
    """Style follow-up: the turns before the question (the user's opening, the assistant's acknowledgement)."""
    failure: NotRequired[str]
    """Why no usable rewrite came back (the model's reply could not be read); `question` is then empty."""


class RestyleCheck(TypedDict):
    """The check of one rewrite (check_restyle): lint first, then the validator's verdict."""

    attempt: int
    accepted: bool
    reason: str
    """What changed the meaning, for the next try and the record (empty when accepted)."""
    details: dict[str, Any]


class SampleInput(TypedDict):
    """What a sample starts from (the form LangGraph Studio shows)."""

    question_type: SampleKind
    """A question type, or `unanswerable` for a generated question the collection cannot answer."""
    binary: bool
    """Yes/no question when true."""
    wanted_answer: NotRequired[Polarity | None]
    """A yes/no sample's answer, asked of the generator: a run alternates them so each cell's Yes and No
    counts differ by at most one. Absent or None: either answer."""
    role: NotRequired[str]
    """Who asks, e.g. "a support engineer"."""
    hops: NotRequired[int]
    """Supporting chunks per question, 2 to 4 (default 2)."""
    seed_id: NotRequired[str | None]
    """A manual seed chunk id; random when absent."""
    thread_id: NotRequired[str]
    """The sample's thread id, `<run_id>/<n>`, repeated in its record."""
    query_style: NotRequired[QueryStyle]
    """How the accepted question is to be asked (`state.query_styles`); absent or `natural`: as validated."""
    persona: NotRequired[str]
    """The name of the persona who asks (`--personas`); its description is `role`."""


class SampleOutput(TypedDict):
    """What a finished sample hands back."""

    outcome: Outcome
    end_reason: str
    record: dict[str, Any] | None


class SampleState(TypedDict):
    """The full state of one sample."""

    # -- input ----------------------------------------------------------------------------------
    question_type: SampleKind
    binary: bool
    wanted_answer: NotRequired[Polarity | None]
    role: NotRequired[str]
    hops: NotRequired[int]
    seed_id: NotRequired[str | None]
    thread_id: NotRequired[str]
    query_style: NotRequired[QueryStyle]
    persona: NotRequired[str]

    # -- seed and bridge ------------------------------------------------------------------------
    seed: NotRequired[ChunkRef]
    """The current seed chunk (the latest, after restarts)."""
    neighbours: NotRequired[list[ChunkRef]]
    """The seed's nearest chunks, seed and duplicate texts excluded."""
    proposal: NotRequired[Proposal]
    """The bridge proposer's answer for the current seed."""
    bridge_attempts: Annotated[list[BridgeAttempt], operator.add]
    """Every bridge attempt, in order; failed ones explain the restarts."""
    restarts: NotRequired[int]
    """Restart edges taken back to select_seed."""
    restarts_left: NotRequired[int]
    """Fresh seeds the run allows after the current one (its `max_restarts` less those taken): when none are left,
    routing ends a seed without a bridge (a state may be edited between nodes, so routing reads it here)."""
    bridge_topic: NotRequired[str]
    supporting: NotRequired[list[ChunkRef]]
    """The chunks the question must combine, labelled A, B, ... in prompts."""

    # -- generation and validation ----------------------------------------------------------------
    style_role: NotRequired[str]
    """The role of the real query whose wording the generator imitated (`--role-from-queries`), when it had one."""
    drafts: Annotated[list[Draft], operator.add]
    verdicts: Annotated[list[Verdict], operator.add]
    revisions: NotRequired[int]
    """Revisions used so far."""
    revisions_left: NotRequired[int]
    """Revisions the run allows after the latest draft (its `max_revisions` less those used): when none are
    left, a rejected draft ends the sample (decided in nodes/routing.py, from the state alone, so a state edited
    in LangGraph Studio routes without the run context)."""
    temporal: NotRequired[bool]
    language: NotRequired[str]
    """ISO 639-1 code of the language the question and answer are written in (set with the first draft)."""

    # -- extraction -----------------------------------------------------------------------------
    retrieved: NotRequired[list[ChunkRef]]
    """Generated unanswerable: the chunks the collection's retriever returned for the latest draft."""
    relevance_labels: Annotated[list[RelevanceLabel], operator.add]
    re_pointing: NotRequired[RePointing]
    """graph.refresh: the record's facts followed into the chunks it now rests on (kept in its validation)."""
    known_relevance: NotRequired[KnownRelevance]
    """Labels an earlier version of the record gave (graph.refresh): candidates whose text they cover are not
    asked again while the question and answer are the ones they were given for."""
    contexts: NotRequired[list[ContextItem]]
    n_relevant: NotRequired[int]
    difficulty: NotRequired[Difficulty]

    # -- query style ------------------------------------------------------------------------------
    restyles: Annotated[list[Restyle], operator.add]
    """Rewrites of the accepted question in its query style, in order (at most two)."""
    restyle_checks: Annotated[list[RestyleCheck], operator.add]
    """The check of each rewrite, in the same order."""

    # -- outcome and cost -----------------------------------------------------------------------
    outcome: NotRequired[Outcome]
    end_reason: NotRequired[str]
    failure_raw: NotRequired[str]
    """The unusable model reply that failed the sample, kept for inspection."""
    question_claimed: NotRequired[bool]
    """check_duplicate claimed the latest draft's question for this sample (no earlier sample asked it)."""
    record: NotRequired[dict[str, Any] | None]
    """The dataset record (SPEC section 3) of an accepted sample: a `state.record.DatasetRecord`, built and
    validated as one by finalize_sample, kept as its JSON (a checkpoint holds plain data, which LangGraph Studio and
    the state database show as it is)."""
    llm_calls: Annotated[list[ModelCall], operator.add]
    """Every model call of this sample with its tokens and cost."""


def latest_draft(state: SampleState) -> Draft:
    """The draft under judgement."""
    return state["drafts"][-1]


def input_problem(spec: SampleInput) -> str | None:
    """Why a sample's input cannot make a record, said before anything is spent; None when it can."""
    hops = spec.get("hops", MIN_HOPS)
    if not isinstance(hops, int) or isinstance(hops, bool) or not MIN_HOPS <= hops <= MAX_HOPS:
        return f"hops must be a whole number from {MIN_HOPS} to {MAX_HOPS}, not {hops!r}"
    if spec.get("question_type") not in SAMPLE_KINDS:
        return f"question_type must be one of {', '.join(SAMPLE_KINDS)}, not {spec.get('question_type')!r}"
    if spec.get("binary") and spec.get("question_type") in OPEN_ONLY_TYPES:
        return f"a {spec.get('question_type')} question has no yes/no form: set binary to false"
    return None


def is_single_hop(state: SampleState | SampleInput) -> bool:
    """Whether the sample writes a question from one chunk (factual, procedural): no bridge, no sufficiency check."""
    return state.get("question_type") in SINGLE_HOP_TYPES


def is_unanswerable(state: SampleState | SampleInput) -> bool:
    """Whether the sample writes a generated unanswerable question."""
    return state.get("question_type") == UNANSWERABLE


def wants_restyle(state: SampleState) -> bool:
    """Whether the sample's accepted question is to be asked in a query style other than as validated."""
    return state.get("query_style") not in (None, "natural")
