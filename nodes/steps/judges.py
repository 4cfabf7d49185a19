"""judge_quality and judge_sufficiency: the validator's checks of a draft.

Each check records its verdict; where a rejected draft goes next (revise_question, or reject_sample
once the revisions are spent) is decided in `nodes/routing.py`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from nodes.common import (
    Update,
    delimited_draft,
    instructed,
    joined,
    letter_labels,
    recorded_verdict,
    records_failure,
)
from nodes.language import quoted_yes_no, sample_language
from nodes.ports import StructuredChat
from nodes.question_types import TYPES
from nodes.run_context import Context
from nodes.steps.generate import evidence_block, labelled_chunks
from prompts import delimit_all
from prompts import judge_quality as quality_prompt
from prompts import judge_sufficiency as sufficiency_prompt
from state.languages import language_name, polarity
from state.sample import SampleState, is_single_hop, latest_draft
from state.schemas import QualityVerdict, SingleHopVerdict, SufficiencyVerdict
from state.usage import ModelCall


def asks_one_thing(asks_for: Sequence[str]) -> bool:
    """The `one_question` dimension: the verdict lists exactly one thing the question asks for."""
    return len([item for item in asks_for if item.strip()]) == 1


def decided(dimensions: dict[str, bool], judge_reason: str) -> tuple[bool, str]:
    """Accepted exactly when every dimension holds, whatever the judge's own `accepted` says (a real model
    returned multi_hop false with accepted true, and the other way round); the feedback of a rejection."""
    accepted = all(dimensions.values())
    return accepted, "" if accepted else quality_feedback(dimensions, judge_reason)


def quality_feedback(dimensions: dict[str, bool], judge_reason: str) -> str:
    """The failed dimensions and the judge's reason, then a fix for each failed dimension."""
    failed = [name for name, holds in dimensions.items() if not holds]
    judge_reason = judge_reason.strip().rstrip(".")
    if not failed:
        return judge_reason or "the judge rejected the draft without naming a dimension; check every requirement"
    fixes = "; ".join(f"{name}: {quality_prompt.DIMENSION_FIXES[name]}" for name in failed)
    return f"{joined(failed)} failed" + (f": {judge_reason}" if judge_reason else "") + f". To fix {fixes}"


async def _judge_single_hop(
    state: SampleState, llm: StructuredChat, question: str, answer: str, language: str
) -> Update:
    """Quality and unambiguity of a question written from one chunk (multi-hop does not apply)."""
    messages = instructed(
        quality_prompt.SINGLE_HOP_SYSTEM,
        quality_prompt.SINGLE_HOP_USER.format(
            type_definition=TYPES[state["question_type"]].judged_definition(state["binary"]),
            binary=yes_no_line(state["binary"], language),
            language=language_name(language),
            question=question,
            answer=answer,
            evidence=evidence_block(state),
            chunks=labelled_chunks(state),
        ),
    )
    verdict, call = await llm.ask("validator", SingleHopVerdict, messages, node="judge_quality")
    dimensions = {
        "one_question": asks_one_thing(verdict.asks_for),
        "quality": verdict.quality,
        "unambiguous": verdict.unambiguous,
    }
    accepted, reason = decided(dimensions, verdict.reason)
    details = {**dimensions, "asks_for": verdict.asks_for, "reasoning": verdict.reasoning}
    update = recorded_verdict(state, "quality", accepted=accepted, reason=reason, details=details)
    return update | {"llm_calls": [call]}


def yes_no_line(binary: bool, language: str) -> str:
    """How the quality judge is told whether the question is a yes/no one, and its answer words."""
    if not binary:
        return "no"
    return quality_prompt.YES_NO_LINE.format(**quoted_yes_no(language))


@records_failure
async def judge_quality(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Quality, multi-hop and unambiguity in one strict verdict (quality and unambiguity for a single-hop question)."""
    llm = runtime.context.require_ports().llm
    question, answer = delimited_draft(state)
    hops = len(state["supporting"])
    language = sample_language(state, runtime.context)
    if is_single_hop(state):
        return await _judge_single_hop(state, llm, question, answer, language)
    messages = instructed(
        quality_prompt.SYSTEM,
        quality_prompt.USER.format(
            type_definition=TYPES[state["question_type"]].judged_definition(state["binary"]),
            binary=yes_no_line(state["binary"], language),
            language=language_name(language),
            hops=hops,
            labels=joined(letter_labels(hops)),
            question=question,
            answer=answer,
            evidence=evidence_block(state),
            chunks=labelled_chunks(state),
        ),
    )
    verdict, call = await llm.ask("validator", QualityVerdict, messages, node="judge_quality")
    dimensions = {
        "one_question": asks_one_thing(verdict.asks_for),
        "quality": verdict.quality,
        "multi_hop": verdict.multi_hop,
        "unambiguous": verdict.unambiguous,
    }
    accepted, reason = decided(dimensions, verdict.reason)
    details = {**dimensions, "asks_for": verdict.asks_for, "reasoning": verdict.reasoning}
    update = recorded_verdict(state, "quality", accepted=accepted, reason=reason, details=details)
    return update | {"llm_calls": [call]}


def tested_sets(labels: Sequence[str]) -> list[tuple[str, ...]]:
    """What judge_sufficiency tests: each chunk alone and, with more than two, each set of all chunks but one."""
    alone: list[tuple[str, ...]] = [(label,) for label in labels]
    if len(labels) <= 2:
        return alone
    return alone + [tuple(label for label in labels if label != left_out) for left_out in labels]


def sufficiency_feedback(labels: Sequence[str], tested: tuple[str, ...], reason: str) -> str:
    """Why a set of chunks that answers the question alone rejects it, naming the chunk(s) it does not need."""
    unneeded = [label for label in labels if label not in tested]
    return sufficiency_prompt.FEEDBACK.format(
        tested=f"chunk {tested[0]} alone answers" if len(tested) == 1 else f"chunks {joined(tested)} together answer",
        unneeded=("chunks " if len(unneeded) > 1 else "chunk ") + joined(unneeded),
        because=f" ({reason.strip()})" if reason.strip() else "",
    )


def yes_no_request(state: SampleState, language: str) -> str:
    """How the sufficiency request says whether the question is a yes/no one, and which answer it has."""
    if not state["binary"]:
        return sufficiency_prompt.YES_NO_LINES["open"]
    answer = latest_draft(state)["answer"]
    found = polarity(answer, language) or "unread"  # a language without yes/no words in triad's tables
    return sufficiency_prompt.YES_NO_LINES[found].format(answer=f'"{answer}"')


def sufficiency_request(
    state: SampleState, language: str, tested: Sequence[str], *, every: bool = False
) -> list[BaseMessage]:
    """The sufficiency judge's request about the `tested` chunks of the sample's supporting chunks (by letter);
    `every`: they are all the chunks the question rests on, asked whether together they answer it."""
    labels = letter_labels(len(state["supporting"]))
    texts = dict(zip(labels, (c["text"] for c in state["supporting"]), strict=True))
    question, answer = delimited_draft(state)
    named = f"chunk{'s' if len(tested) > 1 else ''} " + joined(list(tested))
    return instructed(
        sufficiency_prompt.SYSTEM,
        sufficiency_prompt.USER.format(
            yes_no=yes_no_request(state, language),
            question=question,
            answer=answer,
            evidence=evidence_block(state, tested),
            tested=sufficiency_prompt.EVERY_CHUNK.format(tested=named) if every else named,
            chunks=delimit_all("chunk", ((label, texts[label]) for label in tested)),
        ),
    )


async def judge_together(
    state: SampleState, llm: StructuredChat, language: str
) -> tuple[SufficiencyVerdict, ModelCall]:
    """Whether the sample's supporting chunks together answer its question: the sufficiency judge asked once about
    all of them (`graph.check`, after a record's facts were followed to the chunks of another cutting)."""
    messages = sufficiency_request(state, language, letter_labels(len(state["supporting"])), every=True)
    return await llm.ask("validator", SufficiencyVerdict, messages, node="judge_sufficiency")


@records_failure
async def judge_sufficiency(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Every supporting chunk necessary: no chunk alone, and no set of all chunks but one, answers the question.

    The calls run concurrently inside this node (asyncio.gather) rather than as a LangGraph Send
    fan-out: they are independent, short and all needed before one verdict can be formed, so one
    node keeps one verdict per round and one checkpoint, while the run's shared rate limiter still
    bounds how many requests are in flight.
    """
    llm = runtime.context.require_ports().llm
    language = sample_language(state, runtime.context)
    labels = letter_labels(len(state["supporting"]))
    sets = tested_sets(labels)

    async def judge(tested: tuple[str, ...]) -> tuple[SufficiencyVerdict, ModelCall]:
        messages = sufficiency_request(state, language, tested)
        return await llm.ask("validator", SufficiencyVerdict, messages, node="judge_sufficiency")

    results = await asyncio.gather(*(judge(tested) for tested in sets))
    verdicts = dict(zip(sets, (verdict for verdict, _ in results), strict=True))
    enough = [tested for tested, verdict in verdicts.items() if verdict.sufficient]
    # Feedback names the smallest sets that suffice: "A alone" says more than "A and B together".
    smallest = [tested for tested in enough if not any(set(other) < set(tested) for other in enough)]
    reason = "; ".join(sufficiency_feedback(labels, tested, verdicts[tested].reason) for tested in smallest)
    details = {
        "sufficient": {"+".join(tested): verdict.sufficient for tested, verdict in verdicts.items()},
        "reasons": {"+".join(tested): verdict.reason for tested, verdict in verdicts.items()},
        "unneeded": sorted({label for tested in enough for label in labels if label not in tested}),
    }
    update = recorded_verdict(state, "sufficiency", accepted=not enough, reason=reason, details=details)
    return update | {"llm_calls": [call for _, call in results]}
