"""finalize_sample: the dataset record of an accepted sample, and the entry of a rejected one."""

from __future__ import annotations

import asyncio
import functools
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from langgraph.runtime import Runtime
from pydantic import ValidationError
from typing_extensions import TypedDict

from nodes.common import Update, normalised_answer
from nodes.language import sample_language
from nodes.run_context import Context
from nodes.steps.duplicate import check_duplicate
from nodes.steps.restyle import kept_restyle
from nodes.versions import PROMPT_VERSION
from state.draft import Construction, Draft
from state.evidence import Evidence, Location, locate, offset
from state.location import where
from state.query_styles import NATURAL
from state.record import (
    ContextPassage,
    DatasetRecord,
    EvidenceStatus,
    Provenance,
    RePointed,
    RestyleNote,
    RetrievalCheck,
    SupportingChunk,
    Turn,
    Unanswerable,
    Validation,
)
from state.sample import (
    DEFAULT_ROLE,
    ChunkRef,
    ContextItem,
    Difficulty,
    SampleState,
    is_unanswerable,
    latest_draft,
    wants_restyle,
)


def provenance(state: SampleState, context: Context) -> Provenance:
    """Where a sample came from: run, thread, models per role, prompts, implementations."""
    return Provenance(
        run_id=context.run_id,
        thread_id=state.get("thread_id", ""),
        models={
            "generator": context.generator_model,
            "validator": context.validator_model,
            "extractor": context.extractor_model,
        },
        thinking=dict(context.thinking),
        prompt_version=PROMPT_VERSION,
        implementations={
            "bridge_proposer": context.bridge_proposer,
            "relevance_labeller": context.relevance_labeller,
        },
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        replayed_from=context.replayed_from,
    )


def unanswerable_variant(state: SampleState, context: Context) -> Unanswerable | None:
    """Up to N non-relevant contexts a RAG system must abstain on; None with fewer than two."""
    irrelevant = [item["id"] for item in state["contexts"] if not item["relevant"]]
    if len(irrelevant) < 2:
        return None
    return Unanswerable(contexts=irrelevant[: context.max_unanswerable_contexts])


def location(chunk_id: str, text: str, source: Any, start_index: Any, quote: str) -> Location | None:
    """Where `quote` stands in the chunk and, where the chunk's place in its document is known, in the document."""
    span = locate(quote, text)
    if span is None:
        return None
    start = offset(start_index)
    return Location(
        chunk_id=chunk_id,
        chunk_start=span[0],
        chunk_end=span[1],
        source=source if isinstance(source, str) and source else None,
        document_start=None if start is None else start + span[0],
        document_end=None if start is None else start + span[1],
    )


#: Documents a ready-cut chunk (one without `start_index`) is looked for in, where its `source` is such a file on
#: this machine: plain text, whose characters are the ones a chunk cut from it holds.
PLAIN_TEXT_SOURCES = (".txt", ".md", ".markdown", ".rst")
_LARGEST_SOURCE = 20 * 1024 * 1024


@functools.lru_cache(maxsize=16)
def _source_text(path: str, modified: float) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def start_in_source(chunk: ChunkRef) -> int | None:
    """Where the chunk starts in its document: its `start_index` (`graph.ingest` writes it), else, for a ready-cut
    chunk whose `source` is a plain-text file at hand, where its text is found in that file; else None."""
    metadata = chunk["metadata"] or {}
    start, source = offset(metadata.get("start_index")), metadata.get("source")
    if start is not None:
        return start
    if not isinstance(source, str) or not source.lower().endswith(PLAIN_TEXT_SOURCES):
        return None
    path = Path(source)
    try:
        if not path.is_file() or path.stat().st_size > _LARGEST_SOURCE:
            return None
        text = _source_text(str(path.resolve()), path.stat().st_mtime)
    except OSError:
        return None
    found = locate(chunk["text"], text) if text is not None else None
    return found[0] if found is not None else None


def chunk_evidence(
    chunk: ChunkRef, draft: Draft, contexts: list[ContextItem], start: int | None = None
) -> list[Evidence]:
    """The facts of one supporting chunk: each quote of it, where it stands (in its document from `start`, the
    chunk's place there, or its `start_index`), and the other chunks of the context list, labelled relevant, whose
    text holds the same words (other locations of that fact, found by text)."""
    others = [c for c in contexts if c["relevant"] and c["id"] != chunk["id"]]
    facts = []
    metadata = chunk["metadata"] or {}
    start = start if start is not None else metadata.get("start_index")
    for quote in (q["quote"] for q in draft.get("evidence", []) if q["chunk_id"] == chunk["id"]):
        found = location(chunk["id"], chunk["text"], metadata.get("source"), start, quote)
        if found is None:  # a quote lint did not hold (a thread that passed lint before its quotes were read)
            continue
        also_in = [
            place
            for c in others
            if (place := location(c["id"], c["text"], c.get("source"), c.get("start_index"), quote)) is not None
        ]
        facts.append(Evidence(quote=quote, location=found, also_in=also_in))
    return facts


def document_starts(state: SampleState) -> dict[str, int | None]:
    """Each supporting chunk's place in its document (`start_in_source`: it may read a file, so off the loop)."""
    return {chunk["id"]: start_in_source(chunk) for chunk in state.get("supporting") or []}


def evidence_status(state: SampleState, supporting: list[SupportingChunk]) -> EvidenceStatus:
    """`quoted` when every supporting chunk carries a fact; `unrecorded` for a draft written without quotes."""
    quoted = "evidence" in latest_draft(state) and all(chunk.evidence for chunk in supporting)
    return "quoted" if quoted else "unrecorded"


class Grounding(TypedDict, total=False):
    """The fields of a record that say what its answer rests on: an answerable question's or a generated
    unanswerable one's (`DatasetRecord`'s fields of the same names)."""

    answer: str
    temporal: bool | None
    bridge_topic: str
    hops: int
    supporting: list[SupportingChunk]
    evidence_status: EvidenceStatus
    contexts: list[ContextPassage]
    n_relevant: int
    difficulty: Difficulty | None
    unanswerable: Unanswerable | None
    answerable: bool
    expected: Literal["answer", "abstain"]
    retrieval_check: RetrievalCheck


def answerable_grounding(state: SampleState, context: Context, starts: dict[str, int | None]) -> Grounding:
    """What a typed question rests on: supporting chunks with their evidence (`starts`: each chunk's place in its
    document, where known), labelled contexts, difficulty, its variant."""
    draft = latest_draft(state)
    supporting = [
        SupportingChunk(
            id=c["id"],
            text=c["text"],
            metadata=c["metadata"],
            evidence=chunk_evidence(c, draft, state["contexts"], starts.get(c["id"])),
        )
        for c in state["supporting"]
    ]
    return Grounding(
        answer=normalised_answer(draft["answer"], binary=state["binary"], language=sample_language(state, context)),
        temporal=state["temporal"],
        bridge_topic=state["bridge_topic"],
        hops=len(state["supporting"]),
        supporting=supporting,
        evidence_status=evidence_status(state, supporting),
        contexts=[ContextPassage(**item) for item in state["contexts"]],
        n_relevant=state["n_relevant"],
        difficulty=state["difficulty"],
        unanswerable=unanswerable_variant(state, context),
    )


def unanswerable_grounding(state: SampleState, context: Context) -> Grounding:
    """What a generated unanswerable question was checked on: the chunks the retriever returned, none answering
    it."""
    retrieved = state["retrieved"]
    return Grounding(
        answer="",
        temporal=None,
        bridge_topic="",
        hops=0,
        supporting=[],
        evidence_status="none",
        contexts=[
            ContextPassage(id=c["id"], text=c["text"], relevant=False, origin="retrieved", where=where(c["metadata"]))
            for c in retrieved
        ],
        n_relevant=0,
        difficulty=None,
        unanswerable=None,
        answerable=False,
        expected="abstain",
        retrieval_check=RetrievalCheck(
            k=context.retrieval_k,
            chunk_ids=[c["id"] for c in retrieved],
            embedding=context.embedding,
            seed_id=state["seed"]["id"],
        ),
    )


def dataset_record(state: SampleState, context: Context, starts: dict[str, int | None]) -> DatasetRecord:
    """The SPEC section 3 record of an accepted sample; a `ValidationError` says what it lacks."""
    draft = latest_draft(state)
    guide = context.require_ports().queries
    kept = kept_restyle(state)
    re_pointing = state.get("re_pointing")
    return DatasetRecord(
        id=state.get("thread_id") or f"{context.run_id}/adhoc",
        question=kept["question"] if kept else draft["question"],
        canonical_question=draft["question"],
        query_style=kept["query_style"] if kept else NATURAL,
        restyle=restyle_note(state),
        turns=[*(Turn(**turn) for turn in kept["turns"]), Turn(role="user", content=kept["question"])]
        if kept and kept.get("turns")
        else None,
        question_type=state["question_type"],
        binary=state["binary"],
        language=sample_language(state, context),
        role=state.get("style_role") or state.get("role") or DEFAULT_ROLE,
        persona=state.get("persona"),
        construction=draft.get("construction") or Construction(compared_entities=[], hidden_entities=[]),
        **(
            unanswerable_grounding(state, context)
            if is_unanswerable(state)
            else answerable_grounding(state, context, starts)
        ),
        seed_query=guide.link(state["seed"]["id"]) if guide is not None and "seed" in state else None,
        validation=Validation(
            revisions=state.get("revisions", 0),
            verdicts=[dict(verdict) for verdict in state["verdicts"]],
            re_pointed=RePointed(**re_pointing) if re_pointing else None,
        ),
        version=context.dataset_version,
        validated_at=datetime.now(UTC).isoformat(timespec="seconds"),
        provenance=provenance(state, context),
    )


async def finalize_sample(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Assemble and validate the SPEC section 3 record; the state keeps its JSON (checkpoints hold plain data)."""
    context = runtime.context
    starts = {} if is_unanswerable(state) else await asyncio.to_thread(document_starts, state)
    try:
        record = dataset_record(state, context, starts)
    except ValidationError as invalid:
        return {"outcome": "failed", "end_reason": f"the record is invalid: {invalid.errors()[0]['msg']}"}
    if not state.get("question_claimed"):  # a thread checkpointed before check_duplicate was a node of its own
        duplicate = await check_duplicate(state, runtime)
        if duplicate.get("outcome"):
            return duplicate
    return {"record": record.model_dump(mode="json"), "outcome": "accepted", "end_reason": "accepted"}


def restyle_note(state: SampleState) -> RestyleNote | None:
    """How the question was rewritten in the sample's query style; None when it was asked for none."""
    if not wants_restyle(state):
        return None
    checks = state.get("restyle_checks", [])
    kept = bool(checks) and checks[-1]["accepted"]
    return RestyleNote(
        wanted=state.get("query_style", NATURAL),
        attempts=len(state.get("restyles", [])),
        kept=kept,
        reason="" if kept or not checks else checks[-1]["reason"],
    )


def rejection_entry(state: SampleState, context: Context) -> dict[str, Any]:
    """The rejected.jsonl line of a sample that ended without a record (`state.record.Rejection`): history and end
    reason."""
    return {
        "id": state.get("thread_id", ""),
        "outcome": state.get("outcome") or "failed",
        "end_reason": state.get("end_reason", ""),
        "question_type": state.get("question_type"),
        "binary": state.get("binary"),
        "wanted_answer": state.get("wanted_answer"),
        "language": state.get("language"),
        "hops": state.get("hops", 2),
        "seed_id": state.get("seed", {}).get("id"),
        "bridge_topic": state.get("bridge_topic"),
        "bridge_attempts": state.get("bridge_attempts", []),
        "restarts": state.get("restarts", 0),
        "supporting_ids": [c["id"] for c in state.get("supporting", [])],
        "retrieved_ids": [c["id"] for c in state.get("retrieved", [])],
        "drafts": state.get("drafts", []),
        "verdicts": state.get("verdicts", []),
        "failure_raw": state.get("failure_raw"),
        "llm_calls": state.get("llm_calls", []),
        "provenance": provenance(state, context).model_dump(),
    }
