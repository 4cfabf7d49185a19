"""Command-line options shared by every command, how they become `Settings`, and the event loop."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from graph.config.errors import USAGE_EXIT_CODE
from graph.config.settings import Settings, resolve_settings
from state.usage import ROLES

T = TypeVar("T")


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop where it is installed (not on Windows), else None: asyncio's own.

    A run's lanes share one loop; every step of every sample waits its turn on it, so the cost of each
    callback adds up with concurrency. uvloop's callbacks and socket waits cost less than asyncio's.
    """
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def tell(text: str) -> None:
    """A line for the user on stderr: progress, notes, the files written (stdout holds a command's result)."""
    print(text, file=sys.stderr, flush=True)


def say(text: str) -> None:
    """A command's result on stdout."""
    print(text)


#: Objects the collector lets the youngest generation hold while a command's event loop runs (Python's default
#: is 700). A sample's steps allocate thousands of short-lived objects that reference counting frees; with the
#: default, the collector walks the live ones several times per sample.
YOUNG_GENERATION = 5000


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on the fastest event loop available, collecting garbage less often meanwhile."""
    with asyncio.Runner(loop_factory=event_loop_factory()) as runner, young_generation(YOUNG_GENERATION):
        return runner.run(main)


@contextlib.contextmanager
def young_generation(size: int) -> Iterator[None]:
    """Within the block, a collection of the youngest generation waits for `size` new objects, unless the
    process asked for more or turned the collector off; the thresholds it had come back after."""
    thresholds = gc.get_threshold()
    if gc.isenabled() and 0 < thresholds[0] < size:
        gc.set_threshold(size, *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


class CommandParser(argparse.ArgumentParser):
    """A parser whose refusals are one `error:` line, like every other mistake a command reports.

    argparse's own refusal prints the whole usage block first; the line here names the option and
    where the full usage is.
    """

    def error(self, message: str) -> NoReturn:
        print(f"error: {self._with_choices(message)}; see {self.prog} --help", file=sys.stderr)
        raise SystemExit(USAGE_EXIT_CODE)

    def _with_choices(self, message: str) -> str:
        """A missing argument that takes one of a few words is named with them, as the usage block did."""
        head, required, names = message.partition("required: ")
        if not required:
            return message
        choices = {a.dest: a.choices for a in self._actions if not a.option_strings and a.choices is not None}
        named = [f"{n} ({'|'.join(map(str, choices[n]))})" if n in choices else n for n in names.split(", ")]
        return head + required + ", ".join(named)


def command_parser(module: str, description: str | None) -> argparse.ArgumentParser:
    """The parser of `python -m module`. Abbreviated options are refused, never guessed: `--llm` must
    not quietly become `--llm-base-url`."""
    return CommandParser(
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
        "google_genai:MODEL, openai:MODEL, import:package.module:object (TRIAD_EMBEDDING)",
    )
    group.add_argument(
        "--min-chunk-chars",
        type=int,
        help="chunks shorter than this are never seeds (default 200; TRIAD_MIN_CHUNK_CHARS)",
    )
    group.add_argument(
        "--max-chunk-chars",
        type=int,
        help="chunks longer than this are never read (default 20000; TRIAD_MAX_CHUNK_CHARS)",
    )


def add_state_options(parser: argparse.ArgumentParser) -> None:
    """Where triad keeps its runs: a database of its own choosing, in a schema of its own."""
    group = parser.add_argument_group("state")
    group.add_argument(
        "--state-url",
        help="PostgreSQL URL for runs and checkpoints (TRIAD_STATE_URL); default: the embedded database. "
        "Workers on several machines pass one URL they all reach",
    )
    group.add_argument(
        "--state-schema", help="schema of triad's tables in the state database (default triad; TRIAD_STATE_SCHEMA)"
    )


def add_column_options(parser: argparse.ArgumentParser) -> None:
    """How a PGVectorStore table's columns are read, and the store's distance (detected where unambiguous)."""
    group = parser.add_argument_group("columns (PGVectorStore tables; default: found from the table)")
    group.add_argument("--id-column", help="id column (langchain-postgres' id_column)")
    group.add_argument("--content-column", help="text column (content_column)")
    group.add_argument("--embedding-column", help="vector column (embedding_column)")
    group.add_argument(
        "--metadata-json-column", help="JSON metadata column (metadata_json_column), or none (store_metadata=False)"
    )
    group.add_argument(
        "--metadata-columns",
        metavar="A,B",
        help="columns holding metadata keys (metadata_columns), merged into each chunk's metadata; none for no column",
    )
    group.add_argument(
        "--distance",
        choices=("cosine", "l2", "ip"),
        help="the store's distance strategy, for neighbours and retrieval (default cosine, as langchain-postgres)",
    )


def add_model_server_options(group: argparse._ActionsContainer) -> None:
    """How the models are reached: their server, the structured-output mode it takes, how long a call may take."""
    group.add_argument(
        "--llm-base-url",
        help="base URL of the models' server: a Gemini API proxy, an OpenAI-compatible server (vLLM, llama.cpp, "
        "llama-cpp-python, LM Studio), an Ollama server",
    )
    group.add_argument(
        "--structured-output",
        action="append",
        metavar="[ROLE=]MODE",
        help="how a role's model is asked for JSON: auto (default: the server's best mode, the next when it "
        "refuses one), json_schema, json_object, tool or text; MODE alone for every role",
    )
    group.add_argument(
        "--request-timeout-seconds",
        type=float,
        help="a model call not answered by then is cut off and retried (default 120; a CPU-served local model "
        "may need more)",
    )


def models_from_args(args: argparse.Namespace) -> dict[str, str]:
    """Model specs given on the command line, per role: `--ROLE-model`, else `--llm`."""
    return {
        role: spec for role in ROLES if (spec := getattr(args, f"{role}_model", None) or getattr(args, "llm", None))
    }


def settings_from_args(args: argparse.Namespace, **flags: Any) -> Settings:
    """Settings from parsed flags (and `flags`, which stand for flags given), the environment and the config file."""
    given: dict[str, Any] = {
        name: getattr(args, name) for name in Settings.model_fields if getattr(args, name, None) is not None
    }
    return resolve_settings({**given, **flags}, config_path=getattr(args, "config", None))
