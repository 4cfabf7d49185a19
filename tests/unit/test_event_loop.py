"""Commands run their async work on uvloop when it is installed, on asyncio's loop otherwise."""

from __future__ import annotations

import asyncio
import builtins
from typing import Any

import pytest

from graph.config.cli import run_async


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
