"""The sample graph: `build_graph()` wires nodes and routes; `compile_graph()` adds a checkpointer.

START -> select_seed -> retrieve_neighbours -> propose_bridge -> (match_bridge | restart | end_without_bridge -> END)
      -> generate_question -> lint_question -> judge_quality -> judge_sufficiency
      -> (revise_question -> lint_question ... | reject_sample -> END) -> classify_temporal
      -> check_duplicate -> extract_contexts -> [restyle_question -> check_restyle (-> restyle_question)]
      -> finalize_sample -> END

A generated unanswerable sample leaves the bridge search out:
      retrieve_neighbours -> generate_unanswerable -> lint_question -> judge_unanswerable
      -> (generate_unanswerable -> lint_question ...) -> check_duplicate -> [restyle_question -> check_restyle]
      -> finalize_sample -> END

A sample with a query style other than `natural` passes through the bracketed nodes: its accepted question is
rewritten in that style and checked, once more after a refusal, then kept as validated.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.channels.last_value import LastValue
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime
from langgraph.types import Command

from nodes.common import Update
from nodes.ports import Ports
from nodes.registry import FIRST_NODE, NODE_SPECS
from nodes.run_context import Context
from state.sample import SampleInput, SampleOutput, SampleState

#: The sample graph, typed by its state, the run's context, a sample's input and its output.
SampleGraph = StateGraph[SampleState, Context, SampleInput, SampleOutput]
CompiledSampleGraph = CompiledStateGraph[SampleState, Context, SampleInput, SampleOutput]

PortsFactory = Callable[[Context], Awaitable[Ports]]


def with_ports(node: Callable[..., Awaitable[Update]], factory: PortsFactory) -> Callable[..., Awaitable[Update]]:
    """The node, given ports from `factory` when the run's context brings none (LangGraph Studio)."""

    @functools.wraps(node)
    async def wrapped(state: SampleState, runtime: Runtime[Context]) -> Update:
        if runtime.context.ports is None:
            ports = await factory(runtime.context)
            runtime = runtime.override(context=replace(runtime.context, ports=ports))
        return await node(state, runtime)

    return wrapped


def on_the_event_loop(route: Callable[..., str]) -> Callable[..., Awaitable[str]]:
    """`route` as a coroutine function, which LangGraph awaits where it is.

    In an async run LangGraph hands a plain function to a worker thread, and a route is a few lookups
    in the state: the hop costs more than the route, and with many samples in flight the thread also
    waits for the interpreter lock. The route's return annotation still names the graph's edges.
    """

    @functools.wraps(route)  # its signature too: LangGraph passes the runtime to routes that take one
    async def routed(*args: Any, **kwargs: Any) -> str:
        return route(*args, **kwargs)

    return routed


@dataclass(frozen=True)
class StateUpdates:
    """How the sample state takes a node's update, as its LangGraph channels do: a list with a reducer grows
    through it (and starts empty), any other key of the state is replaced, a key outside it is dropped."""

    keys: frozenset[str]
    input_keys: frozenset[str]
    reducers: Mapping[str, Callable[[Any, Any], Any]]

    @classmethod
    def of(cls, builder: SampleGraph) -> StateUpdates:
        """From the builder's channels: each key holds a value an update replaces or a list that grows through its
        reducer; a channel of any other kind is a `TypeError` when the graph is built."""
        reducers = {}
        for key, channel in builder.channels.items():
            if isinstance(channel, BinaryOperatorAggregate) and channel.value == []:
                reducers[key] = channel.operator
            elif not isinstance(channel, LastValue):
                raise TypeError(
                    f"state key {key!r} has a {type(channel).__name__} channel, which StateUpdates cannot apply"
                )
        return cls(frozenset(builder.channels), SampleInput.__required_keys__ | SampleInput.__optional_keys__, reducers)

    def started(self, sample: Mapping[str, Any]) -> dict[str, Any]:
        """The state a new thread holds after its input `sample`."""
        state: dict[str, Any] = {key: [] for key in self.reducers}
        return self.applied(state, {key: value for key, value in sample.items() if key in self.input_keys})

    def applied(self, state: Mapping[str, Any], update: Mapping[str, Any]) -> dict[str, Any]:
        """`state` after `update`, a new mapping (`state` is left as it was)."""
        after = dict(state)
        for key, value in update.items():
            if key not in self.keys:
                continue
            reducer = self.reducers.get(key)
            after[key] = reducer(after[key], value) if reducer is not None and key in after else value
        return after


def routed_by(
    node: Callable[..., Awaitable[Update]], route: Callable[..., str], updates: StateUpdates
) -> Callable[..., Awaitable[Command[str]]]:
    """The node, returning its update together with where `route` sends the sample after it (a `Command`).

    `route` reads the state as LangGraph would hand it to a conditional edge: the node's input with the
    update applied (`updates`). The checkpoints are those the edge writes: the next node is triggered by
    the same channel.
    """
    parameters = list(inspect.signature(route).parameters)
    if parameters[1:] not in ([], ["runtime"]):
        raise TypeError(
            f"{route.__name__} takes {parameters}; a route takes the state and, if it needs it, the runtime"
        )
    takes_runtime = bool(parameters[1:])

    async def decided(state: SampleState, runtime: Runtime[Context]) -> Command[str]:
        update = await node(state, runtime) or {}
        after = updates.applied(state, update)
        goto = route(after, runtime) if takes_runtime else route(after)
        return Command(update=update, goto=goto)

    decided.__name__ = decided.__qualname__ = node.__name__
    decided.__doc__ = node.__doc__
    return decided


def route_targets(route: Callable[..., str]) -> tuple[str, ...]:
    """The nodes (and END) `route` can send a sample to, from its return annotation."""
    return typing.get_args(typing.get_type_hints(route)["return"])


def build_graph(ports: PortsFactory | None = None, *, editable: bool = True) -> SampleGraph:
    """The uncompiled sample graph (SPEC section 2); node names are SPEC's.

    `ports` builds the corpus, models and seed pool for runs whose context has none.

    `editable`: the routes are conditional edges, which LangGraph runs after their node on a copy of the
    state; a state edit made as a node (`update_state`: LangGraph Studio, replays with `--set`, refresh,
    calibration) runs that node's route again, so the edited thread goes where its new state leads. Not
    editable, each deciding node returns its route with its update: the same steps and checkpoints without
    the copy of the state each edge reads (docs/performance.md), but an edit routes nowhere and the thread
    would end there. Runs use that one; `SampleRunner.edit_state` edits through the editable one.
    """
    builder = StateGraph(SampleState, context_schema=Context, input_schema=SampleInput, output_schema=SampleOutput)
    updates = StateUpdates.of(builder)
    for spec in NODE_SPECS:
        node = with_ports(spec.function, ports) if ports else spec.function
        if spec.route is None or editable:
            builder.add_node(spec.name, node)
        else:
            builder.add_node(spec.name, routed_by(node, spec.route, updates), destinations=route_targets(spec.route))
    builder.add_edge(START, FIRST_NODE)
    for spec in NODE_SPECS:
        if spec.route is not None and editable:
            builder.add_conditional_edges(spec.name, on_the_event_loop(spec.route))
        elif spec.then is not None:
            builder.add_edge(spec.name, spec.then)
    return builder


def compile_graph(
    checkpointer: BaseCheckpointSaver | None = None, ports: PortsFactory | None = None, *, editable: bool = True
) -> CompiledSampleGraph:
    """The sample graph compiled with a checkpointer (one thread per sample); `editable` as in `build_graph`."""
    builder = build_graph(ports, editable=editable) if ports else default_graph(editable)
    return builder.compile(checkpointer=checkpointer, name="triad_sample")


@functools.cache
def default_graph(editable: bool = True) -> SampleGraph:
    """`build_graph(editable=editable)`, built once per process; each run compiles it anew."""
    return build_graph(editable=editable)


@functools.cache
def state_updates() -> StateUpdates:
    """How the sample graph's state takes updates (`StateUpdates`)."""
    return StateUpdates.of(default_graph(True))
