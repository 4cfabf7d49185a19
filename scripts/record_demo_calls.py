"""Record the demo's model calls: a scripted run over the demo corpus, every request kept.

    python scripts/record_demo_calls.py     # writes graph/demo/recorded_calls.jsonl

The scripted model is `offline:plausible`. `python -m graph.run --demo --count 6 --seed 7 --llm
recorded:graph/demo/recorded_calls.jsonl` then repeats the run offline, request for request.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from graph.config.cli import run_async
from graph.config.logs import configure_logging
from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.offline.plausible import plausible_model
from graph.run import build_parser
from graph.running.flags import run_request
from graph.running.job import run_job

OUTPUT = Path(__file__).resolve().parent.parent / "graph" / "demo" / "recorded_calls.jsonl"
RUN_ARGS = ["--demo", "--count", "6", "--seed", "7", "--no-llm-cache"]


def main() -> None:
    # No options; the parser answers --help instead of overwriting the committed file.
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    configure_logging(level="warning")
    OUTPUT.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as runs:
        args = build_parser().parse_args([*RUN_ARGS, "--record-llm", str(OUTPUT), "--runs-dir", runs])
        settings = resolve_settings(
            {"collection": "triad_demo", "embedding": "minilm", "runs_dir": runs, "llm_cache": False}
        )
        model = plausible_model()
        gateway = build_gateway(
            settings,
            models={"generator": model, "validator": model, "extractor": model},
            recording_path=OUTPUT,
            random_seed=7,
        )
        run_async(run_job(run_request(args, settings), settings, gateway))
        shutil.rmtree(runs, ignore_errors=True)
    print(f"recorded {len(OUTPUT.read_text().splitlines())} requests to {OUTPUT}")


if __name__ == "__main__":
    main()
