"""The code's stated rules, checked on its source: who may write to the terminal, who reads the environment,
and that no failure is dropped unseen."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graph.cli import COMMANDS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("graph", "nodes", "state", "prompts")

#: The command layer: each command's module, the `triad` dispatcher, and the command-line helpers
#: (`graph.config.cli.tell`/`say` are the one voice services use; `graph.config.errors` turns a
#: `UserError` into its one line).
COMMAND_LAYER = {f"{module.replace('.', '/')}.py" for module, _ in COMMANDS.values()} | {
    "graph/cli.py",
    "graph/config/cli.py",
    "graph/config/errors.py",
}


def sources() -> list[tuple[str, ast.Module]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            found.append((name, ast.parse(path.read_text(encoding="utf-8"), name)))
    return found


SOURCES = sources()


def calls(tree: ast.Module, name: str) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


def test_only_the_command_layer_prints() -> None:
    printing = {name: calls(tree, "print") for name, tree in SOURCES if name not in COMMAND_LAYER}
    assert {name: lines for name, lines in printing.items() if lines} == {}
    assert any(calls(tree, "print") for name, tree in SOURCES if name in COMMAND_LAYER)  # the scan sees prints


def environment_reads(tree: ast.Module) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        attribute = isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "environb")
        if attribute and isinstance(node.value, ast.Name) and node.value.id == "os":
            lines.append(node.lineno)
        if isinstance(node, ast.ImportFrom) and node.module == "os":
            lines += [node.lineno for alias in node.names if alias.name in ("environ", "getenv")]
    return lines


def test_only_graph_config_reads_the_environment() -> None:
    reading = {name: environment_reads(tree) for name, tree in SOURCES if not name.startswith("graph/config/")}
    assert {name: lines for name, lines in reading.items() if lines} == {}
    assert environment_reads(dict(SOURCES)["graph/config/settings.py"])  # the scan sees a read


def silent_handlers(tree: ast.Module) -> list[int]:
    """Handlers of every exception (bare, Exception, BaseException) whose body neither raises nor calls anything:
    the failure is gone without a word."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ExceptHandler):
            continue
        broad = node.type is None or (
            isinstance(node.type, ast.Name) and node.type.id in ("Exception", "BaseException")
        )
        body = ast.Module(body=node.body, type_ignores=[])
        speaks = any(isinstance(inner, (ast.Raise, ast.Call)) for inner in ast.walk(body))
        if broad and not speaks:
            found.append(node.lineno)
    for node in ast.walk(tree):
        if isinstance(node, ast.withitem) and isinstance(node.context_expr, ast.Call):
            call = node.context_expr
            named = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if named == "suppress" and any(
                isinstance(a, ast.Name) and a.id in ("Exception", "BaseException") for a in call.args
            ):
                found.append(call.lineno)
    return found


#: Broad handlers that end in a stated value, each for a reason its comment gives.
DELIBERATE = {
    "graph/ingestion/pdf.py",  # a broken outline costs the sections, never the text
    "graph/store/embedded.py",  # a process that ended meanwhile: nothing stale to name
    "graph/running/outages.py",  # still away: the next try says so
}


@pytest.mark.parametrize(("name", "tree"), SOURCES, ids=[name for name, _ in SOURCES])
def test_no_failure_is_dropped_unseen(name: str, tree: ast.Module) -> None:
    assert bool(silent_handlers(tree)) == (name in DELIBERATE)  # an exemption that no longer applies goes too


def test_the_silent_handler_scan_sees_one() -> None:
    tree = ast.parse("try:\n    x()\nexcept Exception:\n    pass\nwith contextlib.suppress(Exception):\n    y()\n")
    assert silent_handlers(tree) == [3, 5]


def test_a_lane_failure_is_raised_with_the_other_lanes_failures_noted() -> None:
    import asyncio

    from graph.running.lanes import Budget, run_in_lanes

    async def work(item: int) -> int:  # no await before the failure: every lane fails before any is cancelled
        if item == 0:
            raise RuntimeError("refused credentials")
        if item == 1:
            raise ValueError("a bad reply")
        raise RuntimeError("refused credentials")  # the same failure again: noted once

    with pytest.raises(RuntimeError, match="refused credentials") as raised:
        asyncio.run(run_in_lanes([0, 1, 2], work, concurrency=3, budget=Budget(None, lambda: 0.0)))
    assert raised.value.__notes__ == ["another lane failed too: ValueError: a bad reply"]


@pytest.mark.parametrize("module", sorted(module for module, _ in COMMANDS.values()))
def test_every_command_runs_as_python_m(module: str) -> None:
    tree = dict(SOURCES)[f"{module.replace('.', '/')}.py"]
    guards = [
        node
        for node in tree.body
        if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test) and "__main__" in ast.unparse(node.test)
    ]
    assert guards and "main()" in ast.unparse(guards[-1].body[0])
