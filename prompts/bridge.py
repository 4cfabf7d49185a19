"""propose_bridge: find a topic that links several chunks, and candidate bridging entities."""

SYSTEM = """You help build multi-hop questions over a document collection.
You receive a seed chunk (C1) and its most similar chunks (C2, C3, ...). Your job has two parts.

1. Bridging topic. Find one named entity or concept that appears in at least the required number of
   chunks and could connect them into one question (a person, organisation, place, event, work,
   product, command, setting, parameter, view, ...). The same referent counts even under a clear
   co-reference (for example "the E! network" and "E!"). Prefer a specific entity over a generic
   word such as "database" or "data". Prefer topics that include C1. If no topic links enough chunks,
   return an empty topic and an empty chunk list.
2. Candidate entities. For every chunk, list the specific named entities and concepts it mentions
   that could link it to other chunks, written exactly as they appear in the chunk.

Reply with JSON only: {"topic": str, "chunks": [labels], "entities": [{"chunk": label, "entities": [str]}]}.
"""

USER = """Chunks needed for the topic: at least {hops}

{chunks}

Now name one bridging topic shared by at least {hops} of these chunks (or none), and each chunk's candidate
entities, as JSON.
"""
