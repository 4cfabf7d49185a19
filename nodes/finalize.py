"""finalize_sample: the dataset record of an accepted sample, and the entry of a rejected one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from langgraph.runtime import Runtime
from pydantic import ValidationError

from nodes.common import Update, normalised_answer
from nodes.context import Context
from prompts import PROMPT_VERSION
from state.record import DatasetRecord
from state.sample import DEFAULT_ROLE, SampleState, latest_draft


def provenance(state: SampleState, context: Context) -> dict[str, Any]:
    """Where a sample came from: run, thread, models per role, prompts, implementations."""
    return {
        "run_id": context.run_id,
        "thread_id": state.get("thread_id", ""),
        "models": {
            "generator": context.generator_model,
            "validator": context.validator_model,
            "extractor": context.extractor_model,
        },
        "thinking": dict(context.thinking),
        "prompt_version": PROMPT_VERSION,
        "implementations": {
            "bridge_proposer": context.bridge_proposer,
            "relevance_labeller": context.relevance_labeller,
        },
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "replayed_from": context.replayed_from,
    }


def unanswerable_variant(state: SampleState, context: Context) -> dict[str, Any] | None:
    """Up to N non-relevant contexts a RAG system must abstain on; None with fewer than two."""
    irrelevant = [item["id"] for item in state["contexts"] if not item["relevant"]]
    if len(irrelevant) < 2:
        return None
    return {"contexts": irrelevant[: context.max_unanswerable_contexts], "expected": "abstain"}


async def finalize_sample(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Assemble and validate the SPEC section 3 record."""
    context = runtime.context
    draft = latest_draft(state)
    record: dict[str, Any] = {
        "id": state.get("thread_id") or f"{context.run_id}/adhoc",
        "question": draft["question"],
        "answer": normalised_answer(draft["answer"], binary=state["binary"]),
        "question_type": state["question_type"],
        "binary": state["binary"],
        "temporal": state["temporal"],
        "role": state.get("role") or DEFAULT_ROLE,
        "bridge_topic": state["bridge_topic"],
        "construction": draft.get("construction") or {},
        "hops": len(state["supporting"]),
        "supporting": [{"id": c["id"], "text": c["text"], "metadata": c["metadata"]} for c in state["supporting"]],
        "contexts": state["contexts"],
        "n_relevant": state["n_relevant"],
        "difficulty": state["difficulty"],
        "unanswerable": unanswerable_variant(state, context),
        "validation": {"revisions": state.get("revisions", 0), "verdicts": state["verdicts"]},
        "provenance": provenance(state, context),
    }
    try:
        validated = DatasetRecord.model_validate(record)
    except ValidationError as invalid:
        return {"outcome": "failed", "end_reason": f"the record is invalid: {invalid.errors()[0]['msg']}"}
    registry = context.require_services().questions
    duplicate_of = await registry.register(draft["question"], record["id"]) if registry else None
    if duplicate_of is not None:
        return {"outcome": "rejected", "end_reason": f"duplicate of the question of sample {duplicate_of}"}
    return {"record": validated.model_dump(mode="json"), "outcome": "accepted", "end_reason": "accepted"}


#: The keys of a rejected.jsonl line, in the order it shows them.
REJECTION_FIELDS = (
    "id",
    "outcome",
    "end_reason",
    "question_type",
    "binary",
    "hops",
    "seed_id",
    "bridge_topic",
    "bridge_attempts",
    "restarts",
    "supporting_ids",
    "drafts",
    "verdicts",
    "failure_raw",
    "llm_calls",
    "provenance",
)


def rejection_entry(state: dict[str, Any], context: Context) -> dict[str, Any]:
    """The rejected.jsonl line of a sample that ended without a record: history and end reason."""
    return {
        "id": state.get("thread_id", ""),
        "outcome": state.get("outcome"),
        "end_reason": state.get("end_reason", ""),
        "question_type": state.get("question_type"),
        "binary": state.get("binary"),
        "hops": state.get("hops", 2),
        "seed_id": state.get("seed", {}).get("id"),
        "bridge_topic": state.get("bridge_topic"),
        "bridge_attempts": state.get("bridge_attempts", []),
        "restarts": state.get("restarts", 0),
        "supporting_ids": [c["id"] for c in state.get("supporting", [])],
        "drafts": state.get("drafts", []),
        "verdicts": state.get("verdicts", []),
        "failure_raw": state.get("failure_raw"),
        "llm_calls": state.get("llm_calls", []),
        "provenance": provenance(state, context),  # type: ignore[arg-type]
    }
