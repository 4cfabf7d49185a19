"""The `triad` command: `triad run ...` is `python -m graph.run ...`, with the same flags and help.

triad --help                  the commands
triad run --demo --count 6    python -m graph.run --demo --count 6
"""

from __future__ import annotations

import importlib
import sys

#: Each subcommand, the module it runs, and what it does (as the README's command table says).
COMMANDS = {
    "run": ("graph.run", "generate a dataset: a new run, --resume RUN_ID, or --worker processes joining one"),
    "replay": ("graph.replay", "list rejected samples; fork one from a checkpoint, with edits or other models"),
    "review": ("graph.review", "review samples in the browser; --summary, --export, --calibrate validators"),
    "evaluate": ("graph.evaluate", "score RAG setups on a run's dataset; --fail-under and --baseline gate CI"),
    "export": ("graph.export", "the dataset for RAGAS, CSV, HotpotQA, Hugging Face datasets, LangSmith or Langfuse"),
    "check": ("graph.check", "which records went stale since the documents changed"),
    "refresh": ("graph.refresh", "the next dataset version, true to the documents as they are now"),
    "ingest": ("graph.ingest", "documents or ready-cut chunks into a PGVectorStore table"),
    "db": ("graph.db", "the embedded PostgreSQL + pgvector server: status, start, stop"),
    "preflight": ("graph.preflight", "check every role's model with one small structured request"),
}


def usage() -> str:
    width = max(map(len, COMMANDS)) + 2
    lines = ["usage: triad COMMAND [flags]", "", "commands:"]
    lines += [f"  {name:<{width}}{what}" for name, (_, what) in COMMANDS.items()]
    lines += ["", "triad COMMAND --help shows a command's flags; each is also python -m graph.COMMAND."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        raise SystemExit(0 if args else 2)
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"error: no command {name!r}; triad --help lists them", file=sys.stderr)
        raise SystemExit(2)
    module = importlib.import_module(COMMANDS[name][0])
    module.main(rest)


if __name__ == "__main__":
    main()
