"""A run: samples started until every cell of the quota plan is met or hits its attempt cap.

Cells are question type x binary (SPEC section 4). Each sample is thread `<run_id>/<n>`; its record
goes to `dataset.jsonl` (accepted) or its history to `rejected.jsonl` as soon as it ends, one
complete line each, flushed and synced, so an interrupted run loses no finished sample.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import structlog

from graph.funnel import cell_name
from graph.llm import LLMGateway
from graph.sample import SampleResult, SampleRunner
from state.sample import DEFAULT_ROLE, SampleInput

log = structlog.get_logger("triad.run")

#: A cell may start this many samples per accepted sample it wants before it is given up.
ATTEMPT_FACTOR = 3


@dataclass
class Cell:
    """One quota cell and its progress."""

    question_type: str
    binary: bool
    quota: int
    cap: int
    started: int = 0
    accepted: int = 0

    @property
    def name(self) -> str:
        return cell_name(self.question_type, self.binary)

    @property
    def open(self) -> bool:
        return self.accepted < self.quota and self.started < self.cap


def plan_cells(
    count: int, types: Sequence[str], binary_modes: Sequence[bool], attempt_factor: int = ATTEMPT_FACTOR
) -> list[Cell]:
    """Equal shares of `count` over types x binary modes; the first cells take any remainder."""
    pairs = [(question_type, binary) for question_type in types for binary in binary_modes]
    share, remainder = divmod(count, len(pairs))
    cells = []
    for index, (question_type, binary) in enumerate(pairs):
        quota = share + (1 if index < remainder else 0)
        if quota:
            cells.append(Cell(question_type, binary, quota, cap=attempt_factor * quota))
    return cells


def next_cell(cells: Sequence[Cell]) -> Cell | None:
    """The open cell furthest from its quota (ties: plan order); None when the run is done."""
    open_cells = [cell for cell in cells if cell.open]
    if not open_cells:
        return None
    return max(open_cells, key=lambda cell: (cell.quota - cell.accepted) / cell.quota)


def append_line(path: Path, entry: dict[str, Any]) -> None:
    """Append one JSON line, flushed and synced: a crash never leaves half a line."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry, ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())


@dataclass
class RunState:
    """What a run has done so far."""

    run_id: str
    folder: Path
    cells: list[Cell]
    results: list[SampleResult] = field(default_factory=list)
    stopped_by_cost: bool = False
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    started_clock: float = field(default_factory=time.monotonic)

    @property
    def dataset_path(self) -> Path:
        return self.folder / "dataset.jsonl"

    @property
    def rejected_path(self) -> Path:
        return self.folder / "rejected.jsonl"


async def execute_run(
    run: RunState,
    runner: SampleRunner,
    gateway: LLMGateway,
    *,
    hops: int = 2,
    role: str = DEFAULT_ROLE,
    max_cost_usd: float | None = None,
    on_sample: Callable[[RunState, Cell, SampleResult], None] | None = None,
) -> RunState:
    """Start samples one after another until every cell is met or capped (or the budget is spent)."""
    run.folder.mkdir(parents=True, exist_ok=True)
    while (cell := next_cell(run.cells)) is not None:
        if max_cost_usd is not None and gateway.cost_usd >= max_cost_usd:
            run.stopped_by_cost = True
            log.warning("cost_limit_reached", run_id=run.run_id, cost_usd=gateway.cost_usd, limit_usd=max_cost_usd)
            break
        number = len(run.results)
        spec = SampleInput(question_type=cell.question_type, binary=cell.binary, role=role, hops=hops)  # type: ignore[typeddict-item]
        result = await runner.run(spec, f"{run.run_id}/{number}")
        cell.started += 1
        if result.record is not None:
            cell.accepted += 1
            append_line(run.dataset_path, result.record)
        else:
            append_line(run.rejected_path, result.rejection or {})
        run.results.append(result)
        log.info("sample_done", run_id=run.run_id, thread_id=result.thread_id, cell=cell.name, outcome=result.outcome)
        if on_sample is not None:
            on_sample(run, cell, result)
    return run
