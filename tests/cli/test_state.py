"""Where runs keep their state: out of the user's store by default, in a schema of triad's own, found again."""

from __future__ import annotations

from pathlib import Path

import psycopg

from tests.support.commands import assert_one_line_error, run_cli, state_connection

SCRIPTED = "offline:plausible"

#: Every table a run keeps: triad's own and LangGraph's checkpoint tables.
STATE_TABLES = {
    "triad_runs", "triad_samples", "triad_seeds", "triad_questions",
    "checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations",
}  # fmt: skip


def one_sample(url: str, collection: str, run_id: str, runs: Path, *extra: str) -> list[str]:
    return [
        "--collection", collection, "--count", "1", "--types", "comparison", "--binary", "no", "--llm", SCRIPTED,
        "--dedup-threshold", "0", "--database-url", url, "--run-id", run_id, "--runs-dir", str(runs), *extra,
    ]  # fmt: skip


def runs_named(url: str, run_id: str) -> list[str]:
    """The schemas of this database holding a run called `run_id`."""
    found = []
    with psycopg.connect(url) as conn:
        for (schema,) in conn.execute(
            "SELECT table_schema FROM information_schema.tables WHERE table_name = 'triad_runs'"
        ).fetchall():
            query = f'SELECT 1 FROM "{schema}".triad_runs WHERE run_id = %s'
            if conn.execute(query, (run_id,)).fetchone():  # type: ignore[arg-type]
                found.append(schema)
    return found


def tables_in(url: str, schema: str) -> set[str]:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = %s", (schema,))
        return {row[0] for row in rows.fetchall()}


def test_a_store_elsewhere_keeps_no_state_of_triad(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    """A SELECT-only role and no --state-url: the run keeps its state in the embedded database."""
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS triad_only_select")
        conn.execute("CREATE ROLE triad_only_select LOGIN")
        conn.execute(f'GRANT SELECT ON "{demo_slice}" TO triad_only_select')
    reader = pg_url.replace("postgresql://postgres:", "postgresql://triad_only_select:", 1)
    home = {"TRIAD_HOME": str(tmp_path / "home"), "TRIAD_STATE_URL": ""}  # no state URL: the default
    try:
        result = run_cli("graph.run", *one_sample(reader, demo_slice, "elsewhere", tmp_path), env=home)
        assert result.returncode == 0, result.stderr
        assert runs_named(pg_url, "elsewhere") == []
        embedded = run_cli("graph.db", "start", env=home).stdout.strip()
        assert runs_named(embedded, "elsewhere") == ["triad"]
        assert tables_in(embedded, "triad") >= STATE_TABLES
        again = run_cli("graph.replay", "elsewhere", "--list", env=home)
        assert again.returncode == 0, again.stderr
    finally:
        assert run_cli("graph.db", "stop", env=home).returncode == 0


def test_in_the_stores_database_runs_keep_to_a_schema_of_their_own(pg_url: str, demo_slice: str, tmp_path: Path):
    args = one_sample(pg_url, demo_slice, "own-schema", tmp_path, "--state-url", pg_url, "--state-schema", "rag_eval")
    result = run_cli("graph.run", *args)
    assert result.returncode == 0, result.stderr
    assert runs_named(pg_url, "own-schema") == ["rag_eval"]
    assert tables_in(pg_url, "rag_eval") >= STATE_TABLES
    with state_connection(pg_url, "rag_eval") as conn:
        assert conn.execute("SELECT count(*) FROM checkpoints").fetchone()[0] > 0  # type: ignore[index]


def test_a_role_that_may_not_create_the_state_is_told_to_pass_a_state_url(pg_url: str, demo_slice: str, tmp_path):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS triad_state_reader")
        conn.execute("CREATE ROLE triad_state_reader LOGIN")
        conn.execute(f'GRANT SELECT ON "{demo_slice}" TO triad_state_reader')
    reader = pg_url.replace("postgresql://postgres:", "postgresql://triad_state_reader:", 1)
    args = one_sample(
        reader, demo_slice, "read-only", tmp_path, "--state-url", reader, "--state-schema", "reader_state"
    )
    result = run_cli("graph.run", *args)
    assert_one_line_error(result, "cannot create schema 'reader_state'", "permission denied", "--state-url")


def test_a_run_is_found_in_the_schema_it_was_kept_in(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS public_layout")
        conn.execute("CREATE DATABASE public_layout")
    elsewhere = pg_url.replace("/postgres?", "/public_layout?", 1)
    made = run_cli("graph.run", *one_sample(pg_url, demo_slice, "public-run", tmp_path, "--state-url", elsewhere,
                                            "--state-schema", "public"))  # fmt: skip
    assert made.returncode == 0, made.stderr
    missing = run_cli("graph.replay", "public-run", "--list", "--state-url", elsewhere)
    assert_one_line_error(missing, "no run 'public-run'", "--state-schema")
    found = run_cli("graph.replay", "public-run", "--list", "--state-url", elsewhere, "--state-schema", "public")
    assert found.returncode == 0, found.stderr
