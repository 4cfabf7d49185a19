"""run.json, the document a run writes beside its files, as one type: what a run, a refresh, the report, the
check, the review and the evaluation read of it, read and written here only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TypedDict, cast

from state.usage import ModelCall


class Fingerprint(TypedDict, total=False):
    """A collection as it was when a dataset was made or checked: its name, rows, change counter and documents."""

    name: str | None
    rows: int
    modifications: int | None
    """The table's change counter; None where the store does not keep one."""
    sources: list[str]


class LlmFigures(TypedDict):
    """The funnel's model calls: totals per role and per node, and what an accepted sample cost."""

    per_role: dict[str, dict[str, float]]
    per_node: dict[str, dict[str, float]]
    calls: float
    repeated_requests: int
    cost_usd: float
    calls_per_accepted: float | None
    cost_per_accepted_usd: float | None


class Funnel(TypedDict, total=False):
    """The funnel of every finished sample (`graph.figures.funnel.funnel`); an earlier version wrote fewer keys."""

    samples_started: int
    accepted: int
    rejected: int
    no_bridge: int
    failed: int
    acceptance_rate: float
    questions_generated: int
    unanswerable_drafts: int
    drafts_rejected_by: dict[str, int]
    revisions_used: int
    cells: dict[str, dict[str, int]]
    """Cell -> started, and the count of each outcome."""
    query_styles: dict[str, dict[str, int]]
    languages: dict[str, dict[str, int]]
    """Language -> drafted, each outcome, drafts and rejections per judge."""
    llm: LlmFigures


class UncoveredDocument(TypedDict):
    source: str
    chunks: int


class DocumentCoverage(TypedDict):
    """Which share of the collection's documents supplied a supporting chunk."""

    documents: int
    covered: int
    share: float | None
    chunks_without_source: int
    largest_uncovered: list[UncoveredDocument]


class WeightCoverage(TypedDict):
    """The documents of one seed weight, and how many supplied a supporting chunk."""

    weight: float
    documents: int
    covered: int
    share: float


class UncoveredCluster(TypedDict):
    queries: int
    unanswerable_near: int
    typical_query: str


class QueryCoverage(TypedDict):
    """Clusters of the run's real queries, and which have an accepted question near them."""

    queries: int
    clusters: int
    covered: int
    share: float | None
    only_unanswerable_near: int
    largest_uncovered: list[UncoveredCluster]


class Coverage(TypedDict, total=False):
    documents: DocumentCoverage
    by_weight: list[WeightCoverage]
    queries: QueryCoverage


class LanguageShares(TypedDict):
    """The languages of a sample of the collection's chunks."""

    sampled_chunks: int
    shares: dict[str, float]
    """ISO 639-1 code (or "und") -> share of the sampled chunks."""


class Languages(TypedDict, total=False):
    """run.json's languages: the collection's, as surveyed before the run."""

    collection: LanguageShares


class MadeWith(TypedDict, total=False):
    """What a run was made with, as run.json and its manifest both hold it."""

    options: dict[str, Any]
    """The run's options as the state database keeps them (`RunOptions.stored`), without the settings."""
    settings: dict[str, Any]
    """The settings without secrets (`public_settings`)."""
    models: dict[str, str]
    """The model spec of each role."""
    structured_output: dict[str, str]
    """The structured-output mode each model's server answered in."""


class Manifest(MadeWith, total=False):
    """What a finished run was made of: versions, models, options, settings, the collection, every chunk's digest."""

    triad_version: str
    prompt_version: str
    created_at: str
    seed: int | None
    thinking: dict[str, str]
    collection: Fingerprint
    chunks: dict[str, str]
    """Chunk id -> the digest of its text (`state.record.text_digest`)."""


class VersionEntry(TypedDict, total=False):
    """A dataset version after the first, as run.json lists it (`versions`)."""

    version: int
    written_at: str
    changes: dict[str, int]
    """Records per kind of change (kept, updated, replaced, dropped, added)."""
    changes_file: str
    collection: Fingerprint
    """The collection the version was written against."""


class RunDocument(MadeWith, total=False):
    """run.json. Every key is optional to a reader: a run that stopped early, or an earlier version of triad,
    wrote fewer."""

    run_id: str
    finished_at: str
    seconds_this_process: float
    quotas: dict[str, int]
    shortfall: dict[str, int]
    query_style_quotas: dict[str, int]
    query_style_shortfall: dict[str, int]
    stopped_by_cost_limit: bool
    funnel: Funnel
    preflight_calls: list[ModelCall]
    languages: Languages | None
    coverage: Coverage | None
    manifest: Manifest
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
