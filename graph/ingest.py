"""Load documents into a PGVectorStore table, embedding them in batches.

    python -m graph.ingest PATH --collection NAME [--embedding SPEC] [--chunk-size N] [--chunk-overlap N]
    python -m graph.ingest --demo

PATH is a file or a folder of .txt, .md, .html, .pdf and .docx documents (and .jsonl files of chunks
already cut). Every chunk keeps its source, title, section and page where the format has them. A
file that cannot be read is named with the reason on one line and the rest is ingested; its chunks
already in the table stay. The table has langchain-postgres' PGVectorStore layout (`langchain_id, content, embedding,
langchain_metadata`) and an HNSW cosine index, so a RAG system built on langchain-postgres can use
it as is. Chunk ids are stable, so running the same command again adds only what is new, and
chunks of a re-ingested source that no longer exist are removed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

from graph.config.cli import add_collection_options, add_database_options, command_parser, settings_from_args
from graph.config.errors import UserError, exit_on_user_error
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING, demo_embeddings, load_demo_chunks
from graph.ingestion.loaders import SUPPORTED, FileResult, Loaded, iter_document_files, load_chunks
from graph.ingestion.writer import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE, ingest_chunks
from graph.store.database import check_connection, database_url
from graph.store.embeddings import embedding_keys


def _parser() -> argparse.ArgumentParser:
    parser = command_parser(
        "graph.ingest", "Split, embed and store documents as a PGVectorStore table with an HNSW index."
    )
    parser.add_argument("path", nargs="?", type=Path, help=f"a {SUPPORTED} file, or a folder of them")
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
    if args.demo:
        loaded = Loaded(chunks=load_demo_chunks())
    else:
        loaded = read_documents(args.path, args.chunk_size, args.chunk_overlap)
    url = database_url(settings)
    check_connection(url)
    keys = embedding_keys(settings)
    stored = demo_embeddings() if args.demo and settings.embedding == DEMO_EMBEDDING else None
    counts = ingest_chunks(
        url,
        settings.collection,
        loaded.chunks,
        settings.embedding,
        settings.schema_name,
        keys,
        embeddings=stored,
        partial=bool(loaded.skipped),
    )
    if not (counts["added"] or counts["updated"] or counts["removed"]):
        print(f"nothing to do: all {counts['kept']} chunks are already in {settings.collection!r}")
    else:
        print(
            f"{settings.collection!r}: {counts['added']} chunks written (new or changed), "
            + (f"{counts['updated']} with new metadata, " if counts["updated"] else "")
            + f"{counts['kept']} unchanged, {counts['removed']} stale removed"
        )
    print(_summary(loaded))


def read_documents(path: Path, chunk_size: int, chunk_overlap: int) -> Loaded:
    """The chunks under `path`, with progress over its files (and an ETA); each skipped file named on one line."""
    chunks = 0
    files = iter_document_files(path)
    with tqdm(total=len(files), desc="reading", unit="file", disable=None, file=sys.stderr) as bar:

        def observe(result: FileResult) -> None:
            nonlocal chunks
            chunks += len(result.chunks)
            if result.skipped:
                bar.write(f"skipped {result.source}: {result.skipped}", file=sys.stderr)
            bar.set_postfix(chunks=chunks, refresh=False)
            bar.update(1)

        loaded = load_chunks(path, chunk_size, chunk_overlap, observe, files)
    if not loaded.chunks:
        raise UserError(f"no text to ingest in {path}: {_summary(loaded)}")
    return loaded


def _summary(loaded: Loaded) -> str:
    """Files read and chunks cut; what was skipped and why, what held no text."""
    if not loaded.files:
        return f"{len(loaded.chunks)} chunks read"
    parts = [f"{loaded.files} files read into {len(loaded.chunks)} chunks"]
    if loaded.skipped:
        # The why of each, without the fix its own line gave above (a reason ends in "; <the fix>").
        reasons = ", ".join(f"{result.source} ({str(result.skipped).rsplit('; ', 1)[0]})" for result in loaded.skipped)
        parts.append(f"{len(loaded.skipped)} skipped (chunks stored from them before are kept): {reasons}")
    if loaded.empty:
        parts.append(f"{len(loaded.empty)} without text: {', '.join(loaded.empty)}")
    return "; ".join(parts)


if __name__ == "__main__":
    main()
