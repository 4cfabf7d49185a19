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

from nodes.registry import NODES

#: The nodes a thread may start after (`NodeSpec.start_needs`).
STARTS = tuple(name for name, spec in NODES.items() if spec.start_needs is not None)

#: Lists a thread accumulates (reducers append to them): empty at a start, as nothing was called yet.
ACCUMULATED = ("verdicts", "bridge_attempts", "relevance_labels", "llm_calls", "restyles", "restyle_checks")


def state_after(node: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` as the state after `node` ran: the accumulated lists not given start empty; a key the
    nodes after it read and `values` lacks is a `ValueError` naming it."""
    spec = NODES.get(node)
    if spec is None or spec.start_needs is None:
        raise ValueError(f"no thread starts after {node!r}; starts: {', '.join(STARTS)}")
    state = {key: [] for key in ACCUMULATED} | dict(values)
    missing = [key for key in spec.start_needs if key not in state]
    if missing:
        raise ValueError(f"a thread starting after {node} needs {', '.join(missing)}")
    return state
