"""The request of one invocation of `graph.run` (`RunRequest`), the run this process works on (`Run`), and the
settings a run keeps beside its options."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.config.errors import InvalidOptions
from graph.config.settings import COLUMN_SETTINGS, Settings
from graph.folder.files import check_run_id
from graph.planning.options import NEW_RUN_ONLY, RunOptions, refuse_new_run_options
from graph.planning.setting import fields_problem, option


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


@dataclass(frozen=True)
class RunRequest:
    """One invocation of `graph.run`: the run to make or continue, and how this process works on it."""

    options: RunOptions
    """The options of a new run (a continued run's come from the state database)."""
    run_id: str | None = option(
        None, help="name of the run folder and thread prefix (default: time stamp + random suffix)"
    )
    resume: str | None = option(
        None, metavar="RUN_ID", help="continue an interrupted run (its options come from the state database)"
    )
    worker: bool = option(False, switch=True, help="with --resume: join a run other processes work on too")
    concurrency: int = option(
        1,
        type=int,
        help="samples in flight at once (default %(default)s)",
        check=lambda value: None if value > 0 else "must be at least 1",
    )
    record_llm: Path | None = None
    """Where every model request and reply is written."""
    log_json: bool = False
    """Structured logs take the place of the per-sample lines."""
    models_given: dict[str, str] = field(default_factory=dict)
    """Model specs given on the command line, per role; they win over a continued run's."""
    queries_given: Path | None = None
    """`--queries` as given now: a continued run may find its query file at another path (same contents)."""

    def __post_init__(self) -> None:
        if wrong := fields_problem(self):
            raise InvalidOptions(wrong)
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
