"""A run freezes the objects of start-up for the garbage collector and releases them when it ends."""

from __future__ import annotations

import gc
import weakref

from graph.runner import start_up_heap_frozen


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def test_start_up_objects_stay_frozen_for_the_run_and_its_garbage_is_still_collected() -> None:
    gc.unfreeze()
    with start_up_heap_frozen():
        frozen = gc.get_freeze_count()
        assert frozen > 1000  # the modules, classes and functions loaded so far
        with start_up_heap_frozen():  # a second worker of the same process
            made_during_the_run = cycle()
        assert gc.get_freeze_count() >= frozen  # the inner one left them frozen
        gc.collect()
        assert made_during_the_run() is None
    assert gc.get_freeze_count() == 0
