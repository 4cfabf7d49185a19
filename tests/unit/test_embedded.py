"""The embedded server's first start: its system user made once when two processes race, and a failed
start that names its cause and fix."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.store.embedded import start_failure, untraversable_parent
from tests.support.commands import assert_one_line_error, run_cli

#: Throwaway system users of the race test start with this; a killed run's leftovers are removed first.
RACE_USER_PREFIX = "triadrace"

#: One process of the race: wait for the common start time, then create the user through triad's function.
RACER = """
import sys, time
from graph.store.embedded import ensure_system_user
name, start = sys.argv[1], float(sys.argv[2])
time.sleep(max(0.0, start - time.time()))
ensure_system_user(name)
print("ok")
"""


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A scratch folder that every user may enter, as a data home's parents must be (pytest's own
    temporary root is closed to other users)."""
    folder = Path(tempfile.mkdtemp(prefix="triad-test-embedded-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _remove_race_users() -> None:
    for entry in pwd.getpwall():
        if entry.pw_name.startswith(RACE_USER_PREFIX):
            subprocess.run(["userdel", entry.pw_name], capture_output=True, check=False)


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("useradd") is None or shutil.which("userdel") is None,
    reason="creating a system user needs root and useradd/userdel, as the embedded server's first start as root does",
)
def test_two_concurrent_first_creations_of_the_system_user_both_succeed() -> None:
    _remove_race_users()
    name = f"{RACE_USER_PREFIX}{os.getpid()}"
    start = time.time() + 2.0  # both processes have imported triad by then and call at the same moment
    try:
        racers = [
            subprocess.Popen(
                [sys.executable, "-c", RACER, name, str(start)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        results = [racer.communicate(timeout=60) for racer in racers]
        assert [racer.returncode for racer in racers] == [0, 0], results
        assert [out.strip() for out, _ in results] == ["ok", "ok"]
        assert pwd.getpwnam(name).pw_shell == "/bin/bash"
    finally:
        _remove_race_users()
    assert not any(entry.pw_name.startswith(RACE_USER_PREFIX) for entry in pwd.getpwall())


def test_a_folder_the_server_user_cannot_enter_is_named(open_folder: Path) -> None:
    others = [e.pw_name for e in pwd.getpwall() if e.pw_uid not in (0, os.geteuid()) and e.pw_name != "root"]
    if not others:
        pytest.skip("no user but this one on the machine to check a folder's permissions for")
    home = open_folder / "closed" / "home"
    home.mkdir(parents=True)
    (open_folder / "closed").chmod(0o700)
    try:
        assert untraversable_parent(home / "pg", others[0]) == open_folder / "closed"
        (open_folder / "closed").chmod(0o711)
        assert untraversable_parent(home / "pg", others[0]) is None
    finally:
        (open_folder / "closed").chmod(0o755)


@pytest.mark.parametrize(
    ("said", "cause", "fix"),
    [
        (
            'FATAL:  lock file "postmaster.pid" already exists\nHINT:  Is another postmaster (PID 4321) running?',
            "a postmaster.pid in the folder",
            "postmaster.pid",
        ),
        (
            'LOG:  could not bind Unix address "/x/.s.PGSQL.5432": Address already in use',
            "port or socket is in use",
            "stop the other server",
        ),
        (
            'initdb: error: could not change permissions of directory "/x/pg": Operation not permitted',
            "may not write its data folder",
            "remove",
        ),
        ('initdb: error: directory "/x/pg" exists but is not empty', "holds files but no database", "empty or remove"),
    ],
)
def test_a_failed_start_names_its_cause_and_fix(open_folder: Path, said: str, cause: str, fix: str) -> None:
    line = start_failure(open_folder / "pg", subprocess.CalledProcessError(1, ["pg_ctl"]), said)
    assert line.startswith(f"cannot start the embedded PostgreSQL in {open_folder / 'pg'}: ")
    assert cause in line
    assert fix in line
    assert "--database-url" in line
    assert "\n" not in line


def test_an_unknown_failure_quotes_what_postgres_said_and_where_no_log_exists(open_folder: Path) -> None:
    said = "Failed postgres command\nstderr:\ninitdb: error: invalid locale settings; check LANG and LC_* variables"
    line = start_failure(open_folder / "pg", subprocess.CalledProcessError(1, ["initdb"]), said)
    assert "(initdb: error: invalid locale settings; check LANG and LC_* variables)" in line
    assert "the server wrote no log" in line
    (open_folder / "pg").mkdir()
    (open_folder / "pg" / "log").write_text("LOG:  starting\n")
    line = start_failure(open_folder / "pg", subprocess.CalledProcessError(1, ["pg_ctl"]), "")
    assert f"(CalledProcessError); see {open_folder / 'pg' / 'log'}" in line


def test_a_stale_postmaster_pid_is_named_with_its_fix(open_folder: Path) -> None:
    """A server killed without cleaning up leaves postmaster.pid behind; another program now has its id."""
    pg_dir = open_folder / "home" / "pg"
    pg_dir.mkdir(parents=True)
    (pg_dir / "PG_VERSION").write_text("16\n")
    lines = [str(os.getpid()), str(pg_dir), "1700000000", "5432", str(pg_dir), "", "  1234 5678", "ready"]
    (pg_dir / "postmaster.pid").write_text("\n".join(lines) + "\n")
    result = run_cli("graph.db", "start", "--home", str(open_folder / "home"))
    assert_one_line_error(result, f"postmaster.pid names process {os.getpid()}", f"delete {pg_dir / 'postmaster.pid'}")
    assert "state: stopped" in run_cli("graph.db", "status", "--home", str(open_folder / "home")).stdout
