"""select_seed and retrieve_neighbours: where every sample starts, and every restart."""

from __future__ import annotations

from langgraph.runtime import Runtime

from nodes.common import Update, chunk_ref
from nodes.question_types import needs_procedure
from nodes.run_context import Context
from state.procedure import looks_procedural
from state.sample import SampleState, input_problem, is_single_hop


async def select_seed(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Pick the seed: the manual `seed_id` on the first visit, else a random unused chunk.

    A second visit is a restart (the bridge search failed for the previous seed).
    """
    restarting = "seed" in state
    problem = None if restarting else input_problem(state)  # type: ignore[arg-type]
    if problem:  # e.g. a Studio input with hops 7: refused before anything is spent
        return {"outcome": "failed", "end_reason": f"invalid sample input: {problem}"}
    ports = runtime.context.require_ports()
    restarts = state.get("restarts", 0) + (1 if restarting else 0)
    counts = {"restarts": restarts, "restarts_left": runtime.context.max_restarts - restarts}
    procedural = needs_procedure(state["question_type"])
    manual = state.get("seed_id")
    if manual and not restarting:
        found = await ports.corpus.get([manual])
        if not found:
            return {"outcome": "failed", "end_reason": f"seed chunk {manual!r} is not in the collection"}
        if procedural and not looks_procedural(found[0].text):
            return {
                "outcome": "failed",
                "end_reason": f"seed chunk {manual!r} holds no procedure (numbered or bulleted steps, a sequence in "
                "prose) to ask about",
            }
        await ports.seeds.claim(manual)
        return {"seed": chunk_ref(found[0]), **counts}
    seed_id = await ports.seeds.draw(min_chars=runtime.context.min_chunk_chars, procedural=procedural)
    if seed_id is None:
        return {
            "outcome": "no_bridge",
            "end_reason": "no unused seed chunk left in the collection (or among the chunks its queries retrieved)"
            if not procedural
            else "no unused chunk with a procedure left for a procedural question",
            **counts,
        }
    (seed,) = await ports.corpus.get([seed_id])
    return {"seed": chunk_ref(seed), **counts}


async def retrieve_neighbours(state: SampleState, runtime: Runtime[Context]) -> Update:
    """The seed's nearest chunks by its stored embedding; the seed and duplicate texts are excluded.

    A single-hop question is written from the seed alone: it becomes the one supporting chunk.
    """
    if is_single_hop(state):
        return {"supporting": [state["seed"]], "bridge_topic": ""}
    ports = runtime.context.require_ports()
    hits = await ports.corpus.neighbours(state["seed"]["id"], runtime.context.neighbours_n)
    return {"neighbours": [chunk_ref(hit.chunk) for hit in hits]}
