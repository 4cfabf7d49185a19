"""What a run is asked for: its options, each one setting defined once with its flag (`graph.planning.setting`), kept
with the run so a resume needs only its id."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from graph.config.errors import InvalidOptions, UserError
from graph.config.settings import Settings
from graph.ledger.slots import CellQuota
from graph.planning.cells import BINARY_MODES, cell_pairs, cell_quotas
from graph.planning.personas import AUTO, read_personas
from graph.planning.query_file import query_file
from graph.planning.setting import fields_problem, flagged, option
from graph.planning.stages import context_fields, parse_node_options
from graph.seeding.weights import read_weights, weight_key
from nodes.question_types import MULTI_HOP_TYPES, OPEN_ONLY_TYPES, QUESTION_TYPES
from nodes.run_context import Context
from state.personas import Persona, personas_problem
from state.query_styles import QUERY_STYLES, parse_query_styles, shares_problem, style_quotas
from state.sample import DEFAULT_ROLE, MAX_HOPS, MIN_HOPS
from state.usage import ROLES

#: Settings a run keeps beside its options: what its samples were drawn from and with which models.
STORED_SETTINGS = ("collection", "schema_name", "embedding", "thinking", "min_chunk_chars", "max_chunk_chars")


def parse_types(value: str) -> tuple[str, ...]:
    """`--types`: question types, comma-separated."""
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def read_query_styles(text: str) -> dict[str, float]:
    """`--query-styles` as a distribution; a malformed one is one `error:` line."""
    try:
        return parse_query_styles(text)
    except ValueError as wrong:
        raise InvalidOptions(str(wrong)) from None


def read_persona_flag(value: Path) -> dict[str, Any]:
    """`--personas FILE` read, or `--personas auto`: personas derived from the collection when the run begins."""
    if str(value) == AUTO:
        return {"personas": None, "personas_auto": True}
    return {"personas": read_personas(value), "personas_auto": False}


def _share(value: float) -> str | None:
    return None if 0 <= value <= 1 else "is a share of --count from 0 to 1, e.g. 0.2"


def _range_check(low: int, high: int) -> Callable[[int], str | None]:
    return lambda value: None if low <= value <= high else f"must be from {low} to {high}, not {value!r}"


@dataclass(frozen=True)
class RunOptions:
    """What a run is asked for, kept in the state database so `--resume` and workers need only the run id.

    Each field is one setting, defined here once: its flag, help and check are its `Flag`.
    """

    count: int = option(
        6,
        type=int,
        help="accepted samples wanted (default %(default)s)",
        check=lambda value: None if value > 0 else "must be a positive number of samples",
    )
    types: tuple[str, ...] = option(
        MULTI_HOP_TYPES,
        type=parse_types,
        help="question types, comma-separated: comparison, intersection, composition (multi-hop, the default), "
        "factual, procedural (one chunk each)",
        check=lambda value: (
            None
            if value and all(t in QUESTION_TYPES for t in value)
            else f"takes {', '.join(QUESTION_TYPES)}, not {', '.join(value) or 'nothing'}"
        ),
    )
    binary: str = option(
        "mixed",
        choices=sorted(BINARY_MODES),
        help="yes/no questions: mixed (half, default), yes (only), no (none)",
        check=lambda value: (
            None if value in BINARY_MODES else f"takes {', '.join(sorted(BINARY_MODES))}, not {value!r}"
        ),
    )
    hops: int = option(
        2,
        type=int,
        choices=range(MIN_HOPS, MAX_HOPS + 1),
        metavar="{" + ",".join(str(n) for n in range(MIN_HOPS, MAX_HOPS + 1)) + "}",
        help="supporting chunks per question (default %(default)s)",
        check=_range_check(MIN_HOPS, MAX_HOPS),
    )
    role: str = option(
        DEFAULT_ROLE, read=lambda role: role or DEFAULT_ROLE, help=f"who asks the questions (default {DEFAULT_ROLE!r})"
    )
    random_seed: int | None = option(
        None,
        flag="--seed",
        type=int,
        metavar="SEED",
        stored_as="seed",
        help="make seed selection reproducible: the random seed of the run's draws (seed chunks, derived personas, "
        "the language survey, coverage clusters, retry jitter)",
    )
    max_revisions: int = option(
        Context.max_revisions, type=int, context=True, help="revisions of a rejected draft (default %(default)s)"
    )
    max_restarts: int = option(
        Context.max_restarts,
        type=int,
        context=True,
        help="fresh seeds after a failed bridge search (default %(default)s)",
    )
    nodes: dict[str, str] = option(
        factory=dict,
        flag="--node",
        repeat=True,
        metavar="STAGE=IMPL",
        read=parse_node_options,
        fallback="nodes",
        help="swap a stage: bridge=llm|entity_overlap, relevance=care|care_batched|direct|indirect, "
        "or STAGE=package.module:function (repeatable; also [nodes] in triad.toml)",
    )
    dedup_threshold: float = option(
        0.95,
        type=float,
        help="reject a question whose embedding cosine to an accepted one reaches this (0 = exact duplicates only; "
        "default %(default)s)",
        check=lambda value: None if 0 <= value <= 1 else "is a cosine similarity from 0 (exact duplicates only) to 1",
    )
    sufficiency_after_quality_reject: bool = option(
        Context.sufficiency_after_quality_reject,
        switch=True,
        context=True,
        help="run the sufficiency check even after the quality judge rejected (more calls; as the reference code did)",
    )
    unanswerable_share: float = option(
        0.0,
        group="queries",
        type=float,
        new_run_only=True,
        check=_share,
        help="share of --count that are generated unanswerable questions, checked against the retriever's top k "
        "(default %(default)s)",
    )
    retrieval_k: int = option(
        Context.retrieval_k,
        group="queries",
        type=int,
        context=True,
        help="chunks retrieved per query and per unanswerable question (default %(default)s)",
    )
    queries: str | None = option(
        None,
        group="queries",
        type=Path,
        metavar="FILE",
        read=query_file,
        spread=True,
        help="seed from real user queries: one per line, or JSON lines with query and an optional role; seeds are "
        "drawn from the chunks they retrieve (weighted by how many queries did)",
    )
    queries_digest: str | None = option(None)
    """SHA-256 of the query file, so a continued run reads the same queries."""
    role_from_queries: bool = option(
        False,
        group="queries",
        switch=True,
        new_run_only=True,
        help="write each question in the register of the nearest real query (that query is sent to the generator)",
    )
    keep_queries: bool = option(
        False,
        group="queries",
        switch=True,
        new_run_only=True,
        help="records and the report show query texts (default: a hash; queries may hold personal data)",
    )
    question_language: str | None = option(
        Context.question_language,
        metavar="CODE",
        read=lambda code: code.strip().lower() or None,
        context=True,
        new_run_only=True,
        fallback="question_language",
        help="write every question and answer in this language (ISO 639-1, e.g. en, de); default: the language "
        "of each sample's chunks (TRIAD_QUESTION_LANGUAGE, question_language in triad.toml)",
    )
    weight_by: str | None = option(
        None,
        group="weights",
        metavar="metadata.KEY",
        read=weight_key,
        new_run_only=True,
        help="seeds weighted by this metadata key: its value is the weight, or, with --weights, names it",
    )
    weights: dict[str, float] | None = option(
        None,
        group="weights",
        type=Path,
        metavar="FILE",
        read=read_weights,
        new_run_only=True,
        help="a document's source (or a --weight-by value) and its weight per line: heavier documents seed "
        "proportionally more questions",
    )

    personas: list[Persona] | None = option(
        None,
        type=Path,
        metavar="FILE",
        read=read_persona_flag,
        spread=True,
        new_run_only=True,
        help="the run's askers, from YAML or JSON: a list of name, description and share (optional); each "
        "persona's description is the role of its share of the samples; `auto`: three to five derived from the "
        "collection",
    )
    personas_auto: bool = option(False)
    """`--personas auto`: the personas are derived from the collection when the run begins (then kept in
    `personas`)."""
    query_styles: dict[str, float] | None = option(
        None,
        metavar="STYLE=SHARE,...",
        read=read_query_styles,
        new_run_only=True,
        help="ask the accepted questions the way users type them, each style a share of --count, e.g. "
        f"natural=0.6,keyword=0.2,misspelled=0.2 ({', '.join(QUERY_STYLES)}); default: every question as validated",
    )

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
            context_fields(self.nodes)  # an unknown stage or implementation fails here, before any work
        except UserError as error:
            raise InvalidOptions(str(error)) from None

    def problem(self) -> str | None:
        """What is wrong with these options, in one line naming the flag; None when a run can use them."""
        if wrong := fields_problem(self):
            return wrong
        if not cell_pairs(self.types, BINARY_MODES[self.binary]):
            return f"--binary {self.binary} leaves no cell: {', '.join(OPEN_ONLY_TYPES)} questions have no yes/no form"
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

    def context(self, run_id: str = "adhoc", *, dataset_version: int = 1) -> Context:
        """The run context these options give the nodes of run `run_id`, writing into `dataset_version`; the
        models and the collection's settings are filled in when the runner is built (`context_for`)."""
        chosen = {item.name: getattr(self, item.name) for item, flag in flagged(RunOptions) if flag.context}
        return Context(run_id=run_id, dataset_version=dataset_version, **chosen | context_fields(self.nodes))

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
STORED_KEYS = {item.name: flag.stored_as for item, flag in flagged(RunOptions) if flag.stored_as}


#: Options a continued run keeps from when it began: asking for them again is refused.
NEW_RUN_ONLY = tuple(item.name for item, flag in flagged(RunOptions) if flag.new_run_only)


def refuse_new_run_options(resume: str | None, given: dict[str, Any]) -> None:
    """A continued run (`resume`) asked for options only a new run takes (`NEW_RUN_ONLY`, as `given`)."""
    if resume and any(given.get(name) for name in NEW_RUN_ONLY):
        names = [flag.name_for(item.name) for item, flag in flagged(RunOptions) if flag.new_run_only]
        listed = f"{', '.join(names[:-1])} and {names[-1]}"
        raise InvalidOptions(f"a continued run keeps the options it began with: {listed} apply to new runs")
