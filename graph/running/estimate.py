"""The cost of a run before the spend: calls, tokens, USD and time per role, with no model call.

A profile says, per node, how many calls a started sample makes and how many tokens each takes in and
gives out, and how many samples are started per accepted one. Scaled by the run's quotas it gives
the likely figures; a range around them says how sure they are.

    the paper's profile   the TRIAD paper's funnel (of 703 drafts 135 failed the quality judge and 97
                          the sufficiency check), the run's revisions, hops and k, the prompts' own sizes
                          and the collection's real chunk lengths; output sizes are typical replies.
                          Range: 0.6 to 1.6 times the likely value.
    --like RUN_ID         a finished run's own counts per node and its acceptance rate. Range: 1 +- 2 /
                          sqrt(the accepted samples it saw), at least +-20%.

Time: the calls at `--concurrency`, each taking the profile's seconds per call (3 s for a hosted model
by default), slowed to the requests and tokens per minute the quotas allow.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypedDict

from graph.config.errors import UserError
from graph.demo import DEMO_COLLECTION
from graph.folder.run_document import Funnel, load_run_document
from graph.llm.models import DEFAULT_PRICES, price_per_million
from graph.planning.options import RunOptions
from graph.services import ensure_demo, open_corpus
from graph.store.database import database_url
from nodes.question_types import SINGLE_HOP_TYPES
from nodes.registry import NODES
from nodes.run_context import Context
from state.sample import UNANSWERABLE
from state.usage import ROLES

#: The paper's funnel (SPEC section 8), per draft.
QUALITY_REJECTED, SUFFICIENCY_REJECTED = 135 / 703, 97 / 703
#: Bridge proposals per started multi-hop sample (restarts after a failed bridge search).
PROPOSALS_PER_SAMPLE = 1.3
#: Distractor candidates left per supporting chunk's neighbours once duplicates are gone.
DISTINCT_CANDIDATES = 0.8
#: A generated unanswerable draft the judge accepts.
UNANSWERABLE_ACCEPTED = 0.8
#: Seconds a hosted model takes per call, when no finished run says.
SECONDS_PER_CALL = 3.0
#: A rewrite in a query style its check refuses, when no finished run says: each costs a second rewrite.
RESTYLE_REFUSED = 0.2
CHARS_PER_TOKEN = 4


@dataclass
class NodeProfile:
    calls: float = 0.0
    """Per started sample."""
    input_tokens: float = 0.0
    """Per call."""
    output_tokens: float = 0.0
    thinking_tokens: float = 0.0
    seconds: float = SECONDS_PER_CALL


@dataclass
class Profile:
    nodes: dict[str, NodeProfile]
    started_per_accepted: float
    spread: tuple[float, float]
    """The range around the likely value, as factors."""
    source: str


def paper_profile(kind: str, options: RunOptions, chunk_tokens: float, context: Context) -> Profile:
    """One cell kind's profile from the paper's funnel, the run's options and the collection's chunk size."""
    overhead = {name: len(spec.prompt) / CHARS_PER_TOKEN for name, spec in NODES.items()}

    def node(name: str, calls: float, chunks: float) -> tuple[str, NodeProfile]:
        tokens = overhead[name] + chunks * chunk_tokens
        return name, NodeProfile(calls, tokens, NODES[name].output_tokens)

    revisions = options.max_revisions
    if kind == UNANSWERABLE:
        fail = 1 - UNANSWERABLE_ACCEPTED
        drafts = (1 - fail ** (revisions + 1)) / (1 - fail)
        nodes = dict(
            [
                node("generate_unanswerable", drafts, 1 + context.neighbours_n),
                node("judge_unanswerable", drafts, options.retrieval_k),
            ]
        )
        nodes.update(restyle_nodes(node, options, 1 - fail ** (revisions + 1), 0))
        return Profile(nodes, 1 / (1 - fail ** (revisions + 1)), (0.6, 1.6), "the paper's funnel")
    single = kind in SINGLE_HOP_TYPES
    hops = 1 if single else options.hops
    quality_rejected = QUALITY_REJECTED
    fail = quality_rejected + (0 if single else SUFFICIENCY_REJECTED)
    drafts = (1 - fail ** (revisions + 1)) / (1 - fail)
    accepted = 1 - fail ** (revisions + 1)
    tested_sets = 0 if single else hops if hops == 2 else 2 * hops
    candidates = context.distractors_k * hops * DISTINCT_CANDIDATES
    nodes = dict(
        [
            node("generate_question", 1, hops),
            node("revise_question", drafts - 1, hops),
            node("judge_quality", drafts, hops),
            node("classify_temporal", accepted, hops),
            node("extract_contexts", accepted * candidates, hops + 1),
        ]
    )
    if not single:
        nodes.update(
            [
                node("propose_bridge", PROPOSALS_PER_SAMPLE, 1 + context.neighbours_n),
                node("judge_sufficiency", drafts * (1 - quality_rejected) * tested_sets, max(1, hops - 1)),
            ]
        )
    nodes.update(restyle_nodes(node, options, accepted, hops))
    return Profile(nodes, 1 / accepted, (0.6, 1.6), "the paper's funnel")


def restyle_nodes(
    node: Callable[[str, float, float], tuple[str, NodeProfile]], options: RunOptions, accepted: float, chunks: int
) -> list[tuple[str, NodeProfile]]:
    """The rewrite in a query style and its check, for the accepted samples a style other than natural asks for."""
    if not options.query_styles:
        return []
    styled = accepted * (1 - options.query_styles.get("natural", 0.0)) * (1 + RESTYLE_REFUSED)
    return [node("restyle_question", styled, 0), node("check_restyle", styled, max(1, chunks))]


def run_profile(funnel: Funnel) -> Profile:
    """A finished run's own profile (its run.json funnel): every kind of sample alike."""
    started, accepted = funnel["samples_started"], funnel["accepted"]
    if not accepted:
        raise ValueError("the run accepted no sample")
    nodes = {}
    for name, totals in funnel["llm"]["per_node"].items():
        calls = totals["calls"]
        if calls:
            nodes[name] = NodeProfile(
                calls / started,
                totals["input_tokens"] / calls,
                totals["output_tokens"] / calls,
                totals.get("thinking_tokens", 0) / calls,
                totals.get("seconds", calls * SECONDS_PER_CALL) / calls,
            )
    half = max(0.2, 2 / math.sqrt(accepted))
    return Profile(nodes, started / accepted, (max(0.05, 1 - half), 1 + half), f"a finished run ({accepted} accepted)")


class Estimate(TypedDict):
    """A run's expected calls, tokens and USD per role and in all, with the factors of their likely range."""

    profile: str
    """What the figures scale: the paper's funnel, or a finished run's."""
    range: list[float]
    """[low, high]: each figure times these is its likely range."""
    roles: dict[str, dict[str, float]]
    total: dict[str, float]
    minutes: float


def estimate(
    options: RunOptions,
    settings: Any,
    chunk_tokens: float,
    *,
    concurrency: int = 1,
    like: Funnel | None = None,
) -> Estimate:
    """The run's expected calls, tokens, USD and time, per role and in all, each likely with a low and a high."""
    context = options.context()
    shared = run_profile(like) if like is not None else None
    empty = {"calls": 0.0, "input_tokens": 0.0, "output_tokens": 0.0, "thinking_tokens": 0.0, "usd": 0.0}
    roles: dict[str, dict[str, float]] = {role: dict(empty) for role in ROLES}
    seconds = 0.0
    spread = (1.0, 1.0)
    for cell in options.cells():
        profile = shared or paper_profile(cell.question_type, options, chunk_tokens, context)
        spread = profile.spread
        started = cell.quota * profile.started_per_accepted
        for name, node in profile.nodes.items():
            spec = NODES.get(name)  # a finished run's funnel may name nodes this version does not have
            role = spec.role if spec is not None and spec.role else "generator"
            calls = started * node.calls
            figures = roles[role]
            figures["calls"] += calls
            figures["input_tokens"] += calls * node.input_tokens
            figures["output_tokens"] += calls * node.output_tokens
            figures["thinking_tokens"] += calls * node.thinking_tokens
            price = price_per_million(settings.model_for(role), {**DEFAULT_PRICES, **settings.prices})
            figures["usd"] += calls * price.cost(int(node.input_tokens), int(node.output_tokens + node.thinking_tokens))
            seconds += calls * node.seconds
    total = {key: sum(figures[key] for figures in roles.values()) for key in roles["generator"]}
    minutes = wall_minutes(total, seconds, concurrency, settings)
    low, high = spread
    return Estimate(
        profile=shared.source if shared else "the paper's funnel",
        range=[low, high],
        roles=roles,
        total=total,
        minutes=minutes,
    )


def wall_minutes(total: Mapping[str, float], seconds: float, concurrency: int, settings: Any) -> float:
    """Minutes the calls take at `concurrency`, or longer where the per-minute quotas hold them back."""
    minutes = seconds / max(1, concurrency) / 60
    if settings.requests_per_minute:
        minutes = max(minutes, total["calls"] / settings.requests_per_minute)
    if settings.tokens_per_minute:
        minutes = max(minutes, total["input_tokens"] / settings.tokens_per_minute)
    return minutes


async def mean_chunk_tokens(corpus: Any, min_chars: int, random_seed: int = 0, size: int = 200) -> float:
    """The mean length in tokens of up to `size` of the collection's usable chunks (at least `min_chars` long),
    drawn at random."""
    ids = await corpus.sample_ids(size, min_chars=min_chars, rng=random.Random(random_seed))
    chunks = await corpus.get(ids)
    if not chunks:
        return 0.0
    return sum(len(chunk.text) for chunk in chunks) / len(chunks) / CHARS_PER_TOKEN


def estimate_lines(figures: Estimate) -> list[str]:
    """The estimate as the terminal shows it: per role and in all, likely [low, high]."""
    low, high = figures["range"]

    def shown(value: float, digits: int = 0) -> str:
        return f"{value:,.{digits}f} [{value * low:,.{digits}f}, {value * high:,.{digits}f}]"

    lines = [f"estimate from {figures['profile']} (likely [low, high]); no model was called", ""]
    lines.append(f"{'role':<11}{'calls':>28}{'input tokens':>34}{'output tokens':>34}{'USD':>26}")
    for role, values in [*figures["roles"].items(), ("total", figures["total"])]:
        thinking = values["thinking_tokens"]
        output = shown(values["output_tokens"] + thinking)
        lines.append(
            f"{role:<11}{shown(values['calls']):>28}{shown(values['input_tokens']):>34}{output:>34}"
            f"{shown(values['usd'], 4):>26}"
        )
    minutes = figures["minutes"]
    lines.append("")
    lines.append(f"time: about {minutes:,.0f} minutes [{minutes * low:,.0f}, {minutes * high:,.0f}]")
    return lines


async def estimate_run(request: Any, settings: Any, like: str | None) -> list[str]:
    """`graph.run --estimate`: the request's plan on its collection, from the paper's profile or a finished run's."""
    funnel = None
    if like is not None:
        path = settings.runs_dir / like / "run.json"
        try:
            funnel = load_run_document(path)["funnel"]
        except (OSError, ValueError, KeyError):
            raise UserError(f"no finished run {like!r} in {settings.runs_dir} to estimate from; check --like") from None
        if not funnel.get("accepted"):
            raise UserError(f"run {like!r} accepted no sample: it has nothing to scale; pick another --like")
    url = await asyncio.to_thread(database_url, settings)
    if settings.collection == DEMO_COLLECTION:
        await asyncio.to_thread(ensure_demo, url)
    corpus = await open_corpus(settings, url)
    try:
        chunk_tokens = await mean_chunk_tokens(
            corpus, settings.min_chunk_chars, random_seed=request.options.random_seed or 0
        )
    finally:
        await corpus.close()
    figures = estimate(request.options, settings, chunk_tokens, concurrency=request.concurrency, like=funnel)
    return estimate_lines(figures)
