"""run.json, the document a run writes beside its files, as one type: what a run, a refresh, the report, the
check, the review and the evaluation read of it, read and written here only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict, cast

from state.usage import ModelCall


class VersionEntry(TypedDict, total=False):
    """A dataset version after the first, as run.json lists it (`versions`)."""

    version: int
    written_at: str
    changes: dict[str, int]
    """Records per kind of change (kept, updated, replaced, dropped, added)."""
    changes_file: str
    collection: dict[str, Any]
    """The collection the version was written against: its name and fingerprint."""


class RunDocument(TypedDict, total=False):
    """run.json. Every key is optional to a reader: a run that stopped early, or an earlier version of triad,
    wrote fewer."""

    run_id: str
    finished_at: str
    seconds_this_process: float
    options: dict[str, Any]
    """The run's options as the state database keeps them (`RunOptions.stored`), without the settings."""
    settings: dict[str, Any]
    """The settings without secrets (`public_settings`)."""
    models: dict[str, str]
    quotas: dict[str, int]
    shortfall: dict[str, int]
    query_style_quotas: dict[str, int]
    query_style_shortfall: dict[str, int]
    stopped_by_cost_limit: bool
    funnel: dict[str, Any]
    """The funnel of every finished sample (`graph.figures.funnel.funnel`)."""
    preflight_calls: list[ModelCall]
    structured_output: dict[str, str]
    languages: dict[str, Any] | None
    coverage: dict[str, Any] | None
    manifest: dict[str, Any]
    """The collection's fingerprint and the records' chunks (`graph.folder.manifest`)."""
    dataset_version: int
    versions: list[VersionEntry]


def load_run_document(path: Path) -> RunDocument:
    """The run.json at `path`; `OSError` when it cannot be read, `ValueError` when it is not a JSON object."""
    document = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(document, dict):
        raise ValueError(f"{path} holds no JSON object")
    return cast(RunDocument, document)


def read_run_document(folder: Path) -> RunDocument:
    """A run folder's run.json, or an empty document when it has none (or one that is not a JSON object)."""
    try:
        return load_run_document(folder / "run.json")
    except (OSError, ValueError):
        return {}


def dump_run_document(document: RunDocument) -> str:
    return json.dumps(document, indent=2) + "\n"
