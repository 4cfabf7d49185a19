"""The state a node would have written, for a thread that starts in the middle of the graph.

A refresh judges a record again from its generation step, relabels it from its duplicate check or
questions an unanswerable one again; calibration judges a draft again from its lint. Each writes a
first checkpoint "as if" that node had just run (`aupdate_state(..., as_node=...)`). `state_after`
is the one place that state is made: it fills what no step has written yet and refuses a state
without a key the nodes after `node` read. `tests/graph/test_starts.py` holds the table to the
states real samples have after each of these nodes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: What the steps before and at `node` have written by the time it ends, for each node a thread starts after.
_DRAFTED = ("question_type", "binary", "seed", "supporting", "drafts", "verdicts")
_REVISIONS = ("revisions", "revisions_left")
WRITTEN_BY: dict[str, tuple[str, ...]] = {
    "generate_question": (*_DRAFTED, *_REVISIONS),
    "lint_question": (*_DRAFTED, *_REVISIONS),
    "check_duplicate": (*_DRAFTED, *_REVISIONS, "temporal", "question_claimed"),
    "generate_unanswerable": ("question_type", "binary", "seed", "neighbours", "drafts", *_REVISIONS),
}

#: Lists a thread accumulates (reducers append to them): empty at a start, as nothing was called yet.
ACCUMULATED = ("verdicts", "bridge_attempts", "relevance_labels", "llm_calls", "restyles", "restyle_checks")


def state_after(node: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` as the state after `node` ran: the accumulated lists not given start empty; a key the
    nodes after it read and `values` lacks is a `ValueError` naming it."""
    if node not in WRITTEN_BY:
        raise ValueError(f"no thread starts after {node!r}; starts: {', '.join(WRITTEN_BY)}")
    state = {key: [] for key in ACCUMULATED} | dict(values)
    missing = [key for key in WRITTEN_BY[node] if key not in state]
    if missing:
        raise ValueError(f"a thread starting after {node} needs {', '.join(missing)}")
    return state
