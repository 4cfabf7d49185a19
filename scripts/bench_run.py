"""Throughput and overhead of whole runs: the real graph, scripted models with a fixed latency.

    python scripts/bench_run.py                  # 200 ms per call, concurrency 1, 4, 16, 64
    python scripts/bench_run.py --latency 0.1 --concurrency 1 8
    python scripts/bench_run.py --repeat 3       # each figure the median of three runs, all three shown
    python scripts/bench_run.py --database-url postgresql://... --collection my_docs

Runs the full pipeline on the demo corpus in the embedded database (loaded on first use) with
`graph.llm.offline.plausible`'s plausible script; the model sleeps `--latency` seconds per call. Figures:

(a) overhead at concurrency 1 = wall time / ideal time, where the ideal is the time during which at
    least one model call was in flight (calls of one node overlap, so they count once); then the same
    from the first sample's start to the last one's end, without the run's start-up and end;
(b) throughput at each concurrency as a fraction of the ideal: (the run's samples' own time with a
    call in flight, summed, / concurrency) / wall time; with the mean number of samples in flight
    (a run's last samples, its quotas met exactly, cannot keep every lane busy, so runs at concurrency 2 and above ask
    for `--scale-count` accepted samples, by default a run of the paper's size) and the CPU this
    process and the rest of the machine used. Then the same fraction while every lane was busy:
    samples finished per second from the first moment all lanes had a sample to the moment the run's
    last samples began to drain it, times the run's ideal seconds per sample / concurrency (the whole-run
    figure also pays for the start, the drain and writing the run's files), and how long the drain
    lasted;
(c) LLM calls and prompt tokens per accepted sample for the default pipeline and for a
    reference-like configuration (CARE with one call per candidate, sufficiency checks even after
    a quality reject);
(d) the time per sample with no model latency at all: what one process spends per sample besides
    waiting for the model, which bounds its throughput, and the CPU behind it (this process and
    PostgreSQL).
Every run keeps its checkpoints in a fresh state database, created for the benchmark and dropped
after it.
Rate limits are lifted so the figures measure triad, not the limiter. A short warm-up run comes first:
the first run of a process also pays one-time costs (imports LangChain makes on first use, the
first connections), printed separately.

The figures' arithmetic is in `bench_figures.py` beside this script.
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import io
import os
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_figures import busy_lanes_rate, busy_seconds, mean_in_flight, samples_wall, spread, system_cpu_seconds
from pydantic import PrivateAttr
from scratch_database import scratch_database

import graph.running.runner
from graph.config.cli import run_async
from graph.config.logs import configure_logging
from graph.config.settings import resolve_settings
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING
from graph.llm.from_settings import build_gateway
from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from graph.llm.offline.scripted import ScriptedChatModel
from graph.run import build_parser
from graph.running.flags import run_request
from graph.running.job import run_job
from graph.running.runner import SampleResult, SampleRunner
from graph.store.database import database_url

#: Accepted samples per run at concurrency 2 and above: the paper's run, 100 per cell. Each sample
#: draws seeds no other sample of the run has used; the demo corpus (1,086 chunks) has enough for
#: this many (some 840 samples started), not for a thousand.
SCALE_COUNT = 600


#: The sample whose task is running: LangGraph's node tasks copy the context of the sample's run.
SAMPLE: contextvars.ContextVar[str] = contextvars.ContextVar("bench_sample", default="")


class CountingRunner(SampleRunner):
    """Notes when each sample starts and ends, for the mean number of samples in flight."""

    events: list[tuple[float, int]] = []

    async def run(self, spec: Any, thread_id: str, **kwargs: Any) -> SampleResult:
        self.events.append((time.monotonic(), 1))
        token = SAMPLE.set(thread_id)
        try:
            return await super().run(spec, thread_id, **kwargs)
        finally:
            SAMPLE.reset(token)
            self.events.append((time.monotonic(), -1))


class SampleTimedModel(ScriptedChatModel):
    """The scripted model, filing each call's span also under the sample that made it."""

    _by_sample: dict[str, list[tuple[float, float]]] = PrivateAttr(default_factory=lambda: defaultdict(list))

    @property
    def sample_spans(self) -> dict[str, list[tuple[float, float]]]:
        """(start, end) of every call, by the thread of the sample that made it."""
        return self._by_sample

    def _note_span(self, started: float, ended: float) -> None:
        super()._note_span(started, ended)
        self._by_sample[SAMPLE.get()].append((started, ended))


# run_job builds its own runner; this script is never imported by the package.
graph.running.runner.SampleRunner = CountingRunner  # type: ignore[misc]


@dataclass(frozen=True)
class Target:
    """Where the benchmark's runs read chunks and keep their state and files."""

    runs: Path
    state_url: str
    database_url: str | None
    """None: the embedded server."""
    collection: str


def one_run(
    target: Target, *, count: int, concurrency: int, latency: float, reference_like: bool = False
) -> dict[str, Any]:
    model = SampleTimedModel(script=PLAUSIBLE_SCRIPT, latency_s=latency)
    flags = [
        *(["--demo"] if target.collection == DEMO_COLLECTION else ["--collection", target.collection]),
        "--count",
        str(count),
        "--concurrency",
        str(concurrency),
        "--seed",
        "1",
        "--dedup-threshold",
        "0",
        "--runs-dir",
        str(target.runs),
        "--no-llm-cache",
    ]
    if reference_like:
        flags.append("--sufficiency-after-quality-reject")
    args = build_parser().parse_args(flags)
    settings = resolve_settings(
        {
            "collection": target.collection,
            "embedding": DEMO_EMBEDDING,
            "database_url": target.database_url,
            "state_url": target.state_url,
            "runs_dir": target.runs,
            "llm_cache": False,
            "requests_per_second": 100_000,
            "max_concurrent_requests": 100_000,
        }
    )
    gateway = build_gateway(
        settings, models={"generator": model, "validator": model, "extractor": model}, random_seed=1
    )
    CountingRunner.events = []
    machine_cpu, own_cpu, started = system_cpu_seconds(), time.process_time(), time.monotonic()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):  # each run's report
        _, document = run_async(run_job(run_request(args, settings), settings, gateway))
    wall = time.monotonic() - started
    own_cpu = time.process_time() - own_cpu
    machine_cpu = None if machine_cpu is None else (system_cpu_seconds() or 0.0) - machine_cpu
    funnel = document["funnel"]
    prompt_tokens = sum(role["input_tokens"] for role in funnel["llm"]["per_role"].values())
    return {
        "wall": wall,
        "busy": busy_seconds(model.spans),
        # Each sample's own time with a call in flight, summed: the ideal at any concurrency.
        "own_ideal": sum(busy_seconds(spans) for spans in model.sample_spans.values()),
        "started": funnel["samples_started"],
        "accepted": funnel["accepted"],
        "calls": funnel["llm"]["calls"],
        "prompt_tokens": prompt_tokens,
        "in_flight": mean_in_flight(CountingRunner.events, wall),
        "samples_wall": samples_wall(CountingRunner.events),
        "busy_lanes": busy_lanes_rate(CountingRunner.events, concurrency),
        "cpu": own_cpu,
        "other_cpu": None if machine_cpu is None else max(0.0, machine_cpu - own_cpu),
    }


def main() -> None:
    """Options, then each measurement in the order the module docstring lists them and its lines printed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model call (default 0.2)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument(
        "--count",
        type=int,
        default=48,
        help="accepted samples per run at concurrency 1 (default 48): a run's start-up and end, some 0.2 s, "
        "are shared by its samples, 1%% of a run of 12",
    )
    parser.add_argument("--database-url", help="the server of the collection and of the state (default: embedded)")
    parser.add_argument("--collection", default=DEMO_COLLECTION, help="default: the demo corpus, loaded on first use")
    parser.add_argument(
        "--scale-count",
        type=int,
        default=SCALE_COUNT,
        help=f"accepted samples per run at concurrency 2 and above (default {SCALE_COUNT}, the paper's 100 per "
        "cell): quotas are met exactly, so a run's last samples leave lanes idle for a few seconds, a smaller "
        "part of a longer run",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs per figure (default 1); with more, each figure is their median, followed by every run's value: "
        "on a shared machine single runs differ by several hundredths",
    )
    args = parser.parse_args()
    configure_logging(level="error")
    url = args.database_url or database_url(resolve_settings({}))
    with (
        tempfile.TemporaryDirectory(prefix="triad-bench-") as folder,
        scratch_database(url, "triad_bench") as state_database_url,
    ):
        target = Target(Path(folder), state_database_url, args.database_url, args.collection)

        def runs(**kwargs: Any) -> list[dict[str, Any]]:
            return [one_run(target, **kwargs) for _ in range(max(1, args.repeat))]

        # The first run of a process also pays its one-time costs (imports that LangChain makes on first
        # use, the first connections); a short run takes them so the figures below are per sample.
        warm_up = one_run(target, count=2, concurrency=1, latency=0.0)
        print(f"first run in this process (2 samples, no latency): {warm_up['wall']:.1f} s, one-time costs included")
        # Without latency first, while the state database is small: what one process spends per sample.
        bare = runs(count=args.count, concurrency=1, latency=0.0)
        base = runs(count=args.count, concurrency=1, latency=args.latency)
        reference = runs(count=args.count, concurrency=1, latency=args.latency, reference_like=True)
        per_sample = statistics.median(run["busy"] / run["started"] for run in base)
        print(f"latency {args.latency * 1000:.0f} ms per call; ideal {per_sample:.2f} s per sample (calls in flight)")
        overheads = [run["wall"] / run["busy"] for run in base]
        if len(base) == 1:
            print(
                f"(a) overhead at concurrency 1: wall {base[0]['wall']:.1f} s / ideal {base[0]['busy']:.1f} s "
                f"= {overheads[0]:.3f}"
            )
        else:
            print(f"(a) overhead at concurrency 1 (wall / ideal): {spread(overheads, '.3f')}")
        fixed = [(run["wall"] - run["samples_wall"]) * 1000 for run in base]
        print(
            f"    from the first sample's start to the last one's end: "
            f"{spread([run['samples_wall'] / run['busy'] for run in base], '.3f')}; the run's start-up and end: "
            f"{spread(fixed, '.0f')} ms"
        )
        print("(b) throughput as a fraction of the ideal")
        for concurrency in args.concurrency:
            results = base
            if concurrency > 1:
                results = runs(count=args.scale_count, concurrency=concurrency, latency=args.latency)
            fractions = [run["own_ideal"] / concurrency / run["wall"] for run in results]
            middle = results[sorted(range(len(results)), key=fractions.__getitem__)[len(results) // 2]]
            ideal = middle["own_ideal"] / concurrency
            print(
                f"    concurrency {concurrency:>3}: {middle['started']:>4} samples in {middle['wall']:6.1f} s, "
                f"ideal {ideal:6.1f} s -> {spread(fractions, '.2f')}; {middle['in_flight']:.1f} in flight on "
                f"average; this process busy {middle['cpu'] / middle['wall']:.0%} of the time{machine_share(middle)}"
            )
            full = [run for run in results if run["busy_lanes"] is not None]
            if full:
                rates = [run["busy_lanes"][0] for run in full]
                lane_fractions = [
                    rate * run["own_ideal"] / run["started"] / concurrency
                    for rate, run in zip(rates, full, strict=True)
                ]
                drains = [run["busy_lanes"][2] for run in full]
                drain = f"; then the drain, fewer samples than lanes: {spread(drains, '.1f')} s"
                print(
                    f"{'':<21}with every lane busy ({statistics.median(run['busy_lanes'][1] for run in full):.1f} s): "
                    f"{statistics.median(rates):.2f} samples/s -> {spread(lane_fractions, '.2f')} of the ideal"
                    + (drain if concurrency > 1 else "")
                )
        print("(c) per accepted sample          calls   prompt tokens")
        for name, results in (("default", base), ("reference-like", reference)):
            accepted = sum(run["accepted"] for run in results) or float("nan")  # nothing accepted: no figure
            calls = sum(run["calls"] for run in results) / accepted
            tokens = sum(run["prompt_tokens"] for run in results) / accepted
            print(f"    {name:<24}{calls:>8.1f}{tokens:>16.0f}")
        per_sample_ms = [run["wall"] / run["started"] * 1000 for run in bare]
        print(
            f"(d) with no model latency at concurrency 1: {spread(per_sample_ms, '.0f')} ms per sample (triad, "
            f"LangGraph, LangChain, checkpoints, corpus queries and the scripted model itself); at most "
            f"{1000 / statistics.median(per_sample_ms):.1f} samples/s in one process, against an ideal of "
            f"{16 / per_sample:.1f} samples/s at concurrency 16"
        )
        if all(run["other_cpu"] is not None for run in bare):
            own = [run["cpu"] / run["started"] * 1000 for run in bare]
            other = [run["other_cpu"] / run["started"] * 1000 for run in bare]
            print(
                f"    CPU per sample: {spread(own, '.1f')} ms in this process, {spread(other, '.0f')} ms in the rest "
                f"of the machine (PostgreSQL) on {os.cpu_count()} cores"
            )


def machine_share(result: dict[str, Any]) -> str:
    if result["other_cpu"] is None:
        return ""
    return f", PostgreSQL and the rest of the machine {result['other_cpu'] / result['wall']:.0%} of a core"


if __name__ == "__main__":
    main()
