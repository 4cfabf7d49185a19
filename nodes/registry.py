"""The sample graph's nodes, one entry each: what it runs, the model role it asks, the prompt it sends, how long
its reply usually is, where the sample goes after it, whether it comes before, as or after the judges, and what
a thread that starts after it needs.

The builder wires the graph from it, the cost estimate sizes each node's calls by it, calibration stops its
threads by it and `nodes.starts` checks a mid-graph start against it. A new node is one entry here and its
module under `nodes/steps/`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from langgraph.graph import END, START

from nodes import routing
from nodes.common import Update
from nodes.lint.question import lint_question
from nodes.steps.bridge import end_without_bridge, match_bridge, propose_bridge
from nodes.steps.duplicate import check_duplicate
from nodes.steps.extract import extract_contexts
from nodes.steps.finalize import finalize_sample
from nodes.steps.generate import generate_question, revise_question
from nodes.steps.judges import judge_quality, judge_sufficiency
from nodes.steps.reject import reject_sample
from nodes.steps.restyle import check_restyle, restyle_question
from nodes.steps.seed import retrieve_neighbours, select_seed
from nodes.steps.temporal import classify_temporal
from nodes.steps.unanswerable import generate_unanswerable, judge_unanswerable
from prompts import bridge, generate, relevance, restyle, revise, temporal, unanswerable
from prompts import judge_quality as quality
from prompts import judge_sufficiency as sufficiency
from state.usage import Role

#: Where a node stands to the two judges: what a calibration thread runs (up to the judges) and where it stops.
Judging = Literal["before", "judge", "after"]

#: What a draft's steps have written by the time it is judged: a thread that starts at its lint or generation
#: needs them.
_DRAFTED = ("question_type", "binary", "seed", "supporting", "drafts", "verdicts", "revisions", "revisions_left")


@dataclass(frozen=True)
class NodeSpec:
    """One node of the sample graph."""

    name: str
    function: Callable[..., Awaitable[Update]]
    role: Role | None = None
    """The model role it asks; None: it asks no chat model (its checkpoint goes to the database with the next
    one, so what a crash repeats grows only by such steps)."""
    prompt: str = ""
    """The instructions it sends besides its chunks, whose size the cost estimate counts."""
    output_tokens: int = 0
    """A typical reply's size in tokens (a draft quotes its evidence: a sentence or two of each chunk)."""
    route: Callable[..., str] | None = None
    """Where the sample goes after it, decided from its state (the route's return annotation names the places)."""
    then: str | None = None
    """Where the sample goes after it when no route decides."""
    judging: Judging = "before"
    start_needs: tuple[str, ...] | None = None
    """What a thread that starts after this node (`nodes.starts.state_after`) needs in its state: what the
    steps up to and at it have written. None: no thread starts there."""


NODE_SPECS: tuple[NodeSpec, ...] = (
    NodeSpec("select_seed", select_seed, route=routing.route_after_select_seed),
    NodeSpec("retrieve_neighbours", retrieve_neighbours, route=routing.route_after_neighbours),
    NodeSpec(
        "propose_bridge", propose_bridge, "generator", bridge.SYSTEM + bridge.USER, 250,
        route=routing.route_after_propose_bridge,
    ),
    NodeSpec("match_bridge", match_bridge, route=routing.route_after_match_bridge),
    NodeSpec("end_without_bridge", end_without_bridge, then=END),
    NodeSpec(
        "generate_question", generate_question, "generator", generate.SYSTEM + generate.USER, 260,
        route=routing.route_after_generate, start_needs=_DRAFTED,
    ),
    NodeSpec("lint_question", lint_question, route=routing.route_after_lint, start_needs=_DRAFTED),
    NodeSpec(
        "judge_quality", judge_quality, "validator", quality.SYSTEM + quality.USER, 220,
        route=routing.route_after_judge_quality, judging="judge",
    ),
    NodeSpec(
        "judge_sufficiency", judge_sufficiency, "validator", sufficiency.SYSTEM + sufficiency.USER, 120,
        route=routing.route_after_judge_sufficiency, judging="judge",
    ),
    NodeSpec(
        "revise_question", revise_question, "generator", revise.SYSTEM + revise.USER, 260,
        route=routing.route_after_generate, judging="after",
    ),
    NodeSpec(
        "classify_temporal", classify_temporal, "validator", temporal.SYSTEM + temporal.USER, 40,
        route=routing.route_after_temporal, judging="after",
    ),
    NodeSpec(
        "check_duplicate", check_duplicate, route=routing.route_after_duplicate_check, judging="after",
        start_needs=(*_DRAFTED, "temporal", "question_claimed"),
    ),
    NodeSpec(
        "extract_contexts", extract_contexts, "extractor", relevance.CARE_SYSTEM + relevance.CARE_USER, 50,
        route=routing.route_after_extract, judging="after",
    ),
    NodeSpec("finalize_sample", finalize_sample, then=END, judging="after"),
    NodeSpec(
        "generate_unanswerable", generate_unanswerable, "generator",
        unanswerable.GENERATE_SYSTEM + unanswerable.GENERATE_USER, 120, route=routing.route_after_generate,
        start_needs=("question_type", "binary", "seed", "neighbours", "drafts", "revisions", "revisions_left"),
    ),
    NodeSpec(
        "judge_unanswerable", judge_unanswerable, "validator", unanswerable.JUDGE_SYSTEM + unanswerable.JUDGE_USER,
        150, route=routing.route_after_judge_unanswerable, judging="judge",
    ),
    NodeSpec("reject_sample", reject_sample, then=END, judging="after"),
    NodeSpec(
        "restyle_question", restyle_question, "generator", restyle.WRITE_SYSTEM + restyle.WRITE_USER, 60,
        then="check_restyle", judging="after",
    ),
    NodeSpec(
        "check_restyle", check_restyle, "validator", restyle.CHECK_SYSTEM + restyle.CHECK_USER, 160,
        route=routing.route_after_check_restyle, judging="after",
    ),
)  # fmt: skip

#: Every node by its name.
NODES: dict[str, NodeSpec] = {spec.name: spec for spec in NODE_SPECS}
#: Where every sample starts.
FIRST_NODE = "select_seed"

#: The steps that ask no chat model, START (which takes the sample's input) among them.
ASK_NO_CHAT_MODEL = frozenset({START, *(spec.name for spec in NODE_SPECS if spec.role is None)})
#: The nodes a calibration thread stops before: whatever would follow its judges.
AFTER_JUDGES = tuple(spec.name for spec in NODE_SPECS if spec.judging == "after")
#: The nodes that judge a draft.
JUDGE_NODES = tuple(spec.name for spec in NODE_SPECS if spec.judging == "judge")
