"""Export a run's dataset for other tools.

    python -m graph.export RUN_ID --format ragas                     # runs/RUN_ID/export/ragas.jsonl
    python -m graph.export RUN_ID --format ragas --split unanswerable
    python -m graph.export runs/RUN_ID/dataset.jsonl --format csv --output my.csv
    python -m graph.export RUN_ID --format hotpotqa | hf

Formats: `ragas` (JSONL with user_input, reference, reference_contexts, reference_context_ids),
`hf` (a folder `datasets.load_from_disk` reads; needs the `datasets` package), `csv`, `hotpotqa`
(question, answer, supporting facts by chunk id, context list). `--split unanswerable` exports each
record's unanswerable variant instead: the question with only non-relevant contexts, where the
expected behaviour is to abstain. A corrupt line in the dataset stops the export with its line number.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import command_parser
from graph.config.errors import exit_on_user_error
from graph.config.settings import resolve_settings
from graph.runs.dataset import EXTENSIONS, export, read_dataset


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.export", __doc__)
    parser.add_argument("run", help="a run id (its folder under --runs-dir) or a path to a dataset.jsonl")
    parser.add_argument("--format", required=True, choices=sorted(EXTENSIONS), dest="fmt")
    parser.add_argument("--split", choices=["answerable", "unanswerable"], default="answerable")
    parser.add_argument(
        "--output", type=Path, help="file (or folder for hf); default: <run folder>/export/<format>[-unanswerable]"
    )
    parser.add_argument("--runs-dir", type=Path, help="where run folders are (default ./runs; TRIAD_RUNS_DIR)")
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    settings = resolve_settings({"runs_dir": args.runs_dir})
    given = Path(args.run)
    dataset = given if given.suffix == ".jsonl" else settings.runs_dir / args.run / "dataset.jsonl"
    unanswerable = args.split == "unanswerable"
    name = f"{args.fmt}{'-unanswerable' if unanswerable else ''}{EXTENSIONS[args.fmt]}"
    output = args.output or dataset.parent / "export" / name
    written = export(read_dataset(dataset), args.fmt, unanswerable, output)
    print(f"wrote {written} {'unanswerable ' if unanswerable else ''}items to {output}")


if __name__ == "__main__":
    main()
