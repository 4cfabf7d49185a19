"""The embedded PostgreSQL 16 + pgvector server (pgserver): start, attach, status, stop.

Every start goes through `start_server`: the commands (with `cleanup_mode=None`, so the server
outlives them and the next command reuses it), the Python API and the test fixtures alike.
Run as root, the server runs as the system user `pgserver`, which is created here, once across the
machine, before pgserver is asked for a server: pgserver creates it itself outside its own lock, and
of two first starts at once the loser's `initdb` then fails.
A start that fails names its cause and fix where it can be known (`start_failure`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import pwd
import re
import stat
import subprocess
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fasteners
import psycopg

from graph.config.errors import UserError, reason

#: The system user pgserver runs the server as when started by root.
SERVER_USER = "pgserver"

#: How often `useradd` is tried, and the pause between tries, while another process holds the password lock.
USERADD_ATTEMPTS = 5
USERADD_PAUSE_S = 0.5

#: What a user whose embedded server cannot start may do instead.
OTHER_SERVER = "or pass --database-url to use another server"


def _quiet_pgserver() -> None:
    # pgserver logs every start-up step at INFO and warns about XDG_RUNTIME_DIR; neither helps a user.
    logging.getLogger("pgserver").setLevel(logging.WARNING)
    warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")


def start_server(pg_dir: Path, cleanup_mode: str | None = None) -> Any:
    """Start or attach to the embedded server in `pg_dir`, with pgvector enabled; pgserver's handle.

    `cleanup_mode=None` keeps the server running after this process exits; "delete" stops it and removes
    its folder when the handle is cleaned up (the test fixtures' choice).
    Two processes may call this at once, for one folder or for two. pgserver serialises the server's
    start-up with an inter-process lock, but before taking it creates the data folder (failing when it
    already exists) and, as root, its system user. So the user is made first (`ensure_system_user`), then
    the folder, and a lock of our own next to the folder covers the whole call where its parent is
    writable.
    """
    _quiet_pgserver()
    import pgserver

    pg_dir = pg_dir.expanduser().resolve()
    if os.geteuid() == 0:
        ensure_system_user(SERVER_USER)
    try:
        pg_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(
            f"cannot create the embedded database's folder {pg_dir}: {reason(error)}; fix --home / "
            f"TRIAD_HOME, {OTHER_SERVER}"
        ) from None
    said = _PgserverErrors()
    try:
        with _start_up_lock(pg_dir), said.listening():
            server = pgserver.get_server(pg_dir, cleanup_mode=cleanup_mode)
    except Exception as error:  # pgserver raises bare subprocess, OS and assertion errors
        raise UserError(start_failure(pg_dir, error, said.text())) from None
    try:
        with psycopg.connect(server.get_uri(), autocommit=True) as conn:
            ensure_vector_extension(conn)
    except psycopg.OperationalError as error:
        raise UserError(unreachable_server(pg_dir, error)) from None
    return server


def embedded_url(pg_dir: Path) -> str:
    """Start or attach to the embedded server in `pg_dir` and leave it running; its URL."""
    return str(start_server(pg_dir, cleanup_mode=None).get_uri())


def ensure_vector_extension(conn: psycopg.Connection) -> None:
    """CREATE EXTENSION vector, safe when another command does the same at the same moment."""
    # IF NOT EXISTS is not atomic: a concurrent session may create it first.
    with contextlib.suppress(psycopg.errors.UniqueViolation, psycopg.errors.DuplicateObject):
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")


# -- the system user ----------------------------------------------------------------------------


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def machine_lock_dir() -> Path:
    """A folder whose path is the same for every data home: pgserver's own runtime folder."""
    from pgserver import PostgresServer

    folder = Path(PostgresServer.runtime_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def ensure_system_user(name: str, lock_dir: Path | None = None) -> None:
    """Create the system user `name` (run as root) when it is missing, once however many processes ask.

    The check and `useradd` run under a lock in `lock_dir` (by default pgserver's runtime folder), so of
    two first starts one creates the user and the other finds it. A process that takes no such lock (one
    with another runtime folder, or pgserver itself) can still hold the system's password lock for a
    moment: a `useradd` that fails is tried again, and counts as done when the user appeared meanwhile.
    """
    if user_exists(name):
        return
    with fasteners.InterProcessLock((lock_dir or machine_lock_dir()) / ".triad-system-user.lock"):
        failure = ""
        for attempt in range(USERADD_ATTEMPTS):
            if user_exists(name):
                return
            if attempt:
                time.sleep(USERADD_PAUSE_S)
            try:
                subprocess.run(["useradd", "-s", "/bin/bash", name], check=True, capture_output=True, text=True)
                return
            except FileNotFoundError:
                raise UserError(
                    f"cannot create the system user {name!r} the embedded PostgreSQL runs as when started by "
                    f"root: useradd is missing; create the user yourself, run triad as another user, {OTHER_SERVER}"
                ) from None
            except subprocess.CalledProcessError as error:
                said = (error.stderr or "").strip().splitlines()
                failure = said[0] if said else f"useradd exited with {error.returncode}"
        if user_exists(name):
            return
        raise UserError(
            f"cannot create the system user {name!r} the embedded PostgreSQL runs as when started by root "
            f"({failure}); create it with `useradd -s /bin/bash {name}`, run triad as another user, {OTHER_SERVER}"
        )


# -- why a start failed ---------------------------------------------------------------------------


class _PgserverErrors(logging.Handler):
    """What pgserver logged at ERROR level while starting: the failed command's stderr, the server's log."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())

    @contextlib.contextmanager
    def listening(self) -> Iterator[None]:
        logger = logging.getLogger("pgserver")
        logger.addHandler(self)
        try:
            yield
        finally:
            logger.removeHandler(self)

    def text(self) -> str:
        return "\n".join(self.messages)


#: Causes recognised in what initdb, pg_ctl and the server said: (pattern, cause, fix with {pg_dir}).
_CAUSES: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r'lock file "postmaster\.pid" already exists|another server might be running', re.I),
        "a postmaster.pid in the folder names a server that is still running or a process that took its id",
        "stop that server (python -m graph.db stop --home ...) or, when none runs there, delete "
        "{pg_dir}/postmaster.pid",
    ),
    (
        re.compile(r"address already in use|could not bind|could not create lock file .*\.s\.PGSQL", re.I),
        "the server's port or socket is in use by another server",
        "stop the other server, or choose another --home / TRIAD_HOME",
    ),
    (
        re.compile(r"could not change permissions of directory|operation not permitted|permission denied", re.I),
        "the server's user may not write its data folder (made by another user, or under a folder it may not change)",
        "remove {pg_dir} and start again, or choose another --home / TRIAD_HOME",
    ),
    (
        re.compile(r"exists but is not empty", re.I),
        "the data folder holds files but no database",
        "empty or remove {pg_dir}, or choose another --home / TRIAD_HOME",
    ),
)


def start_failure(pg_dir: Path, error: BaseException, said: str) -> str:
    """One line: why the embedded server in `pg_dir` did not start, where that can be known, and the fix.

    `said` is what pgserver logged of the failed commands; the server's own log is read when it exists.
    """
    where = f"cannot start the embedded PostgreSQL in {pg_dir}"
    blocked = untraversable_parent(pg_dir, SERVER_USER) if os.geteuid() == 0 else None
    if blocked is not None:
        mode = stat.filemode(blocked.stat().st_mode)
        return (
            f"{where}: the server's user {SERVER_USER!r} cannot enter {blocked} ({mode}); "
            f"allow it with `chmod o+x {blocked}`, choose a --home / TRIAD_HOME under a folder others may enter, "
            f"{OTHER_SERVER}"
        )
    log = pg_dir / "log"
    text = "\n".join([said, str(error), _read(log)])
    for pattern, cause, fix in _CAUSES:
        if pattern.search(text):
            return f"{where}: {cause}; {fix.format(pg_dir=pg_dir)}, {OTHER_SERVER}"
    detail = _postgres_line(text) or type(error).__name__
    seen = f"see {log}" if log.exists() else "the server wrote no log"
    return f"{where} ({detail}); {seen}, {OTHER_SERVER}"


def unreachable_server(pg_dir: Path, error: psycopg.Error) -> str:
    """One line for a server pgserver took for running that does not answer: a stale postmaster.pid whose
    process id another program now has, or a server that does not accept connections."""
    where = f"cannot connect to the embedded PostgreSQL in {pg_dir}"
    pid = _stale_pid(pg_dir)
    if pid is not None:
        return (
            f"{where}: its postmaster.pid names process {pid}, which is no PostgreSQL server (a server that "
            f"stopped without cleaning up); when none runs there, delete {pg_dir / 'postmaster.pid'}, "
            f"{OTHER_SERVER}"
        )
    said = str(error).strip().splitlines()
    return f"{where} ({said[0] if said else type(error).__name__}); see {pg_dir / 'log'}, {OTHER_SERVER}"


def _stale_pid(pg_dir: Path) -> int | None:
    """The process id in `pg_dir`'s postmaster.pid when that process is alive but is not a PostgreSQL server."""
    from pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pg_dir) if pg_dir.exists() else None
    if info is None or info.process is None:
        return None
    try:
        name = info.process.name()
    except Exception:  # the process ended meanwhile: nothing stale to name
        return None
    return None if name.startswith("postgres") else int(info.pid)


def untraversable_parent(path: Path, user: str) -> Path | None:
    """The first folder above `path` that system user `user` may not enter; None when it may enter all."""
    try:
        entry = pwd.getpwnam(user)
    except KeyError:
        return None
    groups = {entry.pw_gid} | {group.gr_gid for group in _groups_of(user)}
    for folder in reversed(path.parents):
        mode = folder.stat().st_mode
        if folder.stat().st_uid == entry.pw_uid:
            allowed = mode & stat.S_IXUSR
        elif folder.stat().st_gid in groups:
            allowed = mode & stat.S_IXGRP
        else:
            allowed = mode & stat.S_IXOTH
        if not allowed:
            return folder
    return None


def _groups_of(user: str) -> list[Any]:
    import grp

    return [group for group in grp.getgrall() if user in group.gr_mem]


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _postgres_line(text: str) -> str:
    """The first line in which initdb, pg_ctl or the server says what went wrong."""
    for line in text.splitlines():
        line = line.strip()
        if re.match(r"(?:initdb|pg_ctl|postgres):|(?:\S+\s+){0,3}(?:FATAL|ERROR|PANIC):", line):
            return line
    return ""


# -- status and stop ----------------------------------------------------------------------------


def embedded_status(pg_dir: Path) -> dict[str, Any]:
    """State of the embedded server without starting it."""
    _quiet_pgserver()
    from pgserver.utils import PostmasterInfo

    pg_dir = pg_dir.expanduser().resolve()
    info = PostmasterInfo.read_from_pgdata(pg_dir) if pg_dir.exists() else None
    if info is None or not info.is_running() or _stale_pid(pg_dir) is not None:
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
    user = SERVER_USER if os.geteuid() == 0 else None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pg_dir, user=user)
    return True


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
