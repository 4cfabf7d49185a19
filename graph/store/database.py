"""The database: the embedded PostgreSQL + pgvector server (`graph.store.embedded`), or a server the user names.

With no database URL, commands start (or attach to) one pgserver instance under `<home>/pg` and
leave it running, so the next command reuses it. Every URL shown to a user goes through `redact`.
"""

from __future__ import annotations

import contextlib

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from graph.config.errors import UserError, first_line, redact
from graph.config.settings import Settings
from graph.store.embedded import embedded_url

#: Seconds a connection attempt may take before the URL is reported as unreachable.
CONNECT_TIMEOUT_S = 5


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
