"""Scripted replies for driving the sample graph, one builder per path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.reading import tagged


def drafted(question: str, answer: str, *, plan: str = "", compared: Any = (), hidden: Any = ()) -> dict[str, Any]:
    """A QuestionDraft reply: its plan first, then the question, the answer and the construction fields."""
    return {
        "plan": plan or "chunk A gives one fact, chunk B the other; together they give the one answer",
        "question": question,
        "answer": answer,
        "compared_entities": list(compared),
        "hidden_entities": list(hidden),
    }


#: A multi-hop question of the demo slice: the setting is found through chunk A, its default through chunk B.
GOOD_QUESTION = drafted(
    "What is the default value of the setting that sets the minimum delay between autovacuum runs on any database?",
    "1 minute",
    plan="A: autovacuum_naptime sets the minimum delay between autovacuum runs; B: autovacuum_naptime defaults to "
    "one minute. The setting is found through A, its default through B: one answer needing both.",
    hidden=[{"entity": "autovacuum_naptime", "chunk": "A"}],
)
#: Two single-hop questions joined by "and": each chunk answers its own half.
CONJUNCTION_QUESTION = drafted(
    "Which setting controls how often the autovacuum launcher wakes up, and what is its default?",
    "autovacuum_naptime, 1 minute",
)
ACCEPT = {
    "reasoning": "each chunk holds one needed fact",
    "asks_for": ["the one answer the chunks' facts combine into"],
    "quality": True,
    "multi_hop": True,
    "unambiguous": True,
    "accepted": True,
    "reason": "",
}
NOT_SUFFICIENT = {
    "reasoning": "the question needs the setting and its default; this text states only one of them",
    "sufficient": False,
    "reason": "the other chunk's fact is missing",
}
NOT_TEMPORAL = {"temporal": False, "reason": "no time reasoning"}

#: The schemas whose first field is reasoning done before the verdict (or the generator's plan), with a reply each.
THOUGHT_FIRST = {
    "QuestionDraft": (
        "plan",
        {**GOOD_QUESTION, "evidence": [{"chunk": "A", "quote": "autovacuum_naptime (integer)"}]},
    ),
    "QualityVerdict": ("reasoning", ACCEPT),
    "SufficiencyVerdict": ("reasoning", NOT_SUFFICIENT),
    "UnanswerableVerdict": (
        "reasoning",
        {
            "reasoning": "no retrieved chunk names who proposed the setting",
            "plausible": True,
            "answered_by": [],
            "answerable": False,
            "accepted": True,
            "reason": "",
        },
    ),
}


def last_text(messages: list[BaseMessage]) -> str:
    return str(messages[-1].content)


def relevant_if(word: str) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """A CARE labeller that calls a candidate relevant when its text mentions `word`."""

    def label(messages: list[BaseMessage]) -> dict[str, Any]:
        candidate = last_text(messages).split("<candidate", 1)[1]
        return {"relevant": word in candidate, "reason": f"mentions {word}" if word in candidate else "unrelated"}

    return label


def question_about_chunk_a(messages: list[BaseMessage]) -> dict[str, Any]:
    """A distinct question per sample: it quotes the first words of supporting chunk A."""
    chunk_a = last_text(messages).split('<chunk label="A">\n', 1)[1]
    opening = " ".join(chunk_a.split()[:6])
    return drafted(f"Which setting does the manual section beginning '{opening}' describe?", "autovacuum_naptime")


def bridge(topic: str, chunks: list[str], entities: dict[str, list[str]] | None = None) -> dict[str, Any]:
    return {
        "topic": topic,
        "chunks": chunks,
        "entities": [{"chunk": label, "entities": names} for label, names in (entities or {}).items()],
    }


def opening_quotes(messages: list[BaseMessage]) -> list[dict[str, str]]:
    """Evidence as a model that quotes would give it: the first line of each supporting chunk, verbatim."""
    return [
        {"chunk": label, "quote": next((line.strip() for line in text.splitlines() if line.strip()), text)}
        for label, text in tagged(messages, "chunk").items()
    ]


def with_quotes(step: Any, messages: list[BaseMessage]) -> Any:
    """A draft that gives no evidence given the opening line of each supporting chunk of its request as quotes."""
    if isinstance(step, dict) and "evidence" not in step:
        return {**step, "evidence": opening_quotes(messages)}
    return step


def quoting(replies: list[Any] | Callable[[list[BaseMessage]], Any]) -> Any:
    """QuestionDraft replies (a list, or a function of the request), each draft that gives no evidence quoting
    the opening line of each supporting chunk of the request it answers (`with_quotes`)."""
    if callable(replies):
        return lambda messages: with_quotes(replies(messages), messages)

    def quoted(step: Any) -> Any:
        return (lambda messages: with_quotes(step, messages)) if isinstance(step, dict) else step

    return [quoted(step) for step in replies]


def script(**overrides: Any) -> dict[str, Any]:
    """A script for the accepted path; keyword arguments replace one schema's replies. Drafts that give no
    evidence quote the opening line of each supporting chunk (`quoting`)."""
    base: dict[str, Any] = {
        "BridgeProposal": [bridge("autovacuum", ["C1", "C2"])],
        "QuestionDraft": [GOOD_QUESTION],
        "QualityVerdict": [ACCEPT],
        "SufficiencyVerdict": [NOT_SUFFICIENT],
        "TemporalLabel": [NOT_TEMPORAL],
        "RelevanceVerdict": relevant_if("autovacuum"),
    }
    base.update(overrides)
    base["QuestionDraft"] = quoting(base["QuestionDraft"])
    return base


def strict_model():  # noqa: ANN201 - a factory for `--llm import:tests.support.scripts:strict_model`
    """The plausible script with a quality judge that rejects everything."""
    from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
    from graph.llm.offline.scripted import ScriptedChatModel

    reject = {
        "reasoning": "chunk A holds every needed fact",
        "asks_for": ["the answer"],
        "quality": True,
        "multi_hop": False,
        "unambiguous": True,
        "accepted": False,
        "reason": "one chunk suffices",
    }
    return ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "QualityVerdict": [reject]})


def accepting_validator():  # noqa: ANN201 - a factory for `--validator-model import:tests.support.scripts:accepting_validator`
    """The plausible script with a quality judge that accepts every draft."""
    from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
    from graph.llm.offline.scripted import ScriptedChatModel

    return ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "QualityVerdict": [ACCEPT]})


def unanswerable_rejected_model():  # noqa: ANN201 - a factory for `--llm import:tests.support.scripts:unanswerable_rejected_model`
    """The plausible script with an unanswerable judge that finds every question answered by the first chunk."""
    from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
    from graph.llm.offline.scripted import ScriptedChatModel

    answered = {
        "reasoning": "R1 states what the question asks",
        "plausible": True,
        "answered_by": ["R1"],
        "answerable": True,
        "accepted": False,
        "reason": "R1 says",
    }
    return ScriptedChatModel(script={**PLAUSIBLE_SCRIPT, "UnanswerableVerdict": [answered]})
