"""lint_question: cheap deterministic checks before paying for judges."""

from __future__ import annotations

import re

from langgraph.runtime import Runtime

from nodes.common import Update, mentions, word_count
from nodes.context import Context
from nodes.judges import verdict_update
from state.sample import Draft, SampleState, latest_draft

_META_REFERENCE = re.compile(
    r"\b(?:according to the|(?:the|this|that|these|those|provided|given|above|following|said)\s+"
    r"(?:context|text|document|passage|chunk|excerpt|article|snippet|source)s?)\b",
    re.IGNORECASE,
)
_PRONOUNS = {"it", "its", "they", "them", "their", "he", "she", "his", "her", "this", "these", "those", "that", "there"}
_BINARY_ANSWERS = ("Yes", "No")


def lint_problems(
    draft: Draft, *, question_type: str, binary: bool, bridge_topic: str, max_question_words: int, max_answer_words: int
) -> list[str]:
    """Every failed check, each phrased as what to fix."""
    question, answer = draft["question"].strip(), draft["answer"].strip()
    problems = []
    if not question:
        problems.append("the question is empty; write one")
    elif word_count(question) > max_question_words:
        problems.append(f"the question has {word_count(question)} words; keep it under {max_question_words + 1}")
    if not answer:
        problems.append("the answer is empty; give the short answer")
    elif word_count(answer) > max_answer_words:
        problems.append(f"the answer has {word_count(answer)} words; make it a short fact (at most {max_answer_words})")
    if _META_REFERENCE.search(question):
        problems.append("the question refers to the context, text or document; ask about the subject itself")
    first_word = re.split(r"\W+", question.casefold(), maxsplit=1)[0] if question else ""
    if first_word in _PRONOUNS:
        problems.append(f"the question starts with the pronoun {first_word!r}; name the entity instead")
    if binary and answer not in _BINARY_ANSWERS:
        problems.append(f"a yes/no question's answer must be exactly Yes or No, not {answer!r}")
    if not binary and answer and mentions(question, answer):
        problems.append("the question contains its own answer; rephrase so it does not give the answer away")
    if question_type == "composition" and bridge_topic and mentions(question, bridge_topic):
        problems.append(
            f"the composition question names the hidden bridge entity {bridge_topic!r}; "
            "describe it through the other chunk instead"
        )
    return problems


async def lint_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Deterministic checks of the latest draft; a failure is feedback and costs a revision."""
    context = runtime.context
    problems = lint_problems(
        latest_draft(state),
        question_type=state["question_type"],
        binary=state["binary"],
        bridge_topic=state["bridge_topic"],
        max_question_words=context.max_question_words,
        max_answer_words=context.max_answer_words,
    )
    return verdict_update(
        state, context, "lint", accepted=not problems, reason="; ".join(problems), details={"failed": problems}
    )
