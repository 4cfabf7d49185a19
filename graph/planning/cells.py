"""A run's cells: every question type in every binary mode it asks for, each with its quota of accepted samples
and the cap on the samples it may start."""

from __future__ import annotations

from collections.abc import Sequence

from graph.ledger.slots import CellQuota
from nodes.question_types import OPEN_ONLY_TYPES
from state.sample import UNANSWERABLE

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
