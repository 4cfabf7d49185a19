"""`--personas FILE`: a run's askers read from YAML or JSON, each with a name, a description and a share; or, with
`--personas auto`, derived from the collection by one generator call."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import yaml
from langchain_core.messages import HumanMessage, SystemMessage

from graph.config.errors import InvalidOptions, UserError
from nodes.ports import ModelCallFailed
from prompts import UNTRUSTED_NOTE, delimit_all
from prompts import personas as prompt
from state.personas import Persona, personas_problem
from state.schemas import PersonaSet

#: `--personas auto`: the run derives its personas from its collection.
AUTO = "auto"


def read_personas(path: Path) -> list[Persona]:
    """The personas of a file: a list of {name, description, share}, or such a list under `personas`; a file
    that cannot be read or holds no such list is one `error:` line naming the fix."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidOptions(
            f"--personas: cannot read {path} ({error.__class__.__name__}); give a YAML or JSON file"
        ) from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (json.JSONDecodeError, yaml.YAMLError) as error:
        mark = getattr(error, "problem_mark", None)
        number = mark.line + 1 if mark is not None else getattr(error, "lineno", None)
        line = f" (line {number})" if number else ""
        kind = "JSON" if path.suffix.lower() == ".json" else "YAML"
        raise InvalidOptions(f"--personas: {path} is not valid {kind}{line}; fix it") from None
    listed = data.get("personas") if isinstance(data, dict) else data
    if not isinstance(listed, list) or not all(isinstance(item, dict) for item in listed):
        raise InvalidOptions(f"--personas: {path} holds no list of personas; list each with name, description, share")
    personas = [
        Persona(name=str(item.get("name") or "").strip(), description=str(item.get("description") or "").strip())
        for item in listed
    ]
    for persona, item in zip(personas, listed, strict=True):
        if item.get("share") is not None:
            persona["share"] = item["share"]
    if problem := personas_problem(personas):
        raise InvalidOptions(problem)
    return personas


#: Chunks read to derive personas, and the words kept of each.
SAMPLED_CHUNKS, WORDS_PER_CHUNK = 50, 40
#: Personas a derivation keeps: three to five.
FEWEST_PERSONAS, MOST_PERSONAS = 3, 5


async def derive_personas(corpus: Any, gateway: Any, random_seed: int = 0) -> list[Persona]:
    """`--personas auto`: three to five askers from one generator call over about 50 random chunks, equal shares."""
    ids = await corpus.sample_ids(SAMPLED_CHUNKS, rng=random.Random(random_seed))
    chunks = await corpus.get(ids)
    excerpts = delimit_all("chunk", ((f"C{i}", excerpt(chunk)) for i, chunk in enumerate(chunks, start=1)))
    messages = [
        SystemMessage(prompt.SYSTEM + "\n" + UNTRUSTED_NOTE),
        HumanMessage(prompt.USER.format(chunks=excerpts)),
    ]
    try:
        reply, _ = await gateway.ask("generator", PersonaSet, messages, node="derive_personas")
    except ModelCallFailed as failure:
        raise UserError(
            f"--personas auto: the generator gave no usable personas ({failure}); give --personas FILE"
        ) from None
    personas = [
        Persona(name=p.name.strip(), description=p.description.strip())
        for p in reply.personas[:MOST_PERSONAS]
        if p.name.strip() and p.description.strip()
    ]
    names = [p["name"] for p in personas]
    if len(personas) < FEWEST_PERSONAS or len(set(names)) < len(names):
        raise UserError(
            f"--personas auto: the generator named {len(set(names))} distinct personas, not three to five; run again "
            "or give --personas FILE"
        )
    return personas


def excerpt(chunk: Any) -> str:
    """What the persona request shows of a chunk: its title where its metadata has one, then its first words."""
    metadata = getattr(chunk, "metadata", None) or {}
    title = next((str(metadata[key]) for key in ("title", "section", "heading") if metadata.get(key)), "")
    opening = " ".join(chunk.text.split()[:WORDS_PER_CHUNK])
    return f"{title}: {opening}" if title else opening
