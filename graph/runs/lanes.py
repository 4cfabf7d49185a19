"""Work on a list of items a few at a time, within a budget."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any


async def run_in_lanes(
    items: Sequence[Any],
    work: Callable[[Any], Any],
    concurrency: int,
    over_budget: Callable[[], bool],
) -> tuple[list[Any], bool]:
    """`work` on each item, `concurrency` at a time, none started once `over_budget()`; the results in order
    (None for items not started) and whether the budget stopped it."""
    results: list[Any] = [None] * len(items)
    queue = list(enumerate(items))
    stopped = False

    async def lane() -> None:
        nonlocal stopped
        while queue:
            if over_budget():
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
