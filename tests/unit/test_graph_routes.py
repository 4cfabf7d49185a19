"""The compiled sample graph draws every edge its routes name, and each run gets its own checkpointer."""

from __future__ import annotations

import typing

from langgraph.checkpoint.memory import InMemorySaver

from graph.builder import NODES, ROUTES, compile_graph


def test_every_route_names_its_edges_in_the_drawn_graph() -> None:
    edges = {(edge.source, edge.target) for edge in compile_graph().get_graph().edges}
    for source, route in ROUTES.items():
        targets = typing.get_args(typing.get_type_hints(route)["return"])
        assert {(source, target) for target in targets} <= edges, source


def test_the_drawn_graph_has_the_spec_node_names() -> None:
    drawn = set(compile_graph().get_graph().nodes) - {"__start__", "__end__"}
    assert drawn == set(NODES)
    assert "graph TD" in compile_graph().get_graph().draw_mermaid()


def test_each_run_compiles_the_graph_with_its_own_checkpointer() -> None:
    first, second = InMemorySaver(), InMemorySaver()
    assert compile_graph(first).checkpointer is first and compile_graph(second).checkpointer is second
