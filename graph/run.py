"""Generate a validated multi-hop QA dataset from a vector store.

python -m graph.run --demo --count 6
python -m graph.run --collection my_docs --count 60 --types comparison,composition --hops 3
"""

from __future__ import annotations

import argparse
import asyncio

from graph.cli import add_collection_options, add_database_options, settings_from_args
from graph.corpus import Corpus
from graph.db import check_connection, database_url
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING
from graph.errors import UserError, exit_on_user_error

QUESTION_TYPES = ("comparison", "intersection", "composition")


def parse_types(value: str) -> tuple[str, ...]:
    types = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [t for t in types if t not in QUESTION_TYPES]
    if unknown or not types:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(QUESTION_TYPES)} (got {value!r})")
    return types


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m graph.run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    run = parser.add_argument_group("run")
    run.add_argument("--count", type=int, default=6, help="accepted samples wanted (default %(default)s)")
    run.add_argument("--demo", action="store_true", help=f"use the bundled demo collection {DEMO_COLLECTION!r}")
    run.add_argument(
        "--types", type=parse_types, default=QUESTION_TYPES, help="question types, comma-separated (default: all three)"
    )
    run.add_argument(
        "--hops",
        type=int,
        default=2,
        choices=range(2, 5),
        metavar="{2,3,4}",
        help="supporting chunks per question (default 2)",
    )
    models = parser.add_argument_group("models")
    models.add_argument("--llm", help="one model spec for all three roles, e.g. google_genai:gemini-2.5-flash")
    add_collection_options(parser)
    add_database_options(parser)
    return parser


async def _check_collection(url: str, collection: str) -> int:
    async with await Corpus.open(url, collection) as corpus:
        return await corpus.count()


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if args.count <= 0:
        raise UserError("--count must be a positive number of samples")
    if args.demo:
        args.collection = args.collection or DEMO_COLLECTION
        args.embedding = args.embedding or DEMO_EMBEDDING
    settings = settings_from_args(args)
    if not settings.collection:
        raise UserError("name the collection with --collection NAME (or TRIAD_COLLECTION), or pass --demo")
    url = database_url(settings)
    check_connection(url)
    chunks = asyncio.run(_check_collection(url, settings.collection))
    print(f"collection {settings.collection!r}: {chunks} chunks")


if __name__ == "__main__":
    main()
