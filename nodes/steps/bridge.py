"""propose_bridge and match_bridge: find an entity that links `hops` chunks.

propose_bridge asks for a common topic among the seed and its neighbours (or, with the
`entity_overlap` implementation, finds shared entity-like spans without a model). When none comes
back, match_bridge tries each chunk's candidate entities against that chunk's own neighbours by
exact word-boundary matching; when that fails too, the sample restarts from a fresh seed.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence

from langgraph.runtime import Runtime

from nodes.common import Update, chunk_ref, instructed, mentions, records_failure
from nodes.implementations import resolve_implementation
from nodes.run_context import Context
from prompts import bridge, delimit_all
from state.sample import BridgeAttempt, BridgeMethod, ChunkRef, Proposal, SampleState
from state.schemas import BridgeProposal

#: Spans that look like entities in technical and general prose: identifiers with underscores,
#: acronyms, capitalised multi-word names, and function-like names.
_ENTITY_PATTERNS = tuple(
    re.compile(pattern)
    for pattern in (
        r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
        r"\b[A-Z][A-Z0-9]{1,}(?:[ _][A-Z][A-Z0-9]+)*\b",
        r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b",
        r"\b[a-z_][a-z0-9_]*\(\)",
    )
)
_TOO_GENERIC = {"SQL", "THE", "AND", "NOT", "NULL", "ON", "OFF", "TO", "IF"}


def hops_of(state: SampleState) -> int:
    return state.get("hops", 2)


def candidates_of(state: SampleState) -> list[ChunkRef]:
    """The seed first, then its neighbours."""
    return [state["seed"], *state.get("neighbours", [])]


def entity_spans(text: str) -> list[str]:
    """Entity-like spans of a text, in order of first appearance."""
    return list(_entity_spans(text))


@functools.lru_cache(maxsize=1024)  # neighbours recur across samples and restarts
def _entity_spans(text: str) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for pattern in _ENTITY_PATTERNS:
        for match in pattern.finditer(text):
            span = match.group(0).strip()
            if len(span) > 2 and span.upper() not in _TOO_GENERIC:
                found.setdefault(span, None)
    return tuple(found)


def _attempt(
    seed_id: str, method: BridgeMethod, topic: str, chunks: Sequence[ChunkRef], cause: str = ""
) -> BridgeAttempt:
    return BridgeAttempt(
        seed_id=seed_id,
        method=method,
        found=not cause,
        topic=topic,
        chunk_ids=[c["id"] for c in chunks],
        cause=cause,
    )


def _bridge_found(state: SampleState, method: BridgeMethod, topic: str, chunks: list[ChunkRef]) -> Update:
    return {
        "bridge_topic": topic,
        "supporting": chunks,
        "bridge_attempts": [_attempt(state["seed"]["id"], method, topic, chunks)],
    }


async def propose_with_llm(state: SampleState, runtime: Runtime[Context]) -> Update:
    """The generator names a common topic and the chunks that share it, plus entities per chunk."""
    ports = runtime.context.require_ports()
    chunks = candidates_of(state)
    labels = {f"C{i}": chunk for i, chunk in enumerate(chunks, start=1)}
    messages = instructed(
        bridge.SYSTEM,
        bridge.USER.format(
            hops=hops_of(state), chunks=delimit_all("chunk", ((label, c["text"]) for label, c in labels.items()))
        ),
    )
    proposal, call = await ports.llm.ask("generator", BridgeProposal, messages, node="propose_bridge")
    entities = {labels[item.chunk]["id"]: item.entities for item in proposal.entities if item.chunk in labels}
    topic = proposal.topic.strip()
    # A listed chunk that does not mention the topic (as match_bridge matches: whole words) cannot carry it.
    named = [
        labels[label]
        for label in dict.fromkeys(proposal.chunks)
        if label in labels and mentions(labels[label]["text"], topic)
    ]
    update: Update = {"llm_calls": [call], "proposal": Proposal(topic=proposal.topic, entities=entities)}
    if topic and len(named) >= hops_of(state):
        # The seed leads when it is among the named chunks: it is what the sample was drawn from.
        ordered = sorted(named, key=lambda chunk: chunk["id"] != state["seed"]["id"])
        return update | _bridge_found(state, "proposal", topic, ordered[: hops_of(state)])
    return update


async def propose_by_entity_overlap(state: SampleState, runtime: Runtime[Context]) -> Update:
    """No model: the most specific entity-like span that at least `hops` chunks share."""
    chunks = candidates_of(state)
    entities = {chunk["id"]: entity_spans(chunk["text"]) for chunk in chunks}
    counts = Counter(span for spans in entities.values() for span in spans)
    update: Update = {"proposal": Proposal(topic="", entities=entities)}
    for span in sorted(counts, key=lambda s: (-len(s), s)):
        sharing = [chunk for chunk in chunks if mentions(chunk["text"], span)]
        if len(sharing) >= hops_of(state) and sharing[0]["id"] == state["seed"]["id"]:
            return update | _bridge_found(state, "proposal", span, sharing[: hops_of(state)])
    return update


BRIDGE_PROPOSERS: dict[str, Callable[[SampleState, Runtime[Context]], Awaitable[Update]]] = {
    "llm": propose_with_llm,
    "entity_overlap": propose_by_entity_overlap,
}


@records_failure
async def propose_bridge(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Find a common topic of the seed and its neighbours with the configured proposer."""
    proposer = resolve_implementation("bridge", runtime.context.bridge_proposer, BRIDGE_PROPOSERS)
    update = await proposer(state, runtime)
    if "supporting" not in update:
        # A proposal without a topic is not a restart yet: match_bridge tries exact matches first.
        update["bridge_attempts"] = [
            _attempt(state["seed"]["id"], "proposal", "", [], cause="no common topic among the seed's neighbours")
        ]
    return update


async def match_bridge(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Exact word-boundary matches of each chunk's candidate entities in that chunk's neighbours."""
    ports = runtime.context.require_ports()
    hops = hops_of(state)
    proposal = state.get("proposal")
    entities = proposal.get("entities", {}) if proposal is not None else {}
    for chunk in candidates_of(state):
        own = [entity for entity in entities.get(chunk["id"], []) if mentions(chunk["text"], entity)]
        if not own:
            continue
        around = [
            chunk_ref(hit.chunk) for hit in await ports.corpus.neighbours(chunk["id"], runtime.context.neighbours_n)
        ]
        for entity in own:
            sharing = [chunk, *(other for other in around if mentions(other["text"], entity))]
            if len(sharing) >= hops:
                return _bridge_found(state, "exact_match", entity, sharing[:hops])
    cause = "no candidate entity is shared by enough chunks"
    return {"bridge_attempts": [_attempt(state["seed"]["id"], "exact_match", "", [], cause=cause)]}


async def end_without_bridge(state: SampleState, runtime: Runtime[Context]) -> Update:
    """End the sample as no_bridge once routing found its restarts spent; every bridge attempt stays."""
    return {"outcome": "no_bridge", "end_reason": f"no bridge after {state.get('restarts', 0)} restarts"}
