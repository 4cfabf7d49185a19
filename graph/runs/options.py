"""What a run is asked for: its options (kept with the run, so a resume needs only its id) and its quota plan."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from graph.config.settings import COLUMN_SETTINGS, Settings
from graph.llm.gateway import LLMGateway
from graph.runs.sample import context_for
from graph.runs.stages import context_overrides
from graph.runs.store import CellPlan
from nodes.context import Context
from state.sample import DEFAULT_ROLE, QUESTION_TYPES, UNANSWERABLE
from state.usage import ROLES

#: A cell may start this many samples per accepted sample it wants before it is given up.
ATTEMPT_FACTOR = 3


def plan_cells(
    count: int,
    types: Sequence[str],
    binary_modes: Sequence[bool],
    attempt_factor: int = ATTEMPT_FACTOR,
    unanswerable_share: float = 0.0,
) -> list[CellPlan]:
    """Equal shares of `count` over types x binary modes; the first cells take any remainder.

    `unanswerable_share` of `count` (rounded, at least one when above 0) goes to generated unanswerable
    questions first, a cell of their own.
    """
    unanswerable = min(count, max(1, round(count * unanswerable_share))) if unanswerable_share > 0 else 0
    cells = [CellPlan(UNANSWERABLE, False, unanswerable, cap=attempt_factor * unanswerable)] if unanswerable else []
    count -= unanswerable
    if count == 0:
        return cells
    pairs = [(question_type, binary) for question_type in types for binary in binary_modes]
    share, remainder = divmod(count, len(pairs))
    for index, (question_type, binary) in enumerate(pairs):
        quota = share + (1 if index < remainder else 0)
        if quota:
            cells.append(CellPlan(question_type, binary, quota, cap=attempt_factor * quota))
    return cells


#: --binary: which binary modes the quota plan covers.
BINARY_MODES = {"mixed": (False, True), "yes": (True,), "no": (False,)}

#: Settings a run keeps beside its options: what its samples were drawn from and with which models.
STORED_SETTINGS = ("collection", "schema_name", "embedding", "thinking")


@dataclass(frozen=True)
class RunOptions:
    """What a run is asked for, kept in the state database so `--resume` and workers need only the run id."""

    count: int = 6
    """Accepted samples wanted."""
    types: tuple[str, ...] = QUESTION_TYPES
    """Question types of the quota plan."""
    binary: str = "mixed"
    """Binary modes of the plan: a key of `BINARY_MODES`."""
    hops: int = 2
    """Supporting chunks per question."""
    role: str = DEFAULT_ROLE
    """Who asks the questions."""
    seed: int | None = None
    """Seed of the seed draws (reproducible runs)."""
    max_revisions: int = Context.max_revisions
    """Revisions of a rejected draft."""
    max_restarts: int = Context.max_restarts
    """Fresh seeds after a failed bridge search."""
    nodes: dict[str, str] = field(default_factory=dict)
    """Stage implementations chosen (`--node`, `[nodes]`)."""
    dedup_threshold: float = 0.95
    """Embedding cosine at which a question counts as a duplicate of an accepted one (0: exact only)."""
    sufficiency_after_quality_reject: bool = False
    """Run the sufficiency check even after a quality reject."""
    unanswerable_share: float = 0.0
    """Share of `count` that are generated unanswerable questions."""
    retrieval_k: int = Context.retrieval_k
    """Chunks retrieved per question by the collection's retriever: per query, and for the unanswerable check."""
    queries: str | None = None
    """The query file seeds are drawn from (its path); None: seeds uniform over the collection."""
    queries_digest: str | None = None
    """SHA-256 of that file, so a continued run reads the same queries."""
    role_from_queries: bool = False
    """The generator writes in the register of the real query nearest to each seed (the query is sent to it)."""
    keep_queries: bool = False
    """Records and the report show query texts; else their hashes."""

    def cells(self) -> list[CellPlan]:
        """The quota plan over question types x binary modes, and generated unanswerable questions."""
        return plan_cells(self.count, self.types, BINARY_MODES[self.binary], unanswerable_share=self.unanswerable_share)

    def context(self, settings: Settings, gateway: LLMGateway, run_id: str) -> Context:
        """The graph's run context for these options."""
        return context_for(
            settings,
            gateway,
            run_id=run_id,
            max_revisions=self.max_revisions,
            max_restarts=self.max_restarts,
            sufficiency_after_quality_reject=self.sufficiency_after_quality_reject,
            retrieval_k=self.retrieval_k,
            **context_overrides(self.nodes),
        )

    def stored(self, settings: Settings) -> dict[str, Any]:
        """The options as the run keeps them, with the settings and models its samples use."""
        stored: dict[str, Any] = {name: getattr(self, name) for name in RUN_OPTION_NAMES}
        stored["types"] = list(self.types)
        stored["settings"] = {name: getattr(settings, name) for name in STORED_SETTINGS}
        # The collection's columns as found from flags and triad.toml, so a continued run reads the same ones.
        stored["settings"]["collections"] = {settings.collection or "": settings.column_settings()}
        stored["settings"].update({f"{role}_model": settings.model_for(role) for role in ROLES})
        return stored

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> RunOptions:
        """The options a run kept; options it predates keep their defaults."""
        known = {name: stored[name] for name in RUN_OPTION_NAMES if name in stored}
        return cls(**{**known, "types": tuple(stored["types"]), "nodes": dict(stored.get("nodes") or {})})


#: The fields of `RunOptions`, as the run keeps them.
RUN_OPTION_NAMES = tuple(f.name for f in fields(RunOptions))


def stored_settings(settings: Settings, stored: dict[str, Any], models_given: dict[str, str]) -> Settings:
    """The settings a stored run's samples use; model specs given now (`--llm`, `--ROLE-model`) still win.

    The collection's columns and distance are the run's (its `[collections]` entry), whatever the
    environment or triad.toml say now.
    """
    kept = dict(stored["settings"])
    if "collections" in kept:
        kept.update(dict.fromkeys(COLUMN_SETTINGS))
    kept.update({f"{role}_model": spec for role, spec in models_given.items()})
    return settings.model_copy(update=kept)


@dataclass(frozen=True)
class RunRequest:
    """One invocation of `graph.run`: the run to make or continue, and how this process works on it."""

    options: RunOptions
    """The options of a new run (a continued run's come from the state database)."""
    run_id: str | None = None
    """Name of a new run (or of one to continue when it exists)."""
    resume: str | None = None
    """The run to continue."""
    worker: bool = False
    """Join a run other processes work on too."""
    concurrency: int = 1
    """Samples in flight at once in this process."""
    record_llm: Path | None = None
    """Where every model request and reply is written."""
    log_json: bool = False
    """Structured logs take the place of the per-sample lines."""
    models_given: dict[str, str] = field(default_factory=dict)
    """Model specs given on the command line, per role; they win over a continued run's."""
    queries_given: Path | None = None
    """`--queries` as given now: a continued run may find its query file at another path (same contents)."""
