"""The database: the embedded PostgreSQL + pgvector server, or a server the user names.

With no database URL, commands start (or attach to) one pgserver instance under `<home>/pg` and
leave it running, so the next command reuses it. Every URL shown to a user goes through `redact`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fasteners
import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from graph.config.errors import UserError, first_line, reason, redact
from graph.config.settings import Settings

#: Seconds a connection attempt may take before the URL is reported as unreachable.
CONNECT_TIMEOUT_S = 5


def _quiet_pgserver() -> None:
    # pgserver logs every start-up step at INFO and warns about XDG_RUNTIME_DIR; neither helps a user.
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


def embedded_url(pg_dir: Path) -> str:
    """Start or attach to the embedded server in `pg_dir`; return its URL with pgvector enabled.

    Two commands may call this at once. pgserver serialises the server's start-up with an
    inter-process lock, but before taking it creates the data folder (failing when it already exists)
    and, as root, its system user. So the folder is made here first, and a lock of our own next to it
    covers the whole call where that folder's parent is writable.
    `cleanup_mode=None` keeps the server running after this process exits.
    """
    _quiet_pgserver()
    import pgserver

    pg_dir = pg_dir.expanduser().resolve()
    try:
        pg_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(
            f"cannot create the embedded database's folder {pg_dir}: {reason(error)}; fix --home / "
            "TRIAD_HOME, or pass --database-url to use another server"
        ) from None
    try:
        with _start_up_lock(pg_dir):
            server = pgserver.get_server(pg_dir, cleanup_mode=None)
    except Exception as error:  # pgserver raises bare subprocess/assertion errors
        raise UserError(
            f"cannot start the embedded PostgreSQL in {pg_dir} ({type(error).__name__}); "
            f"see {pg_dir / 'log'}, or pass --database-url to use another server"
        ) from None
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        ensure_vector_extension(conn)
    return url


@contextlib.contextmanager
def _start_up_lock(pg_dir: Path) -> Iterator[None]:
    """Hold `.<name>.lock` beside the data folder; go on without it where the parent is read-only.

    The lock cannot live inside the folder: initdb wants it empty.
    """
    lock = fasteners.InterProcessLock(pg_dir.parent / f".{pg_dir.name}.lock")
    try:
        lock.acquire()
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()


def ensure_vector_extension(conn: psycopg.Connection) -> None:
    """CREATE EXTENSION vector, safe when another command does the same at the same moment."""
    # IF NOT EXISTS is not atomic: a concurrent session may create it first.
    with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateObject):
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


def database_url(settings: Settings) -> str:
    """The vector store's URL: the one configured, else the embedded server's."""
    return settings.database_url or embedded_url(settings.pg_dir)


def state_url(settings: Settings) -> str:
    """Where triad keeps its own tables: `state_url`, else the embedded database, never the user's store unasked."""
    return settings.state_url or embedded_url(settings.pg_dir)


def in_schema(url: str, schema: str) -> str:
    """`url` as a connection string whose sessions find and create unqualified tables in `schema` only.

    Options the URL sets already are kept; LangGraph's savers and triad's run ledger then use the
    same unqualified names in a schema of their own.
    """
    options = str(conninfo_to_dict(url).get("options") or "")
    return make_conninfo(url, options=" ".join(filter(None, [options, f"-c search_path={schema}"])))


#: What a role that may not create triad's tables is told.
STATE_FIX = (
    "pass --state-url with a database this role may write (or leave --state-url unset for the embedded one), "
    "or grant CREATE on the database"
)


def prepare_state_schema(url: str, schema: str) -> None:
    """Create `schema` in the state database when it is missing.

    A role that may not create it, or a read-only server, is a `UserError` naming --state-url.
    """
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S) as conn:
            if conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone():
                return
            with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateSchema):
                conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))
    except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ReadOnlySqlTransaction) as error:
        raise UserError(
            f"cannot create schema {schema!r} for triad's runs in {redact(url)} ({first_line(error)}); {STATE_FIX}"
        ) from None
    except psycopg.Error as error:  # unreachable, or a URL libpq cannot parse
        raise UserError(
            f"cannot connect to the state database {redact(url)} ({first_line(error)}); "
            "fix --state-url / TRIAD_STATE_URL"
        ) from None


def check_connection(url: str) -> None:
    """Fail with one line naming the fix when `url` cannot be reached."""
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S):
            pass
    except psycopg.Error as error:
        reason = first_line(error)
        raise UserError(
            f"cannot connect to {redact(url)} ({reason}); fix --database-url / TRIAD_DATABASE_URL "
            "or leave it unset to use the embedded database"
        ) from None


def embedded_status(pg_dir: Path) -> dict[str, Any]:
    """State of the embedded server without starting it."""
    _quiet_pgserver()
    from pgserver.utils import PostmasterInfo

    pg_dir = pg_dir.expanduser().resolve()
    info = PostmasterInfo.read_from_pgdata(pg_dir) if pg_dir.exists() else None
    if info is None or not info.is_running():
        state = "stopped" if (pg_dir / "PG_VERSION").exists() else "not created"
        return {"state": state, "data_dir": str(pg_dir), "url": None, "pid": None}
    return {"state": "running", "data_dir": str(pg_dir), "url": info.get_uri(), "pid": info.pid}


def stop_embedded(pg_dir: Path) -> bool:
    """Stop the embedded server; False when it was not running."""
    _quiet_pgserver()
    from pgserver._commands import pg_ctl  # type: ignore[attr-defined]  # made per executable at import

    pg_dir = pg_dir.expanduser().resolve()
    if embedded_status(pg_dir)["state"] != "running":
        return False
    # The server runs as the `pgserver` system user when started by root.
    user = "pgserver" if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pg_dir, user=user)
    return True
