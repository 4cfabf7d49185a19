"""The states threads start from in the middle of the graph (refresh, calibration) hold what the nodes write."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from graph.config.settings import resolve_settings
from graph.services import open_state_database
from nodes.builder import compile_graph
from nodes.registry import NODES
from nodes.starts import ACCUMULATED, STARTS, state_after
from tests.graph.test_unanswerable import UNANSWERABLE, UNANSWERED, judge_by_texts
from tests.support.scripts import script


def states_after(url: str, thread_id: str) -> dict[str, dict[str, Any]]:
    """Node -> the thread's state right after that node's first run, read from its checkpoints."""

    async def read() -> dict[str, dict[str, Any]]:
        settings = resolve_settings({"state_url": url, "database_url": url}, env={})
        async with open_state_database(settings) as database:
            history = [
                snapshot
                async for snapshot in compile_graph(database.saver).aget_state_history(
                    {"configurable": {"thread_id": thread_id}}
                )
            ]
        after: dict[str, dict[str, Any]] = {}
        for before, now in zip(reversed(history), list(reversed(history))[1:], strict=False):
            for node in before.next:
                after.setdefault(node, now.values)
        return after

    return asyncio.run(read())


def test_each_start_asks_only_for_what_a_real_sample_has_after_that_node(harness, seed_chunk_id) -> None:  # noqa: ANN001
    accepted, _, _ = harness.run(script(), spec={"seed_id": seed_chunk_id})
    unanswerable, _, _ = harness.run(
        {"UnanswerableDraft": [UNANSWERED], "UnanswerableVerdict": judge_by_texts()},
        spec={**UNANSWERABLE, "seed_id": seed_chunk_id},
        retrieval_k=4,
    )
    assert accepted.outcome == unanswerable.outcome == "accepted"
    after = states_after(harness.url, accepted.thread_id) | {
        "generate_unanswerable": states_after(harness.url, unanswerable.thread_id)["generate_unanswerable"]
    }
    assert set(STARTS) <= set(after)
    for node in STARTS:
        missing = [key for key in NODES[node].start_needs or () if key not in after[node]]
        assert not missing, f"a real sample after {node} has no {missing}: the start asks for what no node writes"
        assert state_after(node, after[node]) == {key: [] for key in ACCUMULATED} | after[node]


def test_a_start_without_a_key_the_later_nodes_read_is_refused() -> None:
    with pytest.raises(ValueError, match="needs supporting"):
        state_after("lint_question", {"question_type": "composition", "binary": False, "hops": 2, "seed": {},
                                      "drafts": [], "revisions": 0, "revisions_left": 0})  # fmt: skip
    with pytest.raises(ValueError, match="no thread starts after 'extract_contexts'"):
        state_after("extract_contexts", {})
    started = state_after("generate_unanswerable", {"question_type": "unanswerable", "binary": False, "hops": 2,
                                                   "seed": {}, "neighbours": [], "drafts": [], "revisions": 0,
                                                   "revisions_left": 1})  # fmt: skip
    assert all(started[key] == [] for key in ACCUMULATED)
