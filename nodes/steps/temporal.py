"""classify_temporal: whether an accepted question is temporal (its answer depends on when it is asked)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.common import Update, delimited_draft, instructed, records_failure
from nodes.run_context import Context
from prompts import temporal as temporal_prompt
from state.sample import SampleState
from state.schemas import TemporalLabel


@records_failure
async def classify_temporal(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Label the accepted question temporal or not."""
    llm = runtime.context.require_ports().llm
    question, answer = delimited_draft(state)
    messages = instructed(temporal_prompt.SYSTEM, temporal_prompt.USER.format(question=question, answer=answer))
    label, call = await llm.ask("validator", TemporalLabel, messages, node="classify_temporal")
    return {"temporal": label.temporal, "llm_calls": [call]}
