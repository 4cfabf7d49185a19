"""The judges of an evaluation: a verdict asked of the validator, the contexts a retrieval is scored against (CARE
labels for chunks a record's list lacks), abstention."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from graph.evaluation.scoring.metrics import says_abstain
from graph.llm.gateway import LLMGateway
from nodes.common import instructed, normalise_text
from nodes.steps.extract import care_messages
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.evidence import LabelledPassage, Passage
from state.record import DatasetRecord
from state.schemas import (
    AbstentionVerdict,
    RelevanceVerdict,
)


async def judge(gateway: LLMGateway, schema: Any, system: str, user: str, node: str) -> Any:
    messages = instructed(system, user)
    verdict, _ = await gateway.ask("validator", schema, messages, node=node)
    return verdict


def labelled_contexts(record: DatasetRecord) -> list[LabelledPassage]:
    """The record's contexts as retrieval is scored against them: id, text and relevance."""
    return [LabelledPassage(id=c.id, text=c.text, relevant=c.relevant) for c in record.contexts]


def not_in_contexts(record: DatasetRecord, retrieved: Sequence[Passage]) -> list[Passage]:
    """The retrieved chunks the record's context list holds neither by id nor by normalised text."""
    ids = {c.id for c in record.contexts}
    texts = {normalise_text(c.text) for c in record.contexts}
    return [c for c in retrieved if c.get("id") not in ids and normalise_text(c["text"]) not in texts]


async def judged_contexts(
    gateway: LLMGateway, record: DatasetRecord, retrieved: Sequence[Passage]
) -> list[LabelledPassage]:
    """The record's labelled contexts plus CARE labels for retrieved chunks the list does not hold."""
    unknown = not_in_contexts(record, retrieved)
    supporting = delimit_all("chunk", ((chr(65 + i), c.text) for i, c in enumerate(record.supporting)))

    async def label(chunk: Passage) -> LabelledPassage:
        messages = care_messages(
            delimit("question", "Q", record.canonical_question),
            delimit("answer", "reference", record.answer),
            supporting,
            delimit("candidate", "X1", chunk["text"]),
        )
        verdict, _ = await gateway.ask("extractor", RelevanceVerdict, messages, node="judge_unlabelled")
        return LabelledPassage(id=chunk["id"] or "", text=chunk["text"], relevant=verdict.relevant)

    return [*labelled_contexts(record), *await asyncio.gather(*(label(c) for c in unknown))]


async def abstains(gateway: LLMGateway, answer: str) -> bool:
    """Whether an answer declines: a phrase check first, the judge for the rest."""
    if says_abstain(answer):
        return True
    asked = prompt.ABSTENTION_USER.format(candidate=delimit("answer", "candidate", answer))
    verdict = await judge(gateway, AbstentionVerdict, prompt.ABSTENTION_SYSTEM, asked, "judge_abstention")
    return bool(verdict.abstained)
