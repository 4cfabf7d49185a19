"""Throughput and overhead of whole runs: the real graph, scripted models with a fixed latency.

    python scripts/bench_run.py                  # 200 ms per call, concurrency 1, 4, 16, 64
    python scripts/bench_run.py --latency 0.1 --concurrency 1 8

Runs the full pipeline on the demo corpus in the embedded database (loaded on first use) with
`graph.scripted`'s plausible script; the model sleeps `--latency` seconds per call. Figures:

(a) overhead at concurrency 1 = wall time / ideal time, where the ideal is the time during which at
    least one model call was in flight (calls of one node overlap, so they count once);
(b) throughput at each concurrency as a fraction of the ideal: (samples x ideal seconds per sample
    measured at concurrency 1 / concurrency) / wall time;
(c) LLM calls and prompt tokens per accepted sample for the default pipeline and for a
    reference-like configuration (CARE with one call per candidate, sufficiency checks even after
    a quality reject);
(d) the time per sample with no model latency at all: what one process spends per sample besides
    waiting for the model, which bounds its throughput.
Rate limits are lifted so the figures measure triad, not the limiter. A short warm-up run comes first:
the first run of a process also pays one-time costs (imports LangChain makes on first use, the
first connections), printed separately.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from graph.llm import build_gateway
from graph.logs import configure_logging
from graph.run import build_parser, run_command
from graph.scripted import PLAUSIBLE_SCRIPT, ScriptedChatModel
from graph.settings import resolve_settings


def busy_seconds(spans: list[tuple[float, float]]) -> float:
    """Length of the union of the call intervals."""
    total, end = 0.0, float("-inf")
    for start, stop in sorted(spans):
        if start > end:
            total += stop - start
            end = stop
        elif stop > end:
            total += stop - end
            end = stop
    return total


def one_run(
    runs: Path, *, count: int, concurrency: int, latency: float, reference_like: bool = False
) -> dict[str, Any]:
    model = ScriptedChatModel(script=PLAUSIBLE_SCRIPT, latency_s=latency)
    flags = [
        "--demo",
        "--count",
        str(count),
        "--concurrency",
        str(concurrency),
        "--seed",
        "1",
        "--dedup-threshold",
        "0",
        "--runs-dir",
        str(runs),
        "--no-llm-cache",
    ]
    if reference_like:
        flags.append("--sufficiency-after-quality-reject")
    args = build_parser().parse_args(flags)
    args.collection, args.embedding = "triad_demo", "minilm"
    settings = resolve_settings(
        {
            "collection": "triad_demo",
            "runs_dir": runs,
            "llm_cache": False,
            "requests_per_second": 100_000,
            "max_concurrent_requests": 100_000,
        }
    )
    gateway = build_gateway(settings, models={"generator": model, "validator": model, "extractor": model}, seed=1)
    started = time.monotonic()
    _, document = asyncio.run(run_command(args, settings, gateway))
    wall = time.monotonic() - started
    funnel = document["funnel"]
    prompt_tokens = sum(role["input_tokens"] for role in funnel["llm"]["per_role"].values())
    return {
        "wall": wall,
        "busy": busy_seconds(model.spans),
        "started": funnel["samples_started"],
        "accepted": funnel["accepted"],
        "calls": funnel["llm"]["calls"],
        "prompt_tokens": prompt_tokens,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model call (default 0.2)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--count", type=int, default=12, help="accepted samples per run at concurrency 1")
    args = parser.parse_args()
    configure_logging(level="error")
    with tempfile.TemporaryDirectory(prefix="triad-bench-") as folder:
        runs = Path(folder)
        # The first run of a process also pays its one-time costs (imports that LangChain makes on first
        # use, the first connections); a short run takes them so the figures below are per sample.
        warm_up = one_run(runs, count=2, concurrency=1, latency=0.0)
        print(f"\nfirst run in this process (2 samples, no latency): {warm_up['wall']:.1f} s, one-time costs included")
        base = one_run(runs, count=args.count, concurrency=1, latency=args.latency)
        per_sample = base["busy"] / base["started"]
        print(f"latency {args.latency * 1000:.0f} ms per call; ideal {per_sample:.2f} s per sample (calls in flight)")
        overhead = base["wall"] / base["busy"]
        print(f"(a) overhead at concurrency 1: wall {base['wall']:.1f} s / ideal {base['busy']:.1f} s = {overhead:.3f}")
        print("(b) throughput as a fraction of the ideal")
        for concurrency in args.concurrency:
            count = max(args.count, 4 * concurrency)
            result = base
            if concurrency > 1:
                result = one_run(runs, count=count, concurrency=concurrency, latency=args.latency)
            ideal = result["started"] * per_sample / concurrency
            print(
                f"    concurrency {concurrency:>3}: {result['started']:>4} samples in {result['wall']:6.1f} s, "
                f"ideal {ideal:6.1f} s -> {ideal / result['wall']:.2f}"
            )
        reference = one_run(runs, count=args.count, concurrency=1, latency=args.latency, reference_like=True)
        print("(c) per accepted sample          calls   prompt tokens")
        for name, result in (("default", base), ("reference-like", reference)):
            calls, tokens = result["calls"] / result["accepted"], result["prompt_tokens"] / result["accepted"]
            print(f"    {name:<24}{calls:>8.1f}{tokens:>16.0f}")
        bare = one_run(runs, count=args.count, concurrency=1, latency=0.0)
        print(
            f"(d) with no model latency at concurrency 1: {bare['wall'] / bare['started'] * 1000:.0f} ms per sample "
            f"(triad, LangGraph, LangChain, checkpoints, corpus queries and the scripted model itself); at most "
            f"{bare['started'] / bare['wall']:.1f} samples/s in one process, against an ideal of "
            f"{16 / per_sample:.1f} samples/s at concurrency 16"
        )


if __name__ == "__main__":
    main()
