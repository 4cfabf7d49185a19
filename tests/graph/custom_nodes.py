"""A user's own stage implementations, picked up by `--node STAGE=tests.graph.custom_nodes:NAME`."""

from __future__ import annotations


async def everything_relevant(state, candidates, llm):  # noqa: ANN001, ANN201
    """Label every candidate relevant, without a model."""
    labels = [{"chunk_id": c["id"], "relevant": True, "reason": "custom", "labeller": "custom"} for c in candidates]
    return labels, []


async def wrong_signature(state):  # noqa: ANN001, ANN201
    return [], []
