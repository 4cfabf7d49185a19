"""restyle_question and check_restyle: the accepted question asked in the sample's query style, and the check that
the rewrite still asks the same thing, with the same answer, from the same chunks.

The canonical question stays in the record beside the rewrite. A rewrite the check refuses is written
once more from the verdict; when that one is refused too, the sample keeps its canonical question with
style `natural` and the reason (routing decides, `nodes.routing`).
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.common import Update, instructed
from nodes.language import sample_language
from nodes.lint.question import chunks_read
from nodes.lint.restyle import restyle_problems
from nodes.ports import ModelCallFailed
from nodes.run_context import Context
from nodes.steps.generate import asker
from prompts import delimit, delimit_all
from prompts import restyle as prompt
from state.languages import language_name
from state.query_styles import DESCRIPTIONS, FOLLOW_UP
from state.sample import UNANSWERABLE, Restyle, RestyleCheck, SampleState, Turn, latest_draft
from state.schemas import RestyledQuestion, RestyleVerdict


def _answer_block(state: SampleState) -> str:
    draft = latest_draft(state)
    if state["question_type"] == UNANSWERABLE:
        construction = draft.get("construction")
        missing = (construction.get("missing") if construction else None) or "a fact the documents do not state"
        return delimit("answer", "reference", prompt.NO_ANSWER.format(missing=missing))
    return delimit("answer", "reference", draft["answer"])


def _feedback(state: SampleState) -> str:
    """The refused rewrite and its verdict, for the second try; nothing on the first."""
    restyles, checks = state.get("restyles", []), state.get("restyle_checks", [])
    if not checks:
        return ""
    return prompt.FEEDBACK.format(
        restyled=delimit("question", "refused", conversation(restyles[-1])), reason=checks[-1]["reason"]
    )


async def restyle_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Rewrite the accepted question in the sample's query style, for its asker, in its language."""
    context = runtime.context
    style = state["query_style"]  # type: ignore[typeddict-item]  # routing sends only samples that have one
    language = language_name(sample_language(state, context))
    user = prompt.WRITE_USER.format(
        asker=state.get("style_role") or asker(state, None),  # who the record says asks
        language=language,
        style=style,
        instruction=prompt.STYLE_INSTRUCTIONS[style],
        question=delimit("question", "original", latest_draft(state)["question"]),
        answer=_answer_block(state),
        feedback=_feedback(state),
    )
    attempt = len(state.get("restyles", []))
    try:
        reply, call = await context.require_ports().llm.ask(
            "generator", RestyledQuestion, instructed(prompt.WRITE_SYSTEM, user), node="restyle_question"
        )
    except ModelCallFailed as failure:  # the question stays as validated: this is no reason to lose the sample
        unusable = Restyle(query_style=style, question="", attempt=attempt, failure=f"no usable rewrite: {failure}")
        return {"restyles": [unusable], "llm_calls": [failure.call]}
    written = Restyle(
        query_style=style, question=reply.question.strip(), attempt=attempt, changes=reply.changes.strip()
    )
    if style == FOLLOW_UP:
        written["turns"] = [
            Turn(role="user", content=reply.first_turn.strip()),
            Turn(role="assistant", content=reply.assistant_turn.strip()),
        ]
    return {"restyles": [written], "llm_calls": [call]}


def conversation(restyle: Restyle) -> str:
    """A rewrite as the checker reads it: the question, after the turns of a follow-up's conversation."""
    turns = [*restyle.get("turns", []), Turn(role="user", content=restyle["question"])]
    if len(turns) == 1:
        return restyle["question"]
    return "\n".join(f"{turn['role'].capitalize()}: {turn['content']}" for turn in turns)


async def check_restyle(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Lint the rewrite against the canonical question; when it passes, ask the validator whether it means the same."""
    context = runtime.context
    restyle = state["restyles"][-1]
    draft = latest_draft(state)
    if unusable := restyle.get("failure"):
        return _refused(restyle, unusable, {})
    language = sample_language(state, context)
    findings = restyle_problems(
        draft["question"],
        restyle["question"],
        restyle["query_style"],
        answer=draft["answer"],
        binary=state["binary"],
        question_type=state["question_type"],
        construction=draft.get("construction"),
        language=language,
        max_question_words=context.max_question_words,
        turns=[turn["content"] for turn in restyle.get("turns", [])],
    )
    if findings:
        reason = "; ".join(message for _, message in findings)
        return _refused(restyle, reason, {"rules": [rule for rule, _ in findings]})
    chunks = chunks_read(state)
    user = prompt.CHECK_USER.format(
        style=restyle["query_style"],
        description=DESCRIPTIONS[restyle["query_style"]],  # type: ignore[index]
        language=language_name(language),
        question=delimit("question", "original", draft["question"]),
        restyled=delimit("question", "rewrite", conversation(restyle)),
        answer=_answer_block(state),
        chunks=delimit_all("chunk", ((f"C{i}", c["text"]) for i, c in enumerate(chunks, start=1))),
    )
    try:
        verdict, call = await context.require_ports().llm.ask(
            "validator", RestyleVerdict, instructed(prompt.CHECK_SYSTEM, user), node="check_restyle"
        )
    except ModelCallFailed as failure:
        return _refused(restyle, f"no usable check: {failure}", {}) | {"llm_calls": [failure.call]}
    found: dict[str, object] = {name: getattr(verdict, name) for name in DIMENSIONS}
    accepted = verdict.accepted and all(found.values())  # strict: a failed finding refuses whatever `accepted` says
    reason = "" if accepted else (verdict.reason.strip() or _failed_dimensions(found))
    check = RestyleCheck(
        attempt=restyle["attempt"], accepted=accepted, reason=reason, details=found | {"reasoning": verdict.reasoning}
    )
    return {"restyle_checks": [check], "llm_calls": [call]}


#: The validator's findings, each of which must hold for a rewrite to be kept.
DIMENSIONS = ("same_request", "same_answer", "same_sources", "in_style")


def _refused(restyle: Restyle, reason: str, details: dict[str, object]) -> Update:
    check = RestyleCheck(attempt=restyle["attempt"], accepted=False, reason=reason, details=details)
    return {"restyle_checks": [check]}


def _failed_dimensions(found: dict[str, object]) -> str:
    failed = [name.replace("_", " ") for name in DIMENSIONS if not found[name]]
    return "the rewrite fails " + ", ".join(failed or ["the check"])


def kept_restyle(state: SampleState) -> Restyle | None:
    """The rewrite the check accepted, the latest; None when none was (or none was asked for)."""
    checks = state.get("restyle_checks", [])
    if checks and checks[-1]["accepted"]:
        return state["restyles"][-1]
    return None
