"""How far `graph.run --estimate` is from what runs then count: scripted runs of 6, 30 and 120 samples.

    python scripts/bench_estimate.py                 # the demo corpus in the embedded database
    python scripts/bench_estimate.py --sizes 6 30

A first run of 6 samples is the profile `--like` scales. For each size, the estimate is made (from the
paper's funnel and from that run), then a run of that size with another seed counts its calls and
tokens. Printed per size and figure: the likely value, its range, what the run counted, the ratio
counted / likely, and whether the count fell inside the range. The scripted model accepts nearly every
draft and counts tokens as characters / 4, so the paper's profile, built for a real model's funnel,
is expected to overshoot it; `--like` is the estimate for a model whose behaviour a run has shown.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import Any

import repo_root  # noqa: F401  (tests.support on the path)

from graph.config.cli import run_async
from graph.config.settings import resolve_settings
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING
from graph.planning.options import RunOptions
from graph.running.estimate import estimate, mean_chunk_tokens
from graph.services import ensure_demo, open_corpus
from graph.store.database import database_url
from tests.support.commands import run_cli

SCRIPTED = "offline:plausible"
FIGURES = ("calls", "input_tokens", "output_tokens")


def run(runs: Path, run_id: str, count: int, random_seed: int) -> dict[str, Any]:
    result = run_cli(
        "graph.run", "--demo", "--count", str(count), "--seed", str(random_seed), "--llm", SCRIPTED,
        "--concurrency", "4", "--dedup-threshold", "0", "--runs-dir", str(runs), "--run-id", run_id,
    )  # fmt: skip
    if result.returncode:
        raise SystemExit(result.stderr)
    return json.loads((runs / run_id / "run.json").read_text())["funnel"]


def counted(funnel: dict[str, Any]) -> dict[str, float]:
    roles = funnel["llm"]["per_role"].values()
    return {figure: float(sum(role[figure] for role in roles)) for figure in FIGURES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 30, 120])
    args = parser.parse_args()
    settings = resolve_settings({"collection": DEMO_COLLECTION, "embedding": DEMO_EMBEDDING, "llm": SCRIPTED})

    async def chunk_tokens() -> float:
        url = database_url(settings)
        ensure_demo(url)
        corpus = await open_corpus(settings, url)
        try:
            return await mean_chunk_tokens(corpus, settings.min_chunk_chars)
        finally:
            await corpus.close()

    tokens = run_async(chunk_tokens())
    with tempfile.TemporaryDirectory() as folder:
        runs = Path(folder)
        like = run(runs, "like", 6, random_seed=1)
        print(f"profile run: 6 samples, {like['samples_started']} started; mean chunk {tokens:.0f} tokens")
        print(f"{'size':>5} {'profile':<8}{'figure':<15}{'likely':>12}{'range':>26}{'counted':>12}{'ratio':>8}  inside")
        for size in args.sizes:
            options = RunOptions(count=size, random_seed=100 + size, dedup_threshold=0)
            estimates = {
                "paper": estimate(options, settings, tokens, concurrency=4),
                "like": estimate(options, settings, tokens, concurrency=4, like=like),
            }
            actual = counted(run(runs, f"size-{size}", size, random_seed=100 + size))
            for name, figures in estimates.items():
                low, high = figures["range"]
                for figure in FIGURES:
                    likely = figures["total"][figure]
                    inside = likely * low <= actual[figure] <= likely * high
                    shown = f"[{likely * low:,.0f}, {likely * high:,.0f}]"
                    print(
                        f"{size:>5} {name:<8}{figure:<15}{likely:>12,.0f}{shown:>26}{actual[figure]:>12,.0f}"
                        f"{actual[figure] / likely:>8.2f}  {'yes' if inside else 'no'}"
                    )


if __name__ == "__main__":
    main()
