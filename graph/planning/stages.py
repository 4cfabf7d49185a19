"""Which implementation runs each swappable stage, chosen by configuration and checked at start-up.

    --node bridge=entity_overlap             a built-in
    --node relevance=mypackage.labels:mine   your own function, same signature as the built-ins
    [nodes] in triad.toml: relevance = "care_batched"

Stages and their built-ins:
    bridge      llm (default), entity_overlap (no model)              async (state, runtime) -> update
    relevance   care (default), care_batched, direct, indirect       async (state, candidates, llm) -> (labels, calls)
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph.config.errors import UserError
from nodes.implementations import UnknownImplementation, resolve_implementation
from nodes.steps.bridge import BRIDGE_PROPOSERS
from nodes.steps.extract import RELEVANCE_LABELLERS


@dataclass(frozen=True)
class Stage:
    """A swappable stage: its built-ins, the context field that names the choice, its signature."""

    built_ins: Mapping[str, Any]
    context_field: str
    parameters: int


STAGES = {
    "bridge": Stage(BRIDGE_PROPOSERS, "bridge_proposer", 2),
    "relevance": Stage(RELEVANCE_LABELLERS, "relevance_labeller", 3),
}


def parse_node_options(options: Sequence[str]) -> dict[str, str]:
    """`STAGE=IMPL` flags as a mapping; a malformed one is a `UserError`."""
    chosen = {}
    for option in options:
        stage, separator, name = option.partition("=")
        if not separator or not name:
            raise UserError(f"--node takes STAGE=IMPLEMENTATION, not {option!r}")
        chosen[stage.strip()] = name.strip()
    return chosen


def check_implementation(stage_name: str, name: str) -> None:
    """Fail with one line unless `name` resolves to an async function with the stage's signature."""
    stage = STAGES.get(stage_name)
    if stage is None:
        raise UserError(f"unknown stage {stage_name!r}; swappable stages are {', '.join(STAGES)}")
    try:
        function = resolve_implementation(stage_name, name, stage.built_ins)
    except UnknownImplementation as error:
        raise UserError(str(error)) from None
    if not inspect.iscoroutinefunction(function):
        raise UserError(f"{name!r} for stage {stage_name} must be an async function")
    parameters = [
        p
        for p in inspect.signature(function).parameters.values()
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if len(parameters) != stage.parameters:
        raise UserError(
            f"{name!r} for stage {stage_name} takes {len(parameters)} arguments; the stage passes {stage.parameters}"
        )


def context_fields(chosen: Mapping[str, str]) -> dict[str, str]:
    """Checked choices as Context fields (bridge_proposer, relevance_labeller)."""
    for stage_name, name in chosen.items():
        check_implementation(stage_name, name)
    return {STAGES[stage_name].context_field: name for stage_name, name in chosen.items()}
