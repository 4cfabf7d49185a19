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
from state.languages import written_answer
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
    """Whether `text` contains `entity` as whole words, case-folded ("US" is not in "bus"). A needle's edge in a
    script without spaces needs no guard ("東京" is a word of "東京の首都"), and such a letter is none ("GUIの")."""
    needle = entity.strip().casefold()
    if not needle:
        return False
    folded = _folded(text)
    guard_start, guard_end = not unspaced(needle[0]), not unspaced(needle[-1])
    start = folded.find(needle)
    while start != -1:
        end = start + len(needle)
        if not (guard_start and start and _letter(folded[start - 1])) and not (
            guard_end and end < len(folded) and _letter(folded[end])
        ):
            return True
        start = folded.find(needle, start + 1)
    return False


def _letter(char: str) -> bool:
    """A character of a word in a spaced script: what `\\w` matches, less the scripts written without spaces."""
    return (char.isalnum() or char == "_") and _UNSPACED_CHAR.match(char) is None


@functools.lru_cache(maxsize=8192)  # neighbour texts recur across samples
def normalise_text(text: str) -> str:
    """Text as compared for duplicates: case-folded, whitespace collapsed."""
    return " ".join(text.split()).casefold()  # str.split and re's \s agree on what whitespace is


def normalise_question(question: str) -> str:
    """A question as compared for duplicates: case-folded words, punctuation dropped."""
    return " ".join(re.findall(r"\w+", question.casefold()))


# A sample tests many entities against the same few chunks: fold each text once.
@functools.lru_cache(maxsize=2048)
def _folded(text: str) -> str:
    return text.casefold()


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
                "llm_calls": [failure.call],
            }

    return wrapper


#: Characters of scripts written without spaces between words (Han, kana, Thai, Lao, Khmer, Myanmar).
_UNSPACED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_UNSPACED_CHAR = re.compile(f"[{_UNSPACED}]")
_SPACED_WORD = re.compile(f"[^\\s{_UNSPACED}]+")


def word_count(text: str) -> int:
    """Words of `text`; in scripts written without spaces (Chinese, Japanese, Thai), two characters count as one."""
    unspaced = len(_UNSPACED_CHAR.findall(text))
    return len(_SPACED_WORD.findall(text)) + (unspaced + 1) // 2


def unspaced(text: str) -> bool:
    """Whether `text` holds characters of a script written without spaces, where words have no edges to find."""
    return _UNSPACED_CHAR.search(text) is not None


def normalised_answer(answer: str, *, binary: bool, language: str) -> str:
    """The answer as a record keeps it: stripped, and a yes/no answer as the language's own word ("ja." -> "Ja")."""
    return written_answer(answer, language) if binary else answer.strip()
