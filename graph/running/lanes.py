"""Work on a list of items a few at a time, within a budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class Spending(Protocol):
    """What a budget reads: the gateway's running total."""

    @property
    def cost_usd(self) -> float: ...


@dataclass(frozen=True)
class Budget:
    """A command's cost limit (`--max-cost-usd`): `limit` USD over what `spent()` counts, None for no limit.
    Run, refresh and calibration stop starting work once it is exhausted."""

    limit: float | None
    spent: Callable[[], float]

    @classmethod
    def of(cls, gateway: Spending, limit: float | None, *, before: float = 0.0) -> Budget:
        """The limit over what `gateway` has spent in all, `before` USD (spent elsewhere) counted with it."""
        return cls(limit, lambda: before + gateway.cost_usd)

    def exhausted(self) -> bool:
        return self.limit is not None and self.spent() >= self.limit


class CostLimitReached(Exception):
    """The budget ran out before the work was done: what was done is kept, the same command goes on."""

    def __init__(self, limit: float | None, kept: str, again: str, *, unfinished: str = "") -> None:
        where = f" {unfinished}" if unfinished else ""
        super().__init__(
            f"stopped at the cost limit of {limit} USD{where}; {kept}: raise --max-cost-usd and {again} to go on"
        )


async def run_in_lanes(
    items: Sequence[Any],
    work: Callable[[Any], Any],
    concurrency: int,
    budget: Budget,
) -> tuple[list[Any], bool]:
    """`work` on each item, `concurrency` at a time, none started once the budget is exhausted; the results in
    order (None for items not started) and whether the budget stopped it."""
    results: list[Any] = [None] * len(items)
    queue = list(enumerate(items))
    stopped = False

    async def lane() -> None:
        nonlocal stopped
        while queue:
            if budget.exhausted():
                stopped = True
                return
            index, item = queue.pop(0)
            results[index] = await work(item)

    try:
        async with asyncio.TaskGroup() as lanes:
            for _ in range(max(1, concurrency)):
                lanes.create_task(lane())
    except BaseExceptionGroup as failed:
        raise first_failure(failed) from None
    return results, stopped


def first_failure(group: BaseExceptionGroup) -> BaseException:
    """The first lane's failure, as it was raised, with a note naming each other lane's different failure."""
    leaves: list[BaseException] = []

    def collect(error: BaseException) -> None:
        if isinstance(error, BaseExceptionGroup):
            for inner in error.exceptions:
                collect(inner)
        else:
            leaves.append(error)

    collect(group)
    first, *others = leaves
    seen = {(type(first), str(first))}
    for other in others:
        if (type(other), str(other)) not in seen:
            seen.add((type(other), str(other)))
            first.add_note(f"another lane failed too: {type(other).__name__}: {other}")
    return first
