"""judge_quality, judge_sufficiency and classify_temporal: the validator's checks.

A rejection with revisions left routes to revise_question; after the last revision the sample ends
as `rejected`, with every verdict kept in state.
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from nodes.common import Update, delimited_draft, instructed, letter_labels, records_failure
from nodes.context import Context
from nodes.generate import labelled_chunks
from prompts import delimit
from prompts import judge_quality as quality_prompt
from prompts import judge_sufficiency as sufficiency_prompt
from prompts import temporal as temporal_prompt
from state.sample import Judge, SampleState, Verdict, latest_draft
from state.schemas import QualityVerdict, SufficiencyVerdict, TemporalLabel


def verdict_update(
    state: SampleState, context: Context, judge: Judge, *, accepted: bool, reason: str, details: dict[str, Any]
) -> Update:
    """Record a verdict; a round with a rejection, after the last revision, ends the sample as rejected."""
    revision = latest_draft(state)["revision"]
    verdict = Verdict(
        judge=judge, revision=revision, accepted=accepted, reason="" if accepted else reason, details=details
    )
    update: Update = {"verdicts": [verdict]}
    earlier = [v for v in state["verdicts"] if v["revision"] == revision and not v["accepted"]]
    rejections = [*earlier, *([] if accepted else [verdict])]
    if rejections and state.get("revisions", 0) >= context.max_revisions:
        first = rejections[0]
        update |= {
            "outcome": "rejected",
            "end_reason": f"rejected by the {first['judge']} check after {revision} revision(s): {first['reason']}",
        }
    return update


@records_failure
async def judge_quality(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Quality, multi-hop and unambiguity in one strict verdict."""
    llm = runtime.context.require_services().llm
    question, answer = delimited_draft(state)
    messages = instructed(
        quality_prompt.SYSTEM,
        quality_prompt.USER.format(
            question_type=state["question_type"],
            binary="yes" if state["binary"] else "no",
            question=question,
            answer=answer,
            chunks=labelled_chunks(state),
        ),
    )
    verdict, call = await llm.ask("validator", QualityVerdict, messages, node="judge_quality")
    dimensions = {"quality": verdict.quality, "multi_hop": verdict.multi_hop, "unambiguous": verdict.unambiguous}
    # Strict: a failed dimension rejects even when the judge's own flag says accepted.
    accepted = verdict.accepted and all(dimensions.values())
    reason = verdict.reason.strip() or "failed: " + ", ".join(name for name, ok in dimensions.items() if not ok)
    update = verdict_update(state, runtime.context, "quality", accepted=accepted, reason=reason, details=dimensions)
    return update | {"llm_calls": [call]}


@records_failure
async def judge_sufficiency(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Each supporting chunk alone: does it answer the question? If any does, it is not multi-hop.

    The per-chunk calls run concurrently inside this node (asyncio.gather) rather than as a LangGraph
    Send fan-out: they are independent, short and all needed before one verdict can be formed, so
    one node keeps one verdict per round and one checkpoint, while the run's shared rate limiter
    still bounds how many requests are in flight.
    """
    llm = runtime.context.require_services().llm
    question, _ = delimited_draft(state)
    labels = letter_labels(len(state["supporting"]))

    async def judge(label: str, text: str) -> tuple[SufficiencyVerdict, Any]:
        messages = instructed(
            sufficiency_prompt.SYSTEM,
            sufficiency_prompt.USER.format(question=question, chunk=delimit("chunk", label, text)),
        )
        return await llm.ask("validator", SufficiencyVerdict, messages, node="judge_sufficiency")

    results = await asyncio.gather(
        *(judge(label, c["text"]) for label, c in zip(labels, state["supporting"], strict=True))
    )
    sufficient = {label: verdict.sufficient for label, (verdict, _) in zip(labels, results, strict=True)}
    alone = [label for label, enough in sufficient.items() if enough]
    reasons = {label: verdict.reason for label, (verdict, _) in zip(labels, results, strict=True)}
    reason = "; ".join(
        f"chunk {label} alone answers the question ({reasons[label] or 'no other chunk is needed'}); "
        "rewrite it so that it also needs the facts of the other chunk(s)"
        for label in alone
    )
    details = {"sufficient": sufficient, "reasons": reasons}
    update = verdict_update(state, runtime.context, "sufficiency", accepted=not alone, reason=reason, details=details)
    return update | {"llm_calls": [call for _, call in results]}


@records_failure
async def classify_temporal(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Label the accepted question temporal or not."""
    llm = runtime.context.require_services().llm
    question, answer = delimited_draft(state)
    messages = instructed(temporal_prompt.SYSTEM, temporal_prompt.USER.format(question=question, answer=answer))
    label, call = await llm.ask("validator", TemporalLabel, messages, node="classify_temporal")
    return {"temporal": label.temporal, "llm_calls": [call]}
