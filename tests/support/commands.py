"""Driving triad's commands as a user runs them, for tests: their output, one-line errors, stores.

`run_cli` calls a command's `main(argv)` in this process, as `python -m graph.<command>` would run
it: from the repository root, with the caller's TRIAD_* variables and API keys left out (so no test
reaches a hosted model with a real key), stdout and stderr captured and the exit code kept.
`run_process` starts the command as a process of its own, for what only a process shows (start-up,
signals, a server's life).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib
import io
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg

from graph.config.logs import configure_logging
from graph.store.database import in_schema
from state.record import DatasetRecord

#: The checkout the commands run in (its scripts/ folder too).
REPO_ROOT = Path(__file__).resolve().parents[2]

#: API keys no test may pass on to a command.
HOSTED_KEYS = ("GOOGLE_API_KEY", "OPENAI_API_KEY")

#: The plausible script: a model that drafts well-formed questions and judges that accept them.
PLAUSIBLE_MODEL = "offline:plausible"

#: The plausible script at 200 ms per call: a run that lasts long enough to be interrupted.
SLOW_MODEL = "import:graph.llm.offline.plausible:plausible_model_200ms"


#: Names the test session's server: commands keep their runs there (in schema triad) unless a test says
#: otherwise, instead of each starting an embedded server of its own. An empty TRIAD_STATE_URL in `env`
#: keeps the default, the embedded database.
TEST_STATE_URL = "TRIAD_TEST_STATE_URL"

#: Names the test session's scratch data home: commands that start an embedded server or write caches do it
#: there, not in the checkout's `.triad`, unless a test gives TRIAD_HOME itself.
TEST_HOME = "TRIAD_TEST_HOME"

#: The provider rate commands get in tests unless a test sets TRIAD_REQUESTS_PER_SECOND itself: scripted models
#: are no provider to protect, and the default of 10 a second would make most of a test's time waiting.
TEST_REQUESTS_PER_SECOND = "1000"

#: Where runs live in a state database by default.
STATE_SCHEMA = "triad"


def user_environment(env: dict[str, str] | None = None, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment (this process's by default) without TRIAD_* settings and API keys, plus the test
    state URL, the test home, the test request rate and `env`."""
    environ = dict(os.environ) if environ is None else environ
    base = {k: v for k, v in environ.items() if not k.startswith("TRIAD_") and k not in HOSTED_KEYS}
    base["TRIAD_REQUESTS_PER_SECOND"] = TEST_REQUESTS_PER_SECOND
    if environ.get(TEST_STATE_URL):
        base["TRIAD_STATE_URL"] = environ[TEST_STATE_URL]
        base[TEST_STATE_URL] = environ[TEST_STATE_URL]
    if environ.get(TEST_HOME):
        base["TRIAD_HOME"] = environ[TEST_HOME]
        base[TEST_HOME] = environ[TEST_HOME]
    return {**base, **(env or {})}


def state_connection(url: str, schema: str = STATE_SCHEMA, **kwargs: Any) -> psycopg.Connection[Any]:
    """A connection to a state database that sees triad's tables as runs do (in `schema`)."""
    return psycopg.connect(in_schema(url, schema), **kwargs)


def run_cli(
    module: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m module args` as a user would, to its end, in this process (see the module's docstring)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    main = importlib.import_module(module).main
    with user_session(env, cwd or REPO_ROOT), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        try:
            if asyncio._get_running_loop() is None:
                main(list(args))
            else:  # a caller's event loop (a browser driver's) runs here: the command gets a thread of its own
                with concurrent.futures.ThreadPoolExecutor(1) as thread:
                    thread.submit(main, list(args)).result()
        except SystemExit as stop:
            code = stop.code
    configure_logging(level="warning")  # the command bound its log to the captured stderr; the tests' own again
    if isinstance(code, str):  # sys.exit("message") prints the message and exits with 1
        stderr.write(code + "\n")
        code = 1
    return subprocess.CompletedProcess([module, *args], code or 0, stdout.getvalue(), stderr.getvalue())


@contextlib.contextmanager
def user_session(env: dict[str, str] | None, cwd: Path) -> Iterator[None]:
    """This process's environment and working folder as a user's command has them, restored afterwards."""
    saved, here = dict(os.environ), Path.cwd()
    os.environ.clear()
    os.environ.update(user_environment(env, saved))
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(saved)


def run_process(
    module: str, *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m module args` as a process of its own, to its end."""
    return run_python(["-m", module, *args], env=env, cwd=cwd)


def run_script(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run a script under scripts/ as a user would, from the repository root."""
    return run_python([f"scripts/{script}", *args])


def run_python(
    argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        env=user_environment(env),
        cwd=cwd or REPO_ROOT,
        timeout=600,
    )


def start_run(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    """`python -m graph.run args` in the background, for a test that interrupts or joins it."""
    return subprocess.Popen(
        [sys.executable, "-m", "graph.run", *args],
        cwd=REPO_ROOT,
        env=user_environment(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """The command ended with exit code 2 and exactly one `error:` line, its last, holding each fragment."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if line.startswith("error: ")]
    assert errors == lines[-1:], result.stderr
    assert "Traceback" not in result.stderr
    for fragment in fragments:
        assert fragment in errors[0]


def create_store_table(url: str, name: str, dimension: int) -> None:
    """An empty table in langchain-postgres' PGVectorStore layout."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f'CREATE TABLE IF NOT EXISTS "{name}" (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,'
            f" embedding vector({dimension}) NOT NULL, langchain_metadata JSON)"
        )


def done_samples(url: str, run_id: str) -> int:
    """Finished samples of a run, as its state database has them."""
    with state_connection(url) as conn:
        if conn.execute("SELECT to_regclass('triad_samples')").fetchone()[0] is None:  # type: ignore[index]
            return 0
        row = conn.execute(
            "SELECT count(*) FROM triad_samples WHERE run_id = %s AND status = 'done'", (run_id,)
        ).fetchone()
    return int(row[0]) if row else 0


def wait_for(condition: Callable[[], bool], timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def check_run_outputs(folder: Path, url: str, run_id: str, count: int) -> list[DatasetRecord]:
    """A finished run's files: `count` distinct valid records, the same the state database holds, seeds unique."""
    lines = (folder / "dataset.jsonl").read_text().splitlines()
    records = [DatasetRecord.model_validate_json(line) for line in lines]
    assert len(records) == count
    assert len({r.id for r in records}) == count
    assert len({r.question.casefold() for r in records}) == count
    for line in (folder / "rejected.jsonl").read_text().splitlines():
        json.loads(line)
    with state_connection(url) as conn:
        accepted = {
            row[0]["id"]
            for row in conn.execute(
                "SELECT record FROM triad_samples WHERE run_id = %s AND outcome = 'accepted'", (run_id,)
            ).fetchall()
        }
        seeds = conn.execute(
            "SELECT count(*), count(DISTINCT chunk_id) FROM triad_seeds WHERE run_id = %s", (run_id,)
        ).fetchone()
    assert accepted == {r.id for r in records}
    assert seeds is not None and seeds[0] == seeds[1]
    return records
