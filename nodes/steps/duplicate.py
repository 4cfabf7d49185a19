"""check_duplicate: the validated question claimed for its sample, unless an earlier sample of the run asked it."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.common import Update
from nodes.run_context import Context
from state.sample import SampleState, latest_draft


async def check_duplicate(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Claim the validated question for this sample before its contexts are labelled; a question an earlier
    sample of the run asked (the same words, or near it by embedding) ends this one as rejected."""
    registry = runtime.context.require_ports().questions
    if registry is None:
        return {"question_claimed": True}
    thread_id = state.get("thread_id") or f"{runtime.context.run_id}/adhoc"
    duplicate_of = await registry.register(latest_draft(state)["question"], thread_id)
    if duplicate_of is not None:
        return {"outcome": "rejected", "end_reason": f"duplicate of the question of sample {duplicate_of}"}
    return {"question_claimed": True}
