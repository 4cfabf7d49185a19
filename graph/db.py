"""The database: the embedded PostgreSQL + pgvector server, or a server the user names.

With no database URL, commands start (or attach to) one pgserver instance under `<home>/pg` and
leave it running, so the next command reuses it; `python -m graph.db stop` stops it.

    python -m graph.db status     # URL and state of the embedded server
    python -m graph.db start      # start it (commands do this on their own when needed)
    python -m graph.db stop       # stop it
"""

from __future__ import annotations

import argparse
from pathlib import Path

from graph.config.cli import command_parser
from graph.config.errors import exit_on_user_error, redact
from graph.config.settings import resolve_settings
from graph.store.embedded import embedded_status, embedded_url, stop_embedded


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.db", "Manage triad's embedded PostgreSQL + pgvector server.")
    parser.add_argument("action", choices=["status", "start", "stop"], help="what to do")
    parser.add_argument("--home", type=Path, help="data home (default ./.triad, or TRIAD_HOME)")
    return parser


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    settings = resolve_settings({"home": args.home})
    if args.action == "start":
        print(embedded_url(settings.pg_dir))
        return
    if args.action == "stop":
        stopped = stop_embedded(settings.pg_dir)
        print("stopped" if stopped else "not running")
        return
    status = embedded_status(settings.pg_dir)
    for key, value in status.items():
        print(f"{key}: {value if value is not None else '-'}")
    if settings.database_url:
        print(f"configured database_url: {redact(settings.database_url)} (used instead of the embedded server)")


if __name__ == "__main__":
    main()
