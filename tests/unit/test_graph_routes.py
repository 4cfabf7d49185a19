"""Routes run on the event loop, not in LangGraph's worker threads, and still name the graph's edges."""

from __future__ import annotations

import asyncio
import threading
import typing
from typing import Any, Literal, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime

from graph.builder import ROUTES, build_graph, compile_graph, on_the_event_loop


class Tiny(TypedDict, total=False):
    step: int


def threads_routes_run_in(wrap: Any) -> tuple[int, set[int]]:
    seen: set[int] = set()

    def route(state: Tiny, runtime: Runtime[None]) -> Literal["again", "__end__"]:
        seen.add(threading.get_ident())
        assert runtime is not None  # a route that takes the runtime is given it
        return "again" if state["step"] < 3 else END

    async def again(state: Tiny) -> Tiny:
        return {"step": state["step"] + 1}

    builder = StateGraph(Tiny)
    builder.add_node("again", again)
    builder.add_edge(START, "again")
    builder.add_conditional_edges("again", wrap(route))

    async def main() -> int:
        await builder.compile().ainvoke({"step": 0})
        return threading.get_ident()

    return asyncio.run(main()), seen


def test_a_wrapped_route_runs_on_the_loop_where_a_plain_one_goes_to_a_worker_thread() -> None:
    loop_thread, seen = threads_routes_run_in(on_the_event_loop)
    assert seen == {loop_thread}
    loop_thread, seen = threads_routes_run_in(lambda route: route)
    assert loop_thread not in seen  # what the wrapper spares: a thread hop per route


def test_every_route_still_names_its_edges() -> None:
    edges = {(edge.source, edge.target) for edge in compile_graph().get_graph().edges}
    for source, route in ROUTES.items():
        targets = typing.get_args(typing.get_type_hints(route)["return"])
        assert {(source, target) for target in targets} <= edges, source


def test_runs_share_the_built_graph_but_each_compiles_it_with_its_own_checkpointer() -> None:
    first, second = InMemorySaver(), InMemorySaver()
    one, other = compile_graph(first), compile_graph(second)
    assert one.checkpointer is first and other.checkpointer is second
    assert one.builder is other.builder  # built once per process
    assert set(one.get_graph().nodes) == set(build_graph().compile().get_graph().nodes)
