"""What a run is asked for: its options (kept with the run, so a resume needs only its id) and its cells' quotas;
the request of one invocation (`RunRequest`); the run this process works on (`Run`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from graph.config.errors import UserError
from graph.config.settings import COLUMN_SETTINGS, Settings
from graph.folder.files import check_run_id
from graph.ledger.slots import CellQuota
from graph.planning.stages import context_overrides
from nodes.question_types import MULTI_HOP_TYPES, OPEN_ONLY_TYPES, QUESTION_TYPES
from nodes.run_context import Context
from state.languages import check_language_code
from state.personas import personas_problem
from state.query_styles import shares_problem, style_quotas
from state.sample import DEFAULT_ROLE, MAX_HOPS, MIN_HOPS, UNANSWERABLE
from state.usage import ROLES

#: A cell may start this many samples per accepted sample it wants before it is given up.
ATTEMPT_FACTOR = 3


def cell_quotas(
    count: int,
    types: Sequence[str],
    binary_modes: Sequence[bool],
    attempt_factor: int = ATTEMPT_FACTOR,
    unanswerable_share: float = 0.0,
) -> list[CellQuota]:
    """Equal shares of `count` over types x binary modes; the first cells take any remainder.

    `unanswerable_share` of `count` (rounded, at least one when above 0) goes to generated unanswerable
    questions first, a cell of their own.
    """
    unanswerable = min(count, max(1, round(count * unanswerable_share))) if unanswerable_share > 0 else 0
    cells = [CellQuota(UNANSWERABLE, False, unanswerable, cap=attempt_factor * unanswerable)] if unanswerable else []
    count -= unanswerable
    if count == 0:
        return cells
    pairs = cell_pairs(types, binary_modes)
    share, remainder = divmod(count, len(pairs))
    for index, (question_type, binary) in enumerate(pairs):
        quota = share + (1 if index < remainder else 0)
        if quota:
            cells.append(CellQuota(question_type, binary, quota, cap=attempt_factor * quota))
    return cells


def cell_pairs(types: Sequence[str], binary_modes: Sequence[bool]) -> list[tuple[str, bool]]:
    """The plan's cells: every type in every binary mode, but a yes/no form only for types that have one."""
    return [
        (question_type, binary)
        for question_type in types
        for binary in binary_modes
        if not (binary and question_type in OPEN_ONLY_TYPES)
    ]


#: --binary: which binary modes the cells cover.
BINARY_MODES = {"mixed": (False, True), "yes": (True,), "no": (False,)}

#: Settings a run keeps beside its options: what its samples were drawn from and with which models.
STORED_SETTINGS = ("collection", "schema_name", "embedding", "thinking", "min_chunk_chars", "max_chunk_chars")


@dataclass(frozen=True)
class RunOptions:
    """What a run is asked for, kept in the state database so `--resume` and workers need only the run id."""

    count: int = 6
    """Accepted samples wanted."""
    types: tuple[str, ...] = MULTI_HOP_TYPES
    """Question types of the cells (default: the paper's three multi-hop types)."""
    binary: str = "mixed"
    """Binary modes of the plan: a key of `BINARY_MODES`."""
    hops: int = 2
    """Supporting chunks per question."""
    role: str = DEFAULT_ROLE
    """Who asks the questions."""
    random_seed: int | None = None
    """`--seed`: the random seed of the run's draws (seed chunks, derived personas, the language survey, coverage
    clusters, retry jitter), for reproducible runs; kept as `seed`."""
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
    question_language: str | None = None
    """ISO 639-1 code of the language every question and answer is written in; None: each sample's chunks' own."""
    weight_by: str | None = None
    """The metadata key seeds are weighted by (`--weight-by metadata.KEY`); None: by document, with `weights`."""
    weights: dict[str, float] | None = None
    """A weight per document or per `weight_by` value (`--weights FILE`, kept here as read); None: the metadata
    value is the weight, or no weighting."""
    personas: list[dict[str, Any]] | None = None
    """Who asks (`--personas`): name, description and share each; None: `role` asks every question."""
    personas_auto: bool = False
    """`--personas auto`: the personas are derived from the collection when the run begins (then kept here)."""
    query_styles: dict[str, float] | None = None
    """Share of the samples asked in each query style (`state.query_styles`); None: every question as validated."""

    @property
    def weighted(self) -> bool:
        """Whether seeds are drawn by document weight (`graph.seeding.weights`)."""
        return self.weight_by is not None or self.weights is not None

    def __post_init__(self) -> None:
        """Options no run can use are refused here, for the command and the Python API alike."""
        problem = self.problem()
        if problem:
            raise InvalidOptions(problem)
        try:
            context_overrides(self.nodes)  # an unknown stage or implementation fails here, before any work
        except UserError as error:
            raise InvalidOptions(str(error)) from None

    def problem(self) -> str | None:
        """What is wrong with these options, in one line naming the flag; None when a run can use them."""
        if self.count <= 0:
            return "--count must be a positive number of samples"
        if not MIN_HOPS <= self.hops <= MAX_HOPS:
            return f"--hops must be from {MIN_HOPS} to {MAX_HOPS}, not {self.hops!r}"
        if not self.types or any(t not in QUESTION_TYPES for t in self.types):
            return f"--types takes {', '.join(QUESTION_TYPES)}, not {', '.join(self.types) or 'nothing'}"
        if self.binary not in BINARY_MODES:
            return f"--binary takes {', '.join(sorted(BINARY_MODES))}, not {self.binary!r}"
        if not cell_pairs(self.types, BINARY_MODES[self.binary]):
            return f"--binary {self.binary} leaves no cell: {', '.join(OPEN_ONLY_TYPES)} questions have no yes/no form"
        if self.max_revisions < 0 or self.max_restarts < 0:
            return "--max-revisions and --max-restarts cannot be negative"
        if not 0 <= self.dedup_threshold <= 1:
            return "--dedup-threshold is a cosine similarity from 0 (exact duplicates only) to 1"
        if not 0 <= self.unanswerable_share <= 1:
            return "--unanswerable-share is a share of --count from 0 to 1, e.g. 0.2"
        if self.retrieval_k <= 0:
            return "--retrieval-k must be at least 1"
        if self.question_language is not None and (wrong := check_language_code(self.question_language)):
            return f"--question-language: {wrong}"
        if (self.role_from_queries or self.keep_queries) and not self.queries:
            return "--role-from-queries and --keep-queries need a query file: give --queries FILE"
        if self.personas is not None and (wrong := personas_problem(self.personas)):
            return wrong
        if self.query_styles is not None:
            return shares_problem(self.query_styles) or self._styles_fit()
        return None

    def _styles_fit(self) -> str | None:
        """A yes/no question takes no keyword style: the keyword quota must fit the open questions."""
        keyword = self.style_quotas().get("keyword", 0)
        open_places = sum(cell.quota for cell in self.cells() if not cell.binary)
        if keyword > open_places:
            return (
                f"--query-styles asks for {keyword} keyword queries, but only {open_places} of the {self.count} "
                "samples are open questions (yes/no questions keep their form); lower the keyword share or the "
                "yes/no share (--binary)"
            )
        return None

    def style_quotas(self) -> dict[str, int]:
        """Samples per query style; empty when the run asks for none."""
        return style_quotas(self.query_styles, self.count) if self.query_styles else {}

    def cells(self) -> list[CellQuota]:
        """The cells' quotas over question types x binary modes, and generated unanswerable questions."""
        return cell_quotas(
            self.count, self.types, BINARY_MODES[self.binary], unanswerable_share=self.unanswerable_share
        )

    def context_overrides(self) -> dict[str, Any]:
        """What these options change in the graph's run context."""
        return {
            "max_revisions": self.max_revisions,
            "max_restarts": self.max_restarts,
            "sufficiency_after_quality_reject": self.sufficiency_after_quality_reject,
            "retrieval_k": self.retrieval_k,
            "question_language": self.question_language,
            **context_overrides(self.nodes),
        }

    def stored(self, settings: Settings) -> dict[str, Any]:
        """The options as the run keeps them, with the settings and models its samples use."""
        stored: dict[str, Any] = {STORED_KEYS.get(name, name): getattr(self, name) for name in RUN_OPTION_NAMES}
        stored["types"] = list(self.types)
        stored["settings"] = {name: getattr(settings, name) for name in STORED_SETTINGS}
        # How the collection's columns were read (`with_columns`), so a continued run reads the same ones.
        collection = settings.collection or ""
        stored["settings"]["collections"] = {collection: settings.collections[collection]}
        stored["settings"].update({f"{role}_model": settings.model_for(role) for role in ROLES})
        return stored

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> RunOptions:
        """The options a run kept."""
        known = {name: stored[key] for name in RUN_OPTION_NAMES if (key := STORED_KEYS.get(name, name)) in stored}
        return cls(**{**known, "types": tuple(stored["types"]), "nodes": dict(stored["nodes"])})


#: The fields of `RunOptions`.
RUN_OPTION_NAMES = tuple(f.name for f in fields(RunOptions))
#: The key a run keeps a field under where it differs from the field's name (the `--seed` flag's).
STORED_KEYS = {"random_seed": "seed"}


def with_columns(settings: Settings) -> Settings:
    """`settings` with the collection's columns, as flags and triad.toml give them, in its `[collections]` table:
    run.json then says how the store was read, for `graph.evaluate RUN_ID` and for a reader."""
    collections = {**settings.collections, settings.collection or "": settings.column_settings()}
    return settings.model_copy(update={"collections": collections})


def stored_settings(settings: Settings, stored: dict[str, Any], models_given: dict[str, str]) -> Settings:
    """The settings a stored run's samples use; model specs given now (`--llm`, `--ROLE-model`) still win.

    The collection's columns and distance are the run's (its `[collections]` entry), whatever the
    environment or triad.toml say now.
    """
    kept = dict(stored["settings"]) | dict.fromkeys(COLUMN_SETTINGS)
    kept.update({f"{role}_model": spec for role, spec in models_given.items()})
    return settings.model_copy(update=kept)


class InvalidOptions(UserError, ValueError):
    """Run options no run can use."""


#: Options a continued run keeps from when it began: asking for them again is refused.
NEW_RUN_ONLY = (
    "role_from_queries",
    "keep_queries",
    "unanswerable_share",
    "question_language",
    "weight_by",
    "weights",
    "query_styles",
    "personas",
)


def refuse_new_run_options(resume: str | None, given: dict[str, Any]) -> None:
    """A continued run (`resume`) asked for options only a new run takes (`NEW_RUN_ONLY`, as `given`)."""
    if resume and any(given.get(name) for name in NEW_RUN_ONLY):
        raise InvalidOptions(
            "a continued run keeps the options it began with: --role-from-queries, --keep-queries, "
            "--unanswerable-share, --question-language, --weight-by, --weights, --query-styles and --personas apply "
            "to new runs"
        )


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

    def __post_init__(self) -> None:
        if self.concurrency <= 0:
            raise InvalidOptions("--concurrency must be at least 1")
        if self.worker and not self.resume:
            raise InvalidOptions("--worker joins an existing run: give --resume RUN_ID")
        refuse_new_run_options(self.resume, {name: getattr(self.options, name) for name in NEW_RUN_ONLY})
        for run_id in (self.run_id, self.resume):
            if run_id is not None:
                check_run_id(run_id)


@dataclass(frozen=True)
class Run:
    """The run this process works on: new, or continued with the options it was begun with."""

    run_id: str
    options: RunOptions
    settings: Settings
    """The settings its samples use (a continued run's collection and models)."""
    continuing: bool
