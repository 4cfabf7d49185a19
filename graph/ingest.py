"""Load documents into a PGVectorStore table, embedding them in batches.

    python -m graph.ingest PATH --collection NAME [--embedding SPEC] [--chunk-size N] [--chunk-overlap N]
    python -m graph.ingest --demo

The table has langchain-postgres' PGVectorStore layout (`langchain_id, content, embedding,
langchain_metadata`) and an HNSW cosine index, so a RAG system built on langchain-postgres can use
it as is. Chunk ids are stable, so running the same command again adds only what is new, and
chunks of a re-ingested source that no longer exist are removed.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import add_collection_options, add_database_options, command_parser, settings_from_args
from graph.config.errors import UserError, exit_on_user_error
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING, demo_embeddings, load_demo_chunks
from graph.ingestion.loaders import load_chunks
from graph.ingestion.writer import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ingest_chunks
from graph.store.database import check_connection, database_url
from graph.store.embeddings import embedding_keys


def _parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "graph.ingest", "Split, embed and store documents as a PGVectorStore table with an HNSW index."
    )
    parser.add_argument(
        "path", nargs="?", type=Path, help="a .txt/.md/.html file, a folder of them, or a .jsonl of chunks"
    )
    parser.add_argument(
        "--demo", action="store_true", help=f"load the bundled PostgreSQL 15 manual into {DEMO_COLLECTION!r}"
    )
    parser.add_argument(
        "--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, help="characters per chunk (default %(default)s)"
    )
    parser.add_argument(
        "--chunk-overlap",
        type=int,
        default=DEFAULT_CHUNK_OVERLAP,
        help="characters shared by neighbouring chunks (default %(default)s)",
    )
    add_collection_options(parser)
    add_database_options(parser)
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.demo == (args.path is not None):
        raise UserError("give either a PATH to ingest or --demo")
    if args.chunk_size <= 0 or args.chunk_overlap < 0:
        raise UserError("--chunk-size must be positive and --chunk-overlap not negative")
    demo = {"collection": args.collection or DEMO_COLLECTION, "embedding": args.embedding or DEMO_EMBEDDING}
    settings = settings_from_args(args, **(demo if args.demo else {}))
    if not settings.collection:
        raise UserError("name the target table with --collection NAME (or TRIAD_COLLECTION)")
    chunks = load_demo_chunks() if args.demo else load_chunks(args.path, args.chunk_size, args.chunk_overlap)
    url = database_url(settings)
    check_connection(url)
    keys = embedding_keys(settings)
    stored = demo_embeddings() if args.demo and settings.embedding == DEMO_EMBEDDING else None
    counts = ingest_chunks(
        url, settings.collection, chunks, settings.embedding, settings.schema_name, keys, embeddings=stored
    )
    if counts["added"] == 0 and counts["removed"] == 0:
        print(f"nothing to do: all {counts['kept']} chunks are already in {settings.collection!r}")
    else:
        print(
            f"{settings.collection!r}: {counts['added']} chunks written (new or changed), {counts['kept']} unchanged, "
            f"{counts['removed']} stale removed"
        )


if __name__ == "__main__":
    main()
