"""What LangGraph, LangChain and the checkpoints cost per sample before any node does its work: the floor
under figure (d) of `bench_run.py`.

    python scripts/bench_floor.py
    python scripts/bench_floor.py --repeat 5 --calls 18

Figures, CPU of this process, each the median of `--repeat` rounds:

(1) a graph of the sample's shape whose nodes do nothing: the accepted path's 11 nodes in order, over
    the sample state, each adding one entry to `llm_calls` and naming the next node in the `Command` it
    returns (the last one's edge to the end is fixed), as the run form of the sample graph routes, without
    a route's own work; per sample
    (a) without a checkpointer,
    (b) with a checkpointer that keeps nothing,
    (c) with triad's checkpointer in a scratch state database, every checkpoint written at once,
    (d) the same, holding the checkpoints of steps that ask no chat model as a run does;
(2) one structured model call answered by the scripted model: the scripted reply alone, through
    LangChain's chat-model interface, through triad's gateway;
(3) the floor per sample: (1d) plus `--calls` calls through the gateway (a sample's calls: (c) of
    `bench_run.py`), beside the target of figure (d).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command
from pydantic import BaseModel
from scratch_database import scratch_database

from graph.config.logs import configure_logging
from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.offline.scripted import ScriptedChatModel
from graph.services import open_state_database
from graph.store.checkpoints import PooledPostgresSaver
from graph.store.database import database_url
from nodes.registry import ASK_NO_CHAT_MODEL
from state.sample import SampleState

#: The nodes an accepted sample passes through, in order (START aside).
ACCEPTED_PATH = (
    "select_seed",
    "retrieve_neighbours",
    "propose_bridge",
    "generate_question",
    "lint_question",
    "judge_quality",
    "judge_sufficiency",
    "classify_temporal",
    "check_duplicate",
    "extract_contexts",
    "finalize_sample",
)
#: Figure (d)'s target, in milliseconds of CPU per sample.
TARGET_MS = 20.0


class Verdict(BaseModel):
    """A reply of a judge's size."""

    reasoning: str
    accepted: bool
    reason: str


class KeepsNothing(InMemorySaver):
    """A checkpointer that keeps nothing: what LangGraph spends on checkpoints before a saver writes one."""

    async def aget_tuple(self, config: Any) -> None:
        return None

    async def aput(self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any) -> Any:
        configurable = config["configurable"]
        return {"configurable": {**configurable, "checkpoint_id": checkpoint["id"]}}

    async def aput_writes(self, config: Any, writes: Any, task_id: str, task_path: str = "") -> None:
        return None


def idle_node(name: str, following: str) -> Callable[[SampleState], Awaitable[Command[str]]]:
    async def node(state: SampleState) -> Command[str]:
        return Command(update={"llm_calls": [{"node": name}]}, goto=following)

    node.__name__ = name
    return node


async def last_node(state: SampleState) -> dict[str, Any]:
    return {"llm_calls": [{"node": ACCEPTED_PATH[-1]}]}


def idle_graph() -> StateGraph:
    """The accepted path's nodes, doing nothing, each routing to the next; the last one's edge to the end is fixed."""
    builder = StateGraph(SampleState)
    for name, following in zip(ACCEPTED_PATH, ACCEPTED_PATH[1:], strict=False):
        builder.add_node(name, idle_node(name, following), destinations=(following,))  # type: ignore[call-overload]
    builder.add_node(ACCEPTED_PATH[-1], last_node)
    builder.add_edge(START, ACCEPTED_PATH[0])
    builder.add_edge(ACCEPTED_PATH[-1], END)
    return builder


async def cpu_ms(action: Callable[[], Awaitable[Any]], times: int, repeat: int) -> list[float]:
    """Milliseconds of this process's CPU per call of `action`, for each of `repeat` rounds of `times` calls."""
    for _ in range(max(1, times // 10)):  # warm-up
        await action()
    rounds = []
    for _ in range(repeat):
        started = time.process_time()
        for _ in range(times):
            await action()
        rounds.append((time.process_time() - started) / times * 1000)
    return rounds


def shown(rounds: list[float]) -> str:
    return f"{statistics.median(rounds):6.2f} ms (rounds: {', '.join(f'{r:.2f}' for r in rounds)})"


async def graph_figures(state_url: str, samples: int, repeat: int) -> dict[str, list[float]]:
    plain = idle_graph().compile()
    kept_nothing = idle_graph().compile(checkpointer=KeepsNothing())
    figures = {
        "(a) no checkpointer": await cpu_ms(lambda: plain.ainvoke({}), samples, repeat),
        "(b) a checkpointer that keeps nothing": await cpu_ms(
            lambda: kept_nothing.ainvoke({}, {"configurable": {"thread_id": uuid.uuid4().hex}}), samples, repeat
        ),
    }
    settings = resolve_settings({"state_url": state_url}, env={})
    async with open_state_database(settings, concurrency=2) as database:
        saver: PooledPostgresSaver = database.saver
        saved = idle_graph().compile(checkpointer=saver)

        async def one(quick: frozenset[str]) -> None:
            thread_id = uuid.uuid4().hex
            async with saver.holding(thread_id, quick):
                with saver.new_thread(thread_id):
                    await saved.ainvoke({}, {"configurable": {"thread_id": thread_id}}, durability="async")

        figures["(c) triad's checkpointer, every checkpoint at once"] = await cpu_ms(
            lambda: one(frozenset()), samples, repeat
        )
        figures["(d) triad's checkpointer as a run uses it"] = await cpu_ms(
            lambda: one(ASK_NO_CHAT_MODEL), samples, repeat
        )
    return figures


async def call_figures(calls: int, repeat: int) -> dict[str, list[float]]:
    reply: dict[str, Any] = {
        "reasoning": "The question names both settings and the chunks give each default. " * 3,
        "accepted": True,
        "reason": "answerable from the two chunks together",
    }
    model = ScriptedChatModel(script={"Verdict": [reply]})
    gateway = build_gateway(
        resolve_settings({"llm_cache": False, "requests_per_second": 100_000}, env={}),
        models={"generator": model, "validator": model, "extractor": model},
    )
    # A prompt of a sample's mean size: some 1,500 tokens per call.
    messages = [SystemMessage("You judge questions. " * 60), HumanMessage("A chunk of the documents. " * 180)]
    return {
        "the scripted reply alone": await cpu_ms(
            lambda: model._agenerate(messages, script_key="Verdict"), calls, repeat
        ),
        "through LangChain's chat-model interface": await cpu_ms(
            lambda: model.ainvoke(messages, script_key="Verdict"), calls, repeat
        ),
        "through triad's gateway (structured, validated, accounted)": await cpu_ms(
            lambda: gateway.ask("validator", Verdict, messages, node="judge_quality"), calls, repeat
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="rounds per figure (default 3); each figure their median")
    parser.add_argument("--samples", type=int, default=200, help="samples per round of (1) (default 200)")
    parser.add_argument(
        "--calls", type=int, default=18, help="model calls per sample for (3) (default 18: a started sample's)"
    )
    args = parser.parse_args()
    configure_logging(level="error")
    with scratch_database(database_url(resolve_settings({})), "triad_floor") as state_url:
        graphs = asyncio.run(graph_figures(state_url, args.samples, args.repeat))
    print(f"(1) a sample's {len(ACCEPTED_PATH)} steps with nodes that do nothing, CPU per sample")
    for name, rounds in graphs.items():
        print(f"    {name:<60}{shown(rounds)}")
    calls = asyncio.run(call_figures(1000, args.repeat))
    print("(2) one structured model call, CPU per call")
    for name, rounds in calls.items():
        print(f"    {name:<60}{shown(rounds)}")
    floor = statistics.median(graphs["(d) triad's checkpointer as a run uses it"])
    per_call = statistics.median(calls["through triad's gateway (structured, validated, accounted)"])
    print(
        f"(3) the floor per sample: {floor:.1f} ms + {args.calls} calls x {per_call:.2f} ms = "
        f"{floor + args.calls * per_call:.1f} ms of figure (d)'s target of {TARGET_MS:.0f} ms, before any node's work"
    )


if __name__ == "__main__":
    main()
