"""Command-line options shared by every command, and how they become `Settings`."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from graph.settings import Settings, resolve_settings


def command_parser(module: str, description: str | None) -> argparse.ArgumentParser:
    """The parser of `python -m module`. Abbreviated options are refused, never guessed: `--llm` must
    not quietly become `--llm-base-url`."""
    return argparse.ArgumentParser(
        allow_abbrev=False,
        prog=f"python -m {module}",
        description=description,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def add_database_options(parser: argparse.ArgumentParser) -> None:
    """Where data lives: the data home, a config file and the database."""
    group = parser.add_argument_group("database")
    group.add_argument("--home", type=Path, help="data home for the embedded database (default ./.triad; TRIAD_HOME)")
    group.add_argument("--config", type=Path, help="settings file (default ./triad.toml when present; TRIAD_CONFIG)")
    group.add_argument(
        "--database-url",
        help="PostgreSQL URL of the vector store (TRIAD_DATABASE_URL); unset: the embedded server",
    )


def add_collection_options(parser: argparse.ArgumentParser) -> None:
    """Which collection, and the embedding model that filled it."""
    group = parser.add_argument_group("collection")
    group.add_argument("--collection", help="PGVectorStore table or legacy PGVector collection name (TRIAD_COLLECTION)")
    group.add_argument("--schema", dest="schema_name", help="schema of a PGVectorStore table (default public)")
    group.add_argument(
        "--embedding",
        help="embedding model of the collection: minilm (default), sentence-transformers:PATH, "
        "google_genai:MODEL, openai:MODEL (TRIAD_EMBEDDING)",
    )


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Settings from parsed flags, the environment and the config file."""
    flags: dict[str, Any] = {
        name: getattr(args, name) for name in Settings.model_fields if getattr(args, name, None) is not None
    }
    return resolve_settings(flags, config_path=getattr(args, "config", None))
