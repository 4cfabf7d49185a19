"""Where a sample goes after each branching node: the flowchart of SPEC section 2, in one screen.

A sample whose state carries an `outcome` is finished (no_bridge, failed, rejected, accepted) and ends. A draft
that a check rejected goes to revision while the run allows one (`revisions_left`), else to reject_sample.
"""

from __future__ import annotations

from typing import Literal, cast

from langgraph.graph import END as GRAPH_END
from langgraph.runtime import Runtime

from nodes.run_context import Context
from state.query_styles import RESTYLE_ATTEMPTS
from state.sample import SampleState, is_single_hop, is_unanswerable, wants_restyle

#: LangGraph's END, typed as the literal the routes' return annotations name.
END = cast(Literal["__end__"], GRAPH_END)


def _ended(state: SampleState) -> bool:
    return "outcome" in state


def route_after_select_seed(state: SampleState) -> Literal["retrieve_neighbours", "__end__"]:
    return END if _ended(state) else "retrieve_neighbours"


def route_after_neighbours(
    state: SampleState,
) -> Literal["propose_bridge", "generate_unanswerable", "generate_question"]:
    """A generated unanswerable question is written from the seed's neighbourhood, a single-hop one from the seed
    alone: neither needs a bridge."""
    if is_unanswerable(state):
        return "generate_unanswerable"
    return "generate_question" if is_single_hop(state) else "propose_bridge"


def route_after_propose_bridge(state: SampleState) -> Literal["generate_question", "match_bridge", "__end__"]:
    if _ended(state):
        return END
    return "generate_question" if "supporting" in state else "match_bridge"


def restarts_spent(state: SampleState) -> bool:
    """Whether a seed without a bridge ends the sample: the run allows no further fresh seed (a thread
    checkpointed before select_seed counted `restarts_left` has one more)."""
    return state.get("restarts_left", 1) <= 0


def route_after_match_bridge(
    state: SampleState,
) -> Literal["generate_question", "select_seed", "end_without_bridge", "__end__"]:
    if _ended(state):
        return END
    if "supporting" in state:
        return "generate_question"
    return "end_without_bridge" if restarts_spent(state) else "select_seed"


def round_rejected(state: SampleState) -> bool:
    """Whether any check rejected the latest draft."""
    revision = state["drafts"][-1]["revision"]
    return any(not v["accepted"] for v in state["verdicts"] if v["revision"] == revision)


def revisions_spent(state: SampleState) -> bool:
    """Whether a rejected draft ends the sample: the run allows no further revision (see `revisions_left`)."""
    return state.get("revisions_left", 0) <= 0


def route_after_lint(
    state: SampleState,
) -> Literal[
    "judge_quality", "judge_unanswerable", "revise_question", "generate_unanswerable", "reject_sample", "__end__"
]:
    if _ended(state):
        return END
    if not round_rejected(state):
        return "judge_unanswerable" if is_unanswerable(state) else "judge_quality"
    if revisions_spent(state):
        return "reject_sample"
    return "generate_unanswerable" if is_unanswerable(state) else "revise_question"


def route_after_judge_unanswerable(
    state: SampleState,
) -> Literal["check_duplicate", "generate_unanswerable", "reject_sample", "__end__"]:
    """Accepted: no retrieved chunk answers it."""
    if _ended(state):
        return END
    if not round_rejected(state):
        return "check_duplicate"
    return "reject_sample" if revisions_spent(state) else "generate_unanswerable"


def route_after_judge_quality(
    state: SampleState, runtime: Runtime[Context]
) -> Literal["judge_sufficiency", "classify_temporal", "revise_question", "reject_sample", "__end__"]:
    """A quality reject goes to revision, unless the run asks for sufficiency checks regardless (while
    revisions are left); with revisions spent the sample is rejected."""
    if _ended(state):
        return END
    single_hop = is_single_hop(state)  # one chunk: nothing for sufficiency to test
    if not round_rejected(state):
        return "classify_temporal" if single_hop else "judge_sufficiency"
    if revisions_spent(state):
        return "reject_sample"
    return (
        "judge_sufficiency"
        if runtime.context.sufficiency_after_quality_reject and not single_hop
        else "revise_question"
    )


def route_after_judge_sufficiency(
    state: SampleState,
) -> Literal["classify_temporal", "revise_question", "reject_sample", "__end__"]:
    if _ended(state):
        return END
    if not round_rejected(state):
        return "classify_temporal"
    return "reject_sample" if revisions_spent(state) else "revise_question"


def route_after_generate(state: SampleState) -> Literal["lint_question", "__end__"]:
    """After generate_question, revise_question or generate_unanswerable."""
    return END if _ended(state) else "lint_question"


def route_after_temporal(state: SampleState) -> Literal["check_duplicate", "__end__"]:
    return END if _ended(state) else "check_duplicate"


def route_after_duplicate_check(
    state: SampleState,
) -> Literal["extract_contexts", "restyle_question", "finalize_sample", "__end__"]:
    """A question no earlier sample asked: its contexts are labelled (a generated unanswerable one has none)."""
    if _ended(state):
        return END
    if is_unanswerable(state):
        return _restyled_or_final(state)
    return "extract_contexts"


def _restyled_or_final(state: SampleState) -> Literal["restyle_question", "finalize_sample"]:
    """An accepted question with a query style is rewritten in it before its record is made."""
    return "restyle_question" if wants_restyle(state) and not state.get("restyles") else "finalize_sample"


def route_after_extract(state: SampleState) -> Literal["restyle_question", "finalize_sample", "__end__"]:
    return END if _ended(state) else _restyled_or_final(state)


def route_after_check_restyle(state: SampleState) -> Literal["restyle_question", "finalize_sample"]:
    """A refused rewrite is written once more from its verdict; refused again, the question stays as validated
    (finalize_sample records why)."""
    checks = state.get("restyle_checks", [])
    if checks and not checks[-1]["accepted"] and len(checks) < RESTYLE_ATTEMPTS:
        return "restyle_question"
    return "finalize_sample"
