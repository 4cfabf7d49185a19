"""Commands run their async work on uvloop when it is installed, on asyncio's loop otherwise, collecting garbage
less often while it runs."""

from __future__ import annotations

import asyncio
import builtins
import gc
from typing import Any

import pytest

from graph.config.cli import YOUNG_GENERATION, run_async


async def loop_module() -> str:
    await asyncio.sleep(0)
    return type(asyncio.get_running_loop()).__module__


def test_commands_run_on_uvloop() -> None:
    pytest.importorskip("uvloop")
    assert run_async(loop_module()).startswith("uvloop")


def test_without_uvloop_asyncios_loop_runs_them(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_uvloop(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "uvloop":
            raise ImportError("uvloop hidden by the test")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_uvloop)
    assert run_async(loop_module()).startswith("asyncio")


async def thresholds() -> tuple[int, int, int]:
    await asyncio.sleep(0)
    return gc.get_threshold()


@pytest.fixture
def restored_thresholds() -> Any:
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()


def test_the_young_generation_is_larger_while_a_command_runs_and_as_it_was_after(restored_thresholds: Any) -> None:
    gc.set_threshold(700, 10, 10)
    assert run_async(thresholds()) == (YOUNG_GENERATION, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_larger_generation_or_a_collector_turned_off_is_left_as_it_is(restored_thresholds: Any) -> None:
    gc.set_threshold(YOUNG_GENERATION * 2, 10, 10)
    assert run_async(thresholds()) == (YOUNG_GENERATION * 2, 10, 10)
    gc.set_threshold(700, 10, 10)
    gc.disable()
    assert run_async(thresholds()) == (700, 10, 10) and not gc.isenabled()
