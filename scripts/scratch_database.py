"""A database of its own for a benchmark: created on the server at `url`, dropped afterwards.

Imported by the benchmark scripts (run from the repository root as `python scripts/NAME.py`, which
puts this folder on the import path); the package never imports it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo


@contextmanager
def scratch_database(url: str, prefix: str) -> Iterator[str]:
    """A new, empty database `<prefix>_<pid>` on the server at `url`, dropped afterwards; yields its URL.

    Checkpoints and samples of earlier benchmarks would otherwise pile up in the one the commands use,
    and every benchmark would write into bigger tables than the last.
    """
    name = f"{prefix}_{os.getpid()}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_conninfo(url, dbname=name)
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
