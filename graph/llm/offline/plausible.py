"""A plausible script: answers like a cautious model would, from what each prompt holds.

A bridge from entities the chunks really share, questions built from the chunks' section headings, and the
judges of `judges` that accept well-formed drafts. The demo's recorded calls, the run benchmark and the command tests
use it.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.judges import (
    judge_abstention,
    judge_correctness,
    judge_quality,
    judge_single_hop,
    judge_sufficiency,
    judge_unanswerable,
    label_relevance,
    rag_answer,
)
from graph.llm.offline.reading import asked_language, heading, prompt, section, tagged
from graph.llm.offline.restyles import check_restyle, restyle
from graph.llm.offline.scripted import Faults, ScriptedChatModel
from graph.llm.offline.wordings import PROCEDURAL, SINGLE_HOP, TEMPLATES, TOO_LONG, WHO_WROTE
from nodes.common import mentions
from nodes.steps.bridge import entity_spans
from state.languages import answer_words

#: How many words of a heading a revision told the question is too long (`TOO_LONG`) keeps.
SHORT_TITLE_WORDS = 4


def propose(messages: list[BaseMessage]) -> dict[str, Any]:
    chunks = tagged(messages, "chunk")
    hops = int(re.search(r"at least (\d+)", prompt(messages)).group(1))  # type: ignore[union-attr]
    entities = {label: entity_spans(text)[:12] for label, text in chunks.items()}
    listed = [{"chunk": label, "entities": names} for label, names in entities.items()]
    for span in sorted(entities.get("C1", []), key=len, reverse=True):
        sharing = [label for label, text in chunks.items() if mentions(text, span)]
        numbered = [label for label in sharing if section(chunks[label])[0]]
        if len(numbered) >= hops:
            return {"topic": span, "chunks": numbered[:hops], "entities": listed}
    return {"topic": "", "chunks": [], "entities": listed}


_STEP = re.compile(r"^\s*(?:\d+[.)]|step\s+\d+[.:)]?|[-*•])\s+(.*)$", re.IGNORECASE | re.MULTILINE)


def _steps(chunk: str) -> list[str]:
    """A procedure's steps: its list items, or else its sentences (a sequence in prose)."""
    items = _STEP.findall(chunk)
    return items or [sentence for sentence in re.split(r"(?<=[.!?])\s+", chunk.split("\n", 1)[-1]) if sentence]


def _single_hop_question(text: str, chunk: str) -> dict[str, Any]:
    """A factual question about chunk A's heading, or the steps of its procedure."""
    number, title = section(chunk)
    if "Question type: procedural" in text:
        steps = [" ".join(step.split()[:6]) for step in _steps(chunk)][:8]
        wording = PROCEDURAL.get(asked_language(text), SINGLE_HOP["procedural"])
        return {"question": wording.format(title=title), "answer": "; ".join(steps)}
    if "It is not a yes/no question" not in text:
        wanted = re.search(r'whose correct answer is "([^"]+)"', text)
        asked = number if wanted is None or wanted.group(1) == "Yes" else f"{number}9"
        answer = "Yes" if asked == number else "No"
        return {"question": SINGLE_HOP["factual_binary"].format(title=title, number=asked), "answer": answer}
    if number:
        return {"question": SINGLE_HOP["factual"].format(title=title), "answer": number}
    opening = " ".join(chunk.split("\n", 1)[-1].split()[:6])
    return {"question": SINGLE_HOP["opening"].format(title=title), "answer": opening}


def asked_type(text: str) -> str:
    """The question type a request asks for, from its "Question type:" line (chunk text may name any type)."""
    match = re.search(r"^Question type: (\w+)", text, re.MULTILINE)
    return match.group(1) if match else ""


def _question(messages: list[BaseMessage]) -> dict[str, Any]:
    text = prompt(messages)
    kind = asked_type(text)
    chunks = tagged(messages, "chunk")
    if "Bridging topic:" not in text:  # a single-hop type's request, whichever type: its one chunk is A
        return _single_hop_question(text, chunks["A"])
    topic = re.search(r"Bridging topic: (.*)", text).group(1).strip()  # type: ignore[union-attr]
    (number_a, title_a), (number_b, title_b) = section(chunks["A"]), section(chunks["B"])
    if TOO_LONG in text:  # a revision told to shorten the question quotes less of each heading
        title_a, title_b = (" ".join(title.split()[:SHORT_TITLE_WORDS]) for title in (title_a, title_b))
    language = asked_language(text)
    words = TEMPLATES.get(language, TEMPLATES["en"])
    if "It is not a yes/no question" not in text:
        same = number_a.split(".")[0] == number_b.split(".")[0]
        yes, no = answer_words(language) or ("Yes", "No")
        wanted = re.search(r'whose correct answer is "([^"]+)"', text)
        # Asked for a Yes or a No, the question is put so the chapters' numbers give that answer.
        apart = wanted is not None and (wanted.group(1) == yes) != same
        question = words["binary"].format(a=title_a, b=title_b, relation=words["apart" if apart else "same"])
        construction = _binary_construction(text, title_a, title_b)
        return {"question": question, "answer": yes if same != apart else no, **construction}
    if not (number_a and number_b) and kind == "composition":
        hidden = [{"entity": title_a, "chunk": "A"}]
        return {"question": words["composition_term"].format(b=title_b), "answer": topic, "hidden_entities": hidden}
    if not (number_a and number_b) and kind == "intersection":
        title_a, title_b = (re.sub(re.escape(topic), "...", title, flags=re.I) for title in (title_a, title_b))
        return {"question": words["term"].format(a=title_a, b=title_b), "answer": topic}
    if kind == "composition":
        return {
            "question": words["composition"].format(b=title_b),
            "answer": number_a,
            "hidden_entities": [{"entity": title_a, "chunk": "A"}],
        }
    if kind == "intersection":
        return {"question": words["intersection"].format(topic=topic, b=title_b), "answer": number_a}
    order = {title_a: number_a, title_b: number_b}
    earlier = min(order, key=lambda title: [int(part) for part in order[title].split(".") if part.isdigit()])
    return {
        "question": words["comparison"].format(a=title_a, b=title_b),
        "answer": earlier,
        "compared_entities": [title_a, title_b],
    }


def _binary_construction(text: str, title_a: str, title_b: str) -> dict[str, Any]:
    """What a yes/no draft declares of its construction: a composition the chapter chunk A's section lies in (the
    question names only the sections), a comparison the two sections it compares, as the question quotes them."""
    if asked_type(text) == "composition":
        return {"hidden_entities": [{"entity": f"the chapter holding {title_a}", "chunk": "A"}]}
    if asked_type(text) == "intersection":
        return {}
    return {"compared_entities": [title_a, title_b]}


def write_question(messages: list[BaseMessage]) -> dict[str, Any]:
    """A QuestionDraft reply: the plan first (which heading each chunk gives), the evidence (each chunk's heading
    line, the facts the question is built from, quoted as they stand), every construction field."""
    drafted = _question(messages)
    plan = "A and B each give one section heading and number of the manual; the question combines both"
    return {
        "plan": plan,
        "question": drafted["question"],
        "answer": drafted["answer"],
        "evidence": [{"chunk": label, "quote": heading(text)} for label, text in tagged(messages, "chunk").items()],
        "compared_entities": drafted.get("compared_entities", []),
        "hidden_entities": drafted.get("hidden_entities", []),
    }


def write_unanswerable(messages: list[BaseMessage]) -> dict[str, Any]:
    """Who wrote the seed's manual section (the manual names no authors); after feedback, when it was published."""
    number, title = section(tagged(messages, "chunk")["S"])
    language = asked_language(prompt(messages))
    if language in WHO_WROTE:
        return {
            "question": WHO_WROTE[language].format(title=title),
            "kind": "missing_attribute",
            "missing": "the manual names no author of its sections",
        }
    if "Feedback:" in prompt(messages):
        return {
            "question": f'In which year was the PostgreSQL 15 manual section "{title}" first published?',
            "kind": "missing_attribute",
            "missing": "the manual gives no publication year of its sections",
        }
    return {
        "question": f'Who wrote the PostgreSQL 15 manual section "{title}"?',
        "kind": "missing_attribute",
        "missing": "the manual names no author of its sections",
    }


def name_personas(messages: list[BaseMessage]) -> dict[str, Any]:
    """Three askers of a manual, the subject taken from the first excerpt's heading."""
    first = next(iter(tagged(messages, "chunk").values()), "")
    subject = section(first)[1] or "these documents"
    return {
        "reasoning": f"the excerpts are sections of a technical manual, the first on {subject}",
        "personas": [
            {"name": "administrator", "description": "an administrator who keeps the described systems running"},
            {"name": "developer", "description": "a developer who builds applications on the described software"},
            {"name": "newcomer", "description": f"a newcomer learning the basics, starting with {subject}"},
        ],
    }


PLAUSIBLE_SCRIPT = {
    "BridgeProposal": propose,
    "QuestionDraft": write_question,
    "QualityVerdict": judge_quality,
    "SingleHopVerdict": judge_single_hop,
    "UnanswerableDraft": write_unanswerable,
    "UnanswerableVerdict": judge_unanswerable,
    "SufficiencyVerdict": judge_sufficiency,
    "TemporalLabel": lambda messages: {"temporal": "first" in prompt(messages), "reason": "order of sections"},
    "RelevanceVerdict": label_relevance,
    "RagAnswer": rag_answer,
    "CorrectnessVerdict": judge_correctness,
    "FaithfulnessVerdict": lambda messages: {"faithful": True, "reason": "taken from the contexts"},
    "AbstentionVerdict": judge_abstention,
    "RestyledQuestion": restyle,
    "RestyleVerdict": check_restyle,
    "PersonaSet": name_personas,
    "PreflightReply": lambda messages: {"ready": True, "word": "ready"},
}


def plausible_model() -> ScriptedChatModel:
    """The plausible script without latency (for `--llm offline:plausible`)."""
    return ScriptedChatModel(script=PLAUSIBLE_SCRIPT)


def plausible_model_200ms() -> ScriptedChatModel:
    """The plausible script with 200 ms per call, standing in for a hosted model's latency."""
    return ScriptedChatModel(script=PLAUSIBLE_SCRIPT, latency_s=0.2)


def plausible_model_with_faults() -> ScriptedChatModel:
    """The plausible script, 50 ms per call, with provider faults in 30% of calls.

    Run it with a short request timeout (TRIAD_REQUEST_TIMEOUT_SECONDS=2), or a hanging request
    waits the default two minutes before it is retried.
    """
    return ScriptedChatModel(script=PLAUSIBLE_SCRIPT, latency_s=0.05, faults=Faults(rate=0.3))
