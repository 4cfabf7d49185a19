"""`--personas FILE`: a run's askers read from YAML or JSON, each with a name, a description and a share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from graph.runs.options import InvalidOptions
from state.personas import personas_problem


def read_personas(path: Path) -> list[dict[str, Any]]:
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
        {"name": str(item.get("name") or "").strip(), "description": str(item.get("description") or "").strip()}
        | ({"share": item["share"]} if item.get("share") is not None else {})
        for item in listed
    ]
    if problem := personas_problem(personas):
        raise InvalidOptions(problem)
    return personas
