"""The plausible script's judges and the evaluation's answerer: they accept well-formed drafts, label a chunk of
the same manual section relevant, and answer with the section number a question's heading names."""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.reading import CODES_BY_NAME, heading, prompt, section, tagged
from graph.llm.offline.wordings import TOO_LONG
from nodes.language import detect_language
from prompts.evaluate import DECLINES
from prompts.judge_sufficiency import EVERY_CHUNK
from state.evidence import contains
from state.languages import DEFAULT_LANGUAGE

#: Phrases that would answer the plausible unanswerable questions (who wrote a section, when it was published).
_ANSWERING = ("written by", "authored by", "first published in")


def judge_unanswerable(messages: list[BaseMessage]) -> dict[str, Any]:
    answering = [
        label for label, text in tagged(messages, "chunk").items() if any(p in text.casefold() for p in _ANSWERING)
    ]
    return {
        "reasoning": "the question asks for an author or a year; checked each retrieved chunk for one",
        "plausible": True,
        "answered_by": answering,
        "answerable": bool(answering),
        "accepted": not answering,
        "reason": f"chunk {', '.join(answering)} states it" if answering else "",
    }


def label_relevance(messages: list[BaseMessage]) -> dict[str, Any]:
    supporting = {heading(text) for text in tagged(messages, "chunk").values()}
    candidate = next(iter(tagged(messages, "candidate").values()))
    same_section = heading(candidate) in supporting
    return {"relevant": same_section, "reason": "same manual section" if same_section else "another section"}


_QUOTED = re.compile(r'"[^"]*"|«[^»]*»|「[^」]*」')


def judge_quality(messages: list[BaseMessage]) -> dict[str, Any]:
    """Accepts a short question written in the language asked for (its quoted headings aside)."""
    question = next(iter(tagged(messages, "question").values()))
    short = len(question.split()) <= 30
    asked = re.search(r"Language of the question and answer: (.+)", prompt(messages))
    asked_code = CODES_BY_NAME.get(asked.group(1).strip(), "en") if asked else "en"
    written = detect_language(_QUOTED.sub(" ", question))
    in_language = written is None or written == asked_code
    accepted = short and in_language
    reason = "" if accepted else TOO_LONG if not short else f"F: written in {written}, not {asked_code}"
    return {
        "reasoning": f"{len(question.split())} words; each chunk holds one of the two section headings",
        "asks_for": ["the one answer the question names"],
        "quality": accepted,
        "multi_hop": True,
        "unambiguous": short,
        "accepted": accepted,
        "reason": reason,
    }


def judge_single_hop(messages: list[BaseMessage]) -> dict[str, Any]:
    """Accepts a short question written in the language asked for, as `judge_quality` does."""
    verdict = judge_quality(messages)
    return {key: value for key, value in verdict.items() if key != "multi_hop"}


def rag_answer(messages: list[BaseMessage]) -> dict[str, str]:
    """Answer with the section number of a context whose heading the question quotes, else decline."""
    asked = tagged(messages, "question")
    question = asked.get("Q") or next(iter(asked.values()), "")
    # A follow-up names its section in an earlier turn: the answerer reads the conversation.
    question += " " + asked.get("earlier turns of this conversation", "")
    for text in tagged(messages, "chunk").values():
        number, title = section(text)
        if number and f'"{title}"' in question and not question.startswith(_UNANSWERED):
            return {"answer": number}
    return {"answer": decline(question)}


#: The questions no context answers (no context names authors or years), however they quote a heading.
_UNANSWERED = ("Who wrote", "In which year")


def decline(question: str) -> str:
    """ "I don't know" as the answering prompt asks for it: in the question's language (English where its words
    are not listed)."""
    language = detect_language(_QUOTED.sub(" ", question)) or DEFAULT_LANGUAGE
    return DECLINES.get(language, DECLINES[DEFAULT_LANGUAGE])


def judge_abstention(messages: list[BaseMessage]) -> dict[str, bool]:
    """Declined: an answer that says it does not know (the phrase check has passed over it already)."""
    answer = next(iter(tagged(messages, "answer").values()), "")
    return {"abstained": re.search(r"\bknow\b", answer, re.IGNORECASE) is not None}


def judge_correctness(messages: list[BaseMessage]) -> dict[str, Any]:
    answers = tagged(messages, "answer")
    same = (
        " ".join(answers.get("reference", "").split()).casefold()
        == " ".join(answers.get("candidate", "").split()).casefold()
    )
    candidate = f"the answer is {answers.get('candidate', '').strip()}"
    reference = f"the answer is {answers.get('reference', '').strip()}"
    return {
        "true_positive": [candidate] if same else [],
        "false_positive": [] if same else [candidate],
        "false_negative": [] if same else [reference],
        "correct": same,
        "reason": "same answer" if same else "different answer",
    }


def judge_sufficiency(messages: list[BaseMessage]) -> dict[str, Any]:
    """One chunk never answers a question built from two headings. Asked about every chunk the question rests on
    (`graph.check` after a new cutting), the chunks answer it when they hold every quote shown and every title the
    question quotes."""
    text = prompt(messages)
    if EVERY_CHUNK.format(tested="") not in text:
        return {"reasoning": "the question needs two section headings; the text holds fewer", "sufficient": False,
                "reason": "one heading is missing"}  # fmt: skip
    held = "\n".join(tagged(messages, "chunk").values())
    question = next(iter(tagged(messages, "question").values()), "")
    needed = [*tagged(messages, "quote").values(), *("".join(found) for found in _QUOTED_TITLE.findall(question))]
    missing = [
        part
        for need in needed
        for part in need.split("...")
        if len(part.strip()) > 3 and not contains(held, part.strip())
    ]
    if missing:
        return {
            "reasoning": f"the text does not state {missing[0]!r}",
            "sufficient": False,
            "reason": f"{missing[0]!r} is missing",
        }
    return {"reasoning": "every heading the question names is in the text", "sufficient": True, "reason": "all stated"}


#: A title a plausible question quotes: "...", « ... » or 「...」.
_QUOTED_TITLE = re.compile(r'"([^"]+)"|« ([^»]+) »|「([^」]+)」')
