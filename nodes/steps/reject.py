"""reject_sample: the end of a sample whose last draft a check rejected once its revisions were spent."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.common import Update
from nodes.run_context import Context
from state.sample import SampleState, latest_draft


async def reject_sample(state: SampleState, runtime: Runtime[Context]) -> Update:
    """End the sample as rejected, naming the first check that rejected its last draft; every verdict stays."""
    revision = latest_draft(state)["revision"]
    first = next((v for v in state["verdicts"] if v["revision"] == revision and not v["accepted"]), None)
    if first is None:  # a state edited by hand (Studio) may lack the verdict that routed it here
        return {"outcome": "rejected", "end_reason": f"rejected after {revision} revision(s)"}
    return {
        "outcome": "rejected",
        "end_reason": f"rejected by the {first['judge']} check after {revision} revision(s): {first['reason']}",
    }
