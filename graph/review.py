"""Review a run's samples in the browser; labels are kept in the state database.

    python -m graph.review RUN_ID                        # http://127.0.0.1:8765/ until Ctrl-C
    python -m graph.review RUN_ID --sample 20 --seed 1   # a review set of 20, spread over the cells, first
    python -m graph.review RUN_ID --reviewer bob --port 8766   # a second reviewer, at the same time
    python -m graph.review RUN_ID --summary              # the paper's human-validation table for the run
    python -m graph.review RUN_ID --export labels.jsonl  # every label as JSONL
    python -m graph.review RUN_ID --calibrate --validator-model google_genai:gemini-2.5-flash-lite
                                                         # other validators against the reviewers' labels

For an accepted sample a reviewer answers the paper's four criteria (answerable from the supporting
chunks, answer correct, multi-hop, unambiguous; keys 1-4) and may correct any context's relevance
label; for a generated unanswerable question, whether a user could ask it and whether no retrieved
chunk answers it (keys 1-2, shown apart from the paper's figures); for a rejected one, whether the
rejection was right. Every change is saved at once. Bound to
another address than 127.0.0.1 (`--host`), the app asks for the token its printed URL carries.

`--calibrate` judges the labelled samples again with each `--validator-model` (any provider, in
checkpointed threads: a repeated calibration makes no call) and scores every validator, the run's own
from the verdicts it recorded, against the reviewers: accuracy, Cohen's kappa, per quality dimension,
the share of its rejections people found right, calls and cost per sample. The table is printed, kept
in calibration.json and written into report.html.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import secrets
import sys
from pathlib import Path
from typing import Any

from graph.config.cli import (
    add_database_options,
    add_model_server_options,
    add_state_options,
    command_parser,
    run_async,
    settings_from_args,
)
from graph.config.errors import UserError, exit_on_user_error, writing
from graph.config.logs import configure_logging
from graph.config.settings import Settings
from graph.folder.files import check_run_id, write_atomically
from graph.reviewing.app import Review, build_app, check_port, is_loopback
from graph.reviewing.calibrate import calibrate
from graph.reviewing.calibration import format_calibration
from graph.reviewing.labels import SavedLabels
from graph.reviewing.samples import load_samples, review_set
from graph.reviewing.session import open_labels, refresh_report, run_store
from graph.reviewing.validation_table import format_summary, summarise
from graph.running.lanes import CostLimitReached
from state.record import SupportingChunk

DEFAULT_PORT = 8765


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.review", __doc__)
    parser.add_argument("run_id", help="the run to review (its folder under --runs-dir)")
    parser.add_argument("--sample", type=int, metavar="N", help="draw a review set of N samples, spread over the cells")
    parser.add_argument("--seed", type=int, default=0, help="seed of the review set's draw (default 0)")
    parser.add_argument("--reviewer", help="whose labels these are (default: the login name)")
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; others need the token)"
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    parser.add_argument("--summary", action="store_true", help="print the human-validation table and exit")
    parser.add_argument("--export", type=Path, metavar="FILE", help="write every label as JSONL and exit")
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs)")
    calibration = parser.add_argument_group("calibration")
    calibration.add_argument(
        "--calibrate", action="store_true", help="score validators against the reviewers' labels and exit"
    )
    calibration.add_argument(
        "--validator-model",
        action="append",
        default=[],
        dest="calibration_models",
        metavar="SPEC",
        help="a validator to judge the labelled samples again (repeatable), e.g. google_genai:gemini-2.5-flash-lite",
    )
    calibration.add_argument("--concurrency", type=int, default=1, help="samples judged at once (default 1)")
    add_model_server_options(calibration)
    calibration.add_argument("--requests-per-minute", type=float, help="requests per minute to each model")
    calibration.add_argument("--tokens-per-minute", type=float, help="prompt tokens per minute to each model")
    calibration.add_argument("--max-cost-usd", type=float, help="stop judging once this much is spent")
    add_database_options(parser)
    add_state_options(parser)
    return parser


async def _main(args: argparse.Namespace, settings: Settings) -> None:
    import uvicorn

    samples = load_samples(settings.runs_dir / args.run_id)
    labels, pool = await open_labels(settings)
    try:
        if args.summary:
            figures = summarise(samples, await labels.of_run(args.run_id))
            print(format_summary(figures))
            if await refresh_report(settings, args.run_id, figures):
                print(f"wrote the table into {settings.runs_dir / args.run_id / 'report.html'}")
            return
        if args.calibrate:
            await _calibrate(args, settings, samples, await labels.of_run(args.run_id))
            return
        if args.export is not None:
            rows = await labels.of_run(args.run_id)
            with writing(args.export, "fix --export"):
                args.export.write_text(
                    "".join(json.dumps({"run_id": args.run_id, **row}, ensure_ascii=False) + "\n" for row in rows),
                    encoding="utf-8",
                )
            print(f"wrote {len(rows)} labels to {args.export}")
            return
        check_port(args.host, args.port)
        token = None if is_loopback(args.host) else secrets.token_urlsafe(18)
        chosen = review_set(samples, args.sample, args.seed) if args.sample else []
        corpus = await run_store(settings, args)
        review = Review(args.run_id, samples, chosen, args.reviewer or getpass.getuser(), labels, token)
        if corpus is not None:

            async def chunks(ids: list[str]) -> list[SupportingChunk]:
                return [SupportingChunk(id=c.id, text=c.text, metadata=c.metadata) for c in await corpus.get(ids)]

            review.chunks = chunks
        config = uvicorn.Config(build_app(review), host=args.host, port=args.port, log_level="warning")
        server = uvicorn.Server(config)
        serving = asyncio.ensure_future(server.serve())
        while not server.started and not serving.done():  # the URL is printed once it answers
            await asyncio.sleep(0.05)
        if not serving.done():
            shown = f"[{args.host}]" if ":" in args.host else args.host
            print(
                f"reviewing run {args.run_id} as {review.reviewer}: http://{shown}:{args.port}/"
                + (f"?token={token}" if token else "")
                + " (Ctrl-C to stop)",
                flush=True,
            )
        try:
            await serving
        finally:
            if corpus is not None:
                await corpus.close()
    finally:
        await pool.close()


async def _calibrate(
    args: argparse.Namespace, settings: Settings, samples: dict[int, Any], reviews: list[SavedLabels]
) -> None:
    try:
        calibration = await calibrate(
            args.run_id, settings, samples, reviews, args.calibration_models, concurrency=args.concurrency,
            say=lambda line: print(line, file=sys.stderr),
        )  # fmt: skip
    except CostLimitReached as stopped:
        print(stopped, file=sys.stderr)
        raise SystemExit(1) from None
    path = settings.runs_dir / args.run_id / "calibration.json"
    with writing(path, "make room or fix the folder"):
        write_atomically(path, json.dumps(calibration, indent=1, ensure_ascii=False) + "\n")
    print(format_calibration(calibration))
    print(f"wrote {path}")
    if await refresh_report(settings, args.run_id, summarise(samples, reviews)):
        print(f"wrote the table into {settings.runs_dir / args.run_id / 'report.html'}")


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    check_run_id(args.run_id)
    if args.sample is not None and args.sample < 1:
        raise UserError("--sample must be at least 1")
    if args.calibration_models and not args.calibrate:
        raise UserError("--validator-model names a validator to calibrate: add --calibrate")
    if args.concurrency < 1:
        raise UserError("--concurrency must be at least 1")
    settings = settings_from_args(args)
    run_async(_main(args, settings))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
