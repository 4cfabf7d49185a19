"""Per-minute quotas and prompt prefixes: how close a run gets to its provider's limits, and what it repeats.

    python scripts/bench_limits.py                                   # the two settings below, demo corpus
    python scripts/bench_limits.py --count 4 --setting rpm=20 --setting tpm=20000
    python scripts/bench_limits.py --database-url postgresql://... --collection my_docs

Each setting runs `python -m graph.run --count N --concurrency 16` with the default (Gemini) models
against the local Gemini stub (200 ms per call), which enforces the same per-model limit and answers
429 past it, while triad keeps to it (`--requests-per-minute` or `--tokens-per-minute`). Figures,
for the model the run uses most (the extractor's):

(a) steady-state use of the binding limit: requests (or prompt tokens) the stub admitted in each
    sliding minute after the first and before the last, as a fraction of the limit (mean and lowest),
    and 429s answered;
(b) time to N accepted samples against the limit's floor (calls or tokens needed / limit per minute);
    the first minute's quota is there at once, so a run can beat the floor;
(c) prompt prefixes: of each sample's prompt characters, the share its calls repeat from an earlier
    call of the same sample and role (what a provider's prefix cache can serve), per role, from the
    first setting's run recorded with `--record-llm`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from nodes.run_context import DEFAULT_MODELS  # noqa: E402
from tests.support.stubs.gemini import gemini_stub  # noqa: E402
from tests.support.stubs.server import StubState  # noqa: E402

#: Sliding minutes are sampled this often (seconds) for the steady-state figure.
STEP_S = 1.0


class TimedState(StubState):
    """A stub state that also keeps when each admitted request arrived, for which model, with how many tokens."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.arrivals: list[tuple[float, str, int]] = []

    def admit(self, model: str, tokens: int) -> bool:
        admitted = super().admit(model, tokens)
        if admitted:
            with self.lock:
                self.arrivals.append((time.monotonic(), model, tokens))
        return admitted


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10, help="accepted samples per run (default 10)")
    parser.add_argument(
        "--setting",
        action="append",
        metavar="rpm=N|tpm=N",
        help="a limit to run against (repeatable; default rpm=30 and tpm=40000)",
    )
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per stub call (default 0.2)")
    parser.add_argument(
        "--database-url", help="server of the collection and the runs (default: the embedded one, demo corpus)"
    )
    parser.add_argument("--collection", help="collection to run on (default: the demo corpus)")
    return parser.parse_args(argv)


def run(args: argparse.Namespace, kind: str, limit: float, record: Path, work: Path) -> dict[str, Any]:
    """One run against a stub enforcing `limit` per model; what the stub saw and the run reported."""
    state = TimedState(latency_s=args.latency, limits=(int(limit), None) if kind == "rpm" else (None, int(limit)))
    flag = "--requests-per-minute" if kind == "rpm" else "--tokens-per-minute"
    run_id = f"limits-{kind}-{int(limit)}-{int(time.time())}"  # a new run each time, in whichever state database
    with gemini_stub(state) as url:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRIAD_")}
        env.update({"GOOGLE_API_KEY": "bench-key", "TRIAD_LLM_BASE_URL": url, "TRIAD_RUNS_DIR": str(work)})
        if args.database_url:  # the run's state on the collection's server, in triad's schema
            env["TRIAD_DATABASE_URL"] = env["TRIAD_STATE_URL"] = args.database_url
        source = ["--collection", args.collection] if args.collection else ["--demo"]
        command = [
            sys.executable, "-m", "graph.run", *source, "--count", str(args.count), "--concurrency", "16",
            "--dedup-threshold", "0", "--no-llm-cache", "--seed", "5", "--run-id", run_id, flag, str(limit),
            "--record-llm", str(record),
        ]  # fmt: skip
        started = time.monotonic()
        result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True)
        seconds = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"the run failed:\n{result.stderr}")
    document = json.loads((work / run_id / "run.json").read_text())
    return {"state": state, "seconds": seconds, "document": document}


def steady_use(arrivals: list[tuple[float, int]], kind: str, limit: float) -> tuple[float, float] | None:
    """Mean and lowest use of the limit over the sliding minutes between the first minute (whose quota is
    there at once) and the last (where the run drains and asks less); None for a run too short."""
    if not arrivals:
        return None
    first, last = arrivals[0][0], arrivals[-1][0]
    uses = []
    start = first + 60.0
    while start + 60.0 <= last - 60.0:
        inside = [tokens for at, tokens in arrivals if start <= at < start + 60.0]
        uses.append((len(inside) if kind == "rpm" else sum(inside)) / limit)
        start += STEP_S
    return (sum(uses) / len(uses), min(uses)) if uses else None


def prefix_shares(record: Path) -> dict[str, float]:
    """Per role: repeated prefix characters / prompt characters, comparing calls of one sample and role."""
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    shared: dict[str, int] = defaultdict(int)
    total: dict[str, int] = defaultdict(int)
    for line in record.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        prompt = "".join(str(m.get("content", "")) for m in entry["messages"])
        key = (str(entry.get("thread_id")), entry["role"])
        longest = max((len(os.path.commonprefix([prompt, earlier])) for earlier in seen[key]), default=0)
        seen[key].append(prompt)
        shared[entry["role"]] += longest
        total[entry["role"]] += len(prompt)
    shares = {role: shared[role] / total[role] for role in total if total[role]}
    shares["all"] = sum(shared.values()) / max(1, sum(total.values()))
    return shares


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    settings = args.setting or ["rpm=30", "tpm=40000"]
    extractor_model = DEFAULT_MODELS["extractor"].partition(":")[2]
    with tempfile.TemporaryDirectory(prefix="triad-bench-limits-") as folder:
        work = Path(folder)
        first_record: Path | None = None
        print(f"{args.count} accepted samples, concurrency 16, stub latency {args.latency} s, model {extractor_model}")
        for setting in settings:
            kind, _, value = setting.partition("=")
            if kind not in ("rpm", "tpm") or not value.replace(".", "", 1).isdigit():
                raise SystemExit(f"--setting {setting!r} is not rpm=N or tpm=N")
            limit = float(value)
            record = work / f"{kind}.jsonl"
            outcome = run(args, kind, limit, record, work)
            first_record = first_record or record
            state: TimedState = outcome["state"]
            arrivals = [(at, tokens) for at, model, tokens in state.arrivals if model == extractor_model]
            needed = len(arrivals) if kind == "rpm" else sum(tokens for _, tokens in arrivals)
            floor_min = needed / limit
            use = steady_use(arrivals, kind, limit)
            accepted = outcome["document"]["funnel"]["accepted"]
            print(f"\n{kind} = {limit:g} per minute per model")
            print("  (a) steady-state use of the limit: " + (
                f"mean {use[0]:.3f}, lowest {use[1]:.3f}" if use else "run shorter than three minutes, none"
            ) + f"; 429s answered: {state.refused}")  # fmt: skip
            print(
                f"  (b) {accepted} accepted in {outcome['seconds'] / 60:.2f} min; floor {floor_min:.2f} min "
                f"({needed} {'calls' if kind == 'rpm' else 'prompt tokens'} / {limit:g}), ratio "
                f"{outcome['seconds'] / 60 / floor_min:.2f}"
            )
        if first_record is not None:
            shares = prefix_shares(first_record)
            parts = ", ".join(f"{role} {share:.0%}" for role, share in shares.items() if role != "all")
            print(
                f"\n(c) prompt characters repeated from an earlier call of the same sample and role: "
                f"{shares['all']:.0%} ({parts})"
            )


if __name__ == "__main__":
    main()
