"""Helpers shared by nodes: chunk labels, word-boundary matching, failure capture."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from nodes.ports import ChunkLike, ModelCallFailed
from prompts import UNTRUSTED_NOTE, delimit
from state.sample import ChunkRef, Judge, SampleState, Verdict, latest_draft

Update = dict[str, Any]


def instructed(system: str, user: str) -> list[BaseMessage]:
    """A model request: static instructions (with the untrusted-data note) first, material last."""
    return [SystemMessage(system + "\n" + UNTRUSTED_NOTE), HumanMessage(user)]


def delimited_draft(state: SampleState) -> tuple[str, str]:
    """The latest draft's question and answer, each inside its delimiting tag."""
    draft = latest_draft(state)
    return delimit("question", "Q", draft["question"]), delimit("answer", "reference", draft["answer"])


def chunk_ref(chunk: ChunkLike) -> ChunkRef:
    """A corpus chunk as state data."""
    return ChunkRef(id=chunk.id, text=chunk.text, metadata=dict(chunk.metadata or {}))


def letter_labels(count: int) -> list[str]:
    """A, B, C, ... for supporting chunks."""
    return list(string.ascii_uppercase[:count])


def joined(items: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C": items as a sentence lists them."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def mentions(text: str, entity: str) -> bool:
    """Whether `text` contains `entity` as whole words, case-folded ("US" is not in "bus")."""
    needle = entity.strip().casefold()
    if not needle:
        return False
    folded = _folded(text)
    return needle in folded and _whole_words(needle).search(folded) is not None  # substring test first: cheap


@functools.lru_cache(maxsize=8192)  # neighbour texts recur across samples
def normalise_text(text: str) -> str:
    """Text as compared for duplicates: case-folded, whitespace collapsed."""
    return " ".join(text.split()).casefold()  # str.split and re's \s agree on what whitespace is


def normalise_question(question: str) -> str:
    """A question as compared for duplicates: case-folded words, punctuation dropped."""
    return " ".join(re.findall(r"\w+", question.casefold()))


# A sample tests many entities against the same few chunks: fold each text and compile each
# pattern once (the `re` module's own cache holds only a few hundred patterns).
@functools.lru_cache(maxsize=2048)
def _folded(text: str) -> str:
    return text.casefold()


@functools.lru_cache(maxsize=4096)
def _whole_words(needle: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(needle)}(?!\w)")


def recorded_verdict(
    state: SampleState, judge: Judge, *, accepted: bool, reason: str, details: dict[str, Any]
) -> Update:
    """A check's verdict on the latest draft, kept in state (routing reads it to revise or reject)."""
    revision = latest_draft(state)["revision"]
    verdict = Verdict(
        judge=judge, revision=revision, accepted=accepted, reason="" if accepted else reason, details=details
    )
    return {"verdicts": [verdict]}


def records_failure(node: Callable[..., Awaitable[Update]]) -> Callable[..., Awaitable[Update]]:
    """A model call that gave no usable answer ends the sample as `failed`, never the run."""

    @functools.wraps(node)
    async def wrapper(state: Any, runtime: Any) -> Update:
        try:
            return await node(state, runtime)
        except ModelCallFailed as failure:
            return {
                "outcome": "failed",
                "end_reason": str(failure),
                "failure_raw": failure.raw,
                "llm_calls": [failure.record],
            }

    return wrapper


def word_count(text: str) -> int:
    return len(text.split())


def yes_or_no(answer: str) -> str | None:
    """ "Yes" or "No" for an answer that is one of them in any case, with a trailing full stop; else None."""
    word = answer.strip().strip("\"'“”‘’*").rstrip(".!").strip().casefold()
    return {"yes": "Yes", "no": "No"}.get(word)


def normalised_answer(answer: str, *, binary: bool) -> str:
    """The answer as a record keeps it: stripped, and a binary answer written exactly "Yes" or "No"."""
    stripped = answer.strip()
    return (yes_or_no(stripped) or stripped) if binary else stripped
