"""Stores as users have them: SQLAlchemy URLs, passwords kept out of every message, wrong dimensions, privileges."""

from __future__ import annotations

import json

import psycopg
import pytest

from graph.testing.commands import assert_one_line_error, run_cli, state_connection

SCRIPTED = "import:graph.scripted:plausible_model"
CANARY = "CANARY-pw-5e1f"


def one_sample(url: str, collection: str, *extra: str, runs: str) -> list[str]:
    return [
        "--collection", collection, "--count", "1", "--types", "comparison", "--binary", "no",
        "--llm", SCRIPTED, "--dedup-threshold", "0", "--database-url", url, "--runs-dir", runs, *extra,
    ]  # fmt: skip


def test_a_sqlalchemy_url_is_taken_as_langchain_postgres_configs_write_it(pg_url, demo_slice, tmp_path) -> None:
    sqlalchemy_url = pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
    result = run_cli("graph.run", *one_sample(sqlalchemy_url, demo_slice, runs=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert "accepted             1" in result.stdout


@pytest.mark.parametrize(
    ("command", "url"),
    [
        ("graph.run", f"postgresql+psycopg://reader:{CANARY}@127.0.0.1:9/rag"),
        ("graph.run", f"postgresql://reader:{CANARY}@127.0.0.1:notaport/rag"),
        ("graph.run", f"host=127.0.0.1 port=9 user=reader password={CANARY}"),
        ("graph.ingest", f"postgresql+asyncpg://reader:{CANARY}@127.0.0.1:9/rag"),
        ("graph.replay", f"postgresql+psycopg2://reader:{CANARY}@127.0.0.1:9/rag"),
    ],
)
def test_no_error_prints_the_password(command: str, url: str, tmp_path) -> None:
    (tmp_path / "a.txt").write_text("some text about replication slots " * 20)
    args = {
        "graph.run": ["--collection", "docs", "--llm", SCRIPTED, "--database-url", url, "--runs-dir", str(tmp_path)],
        "graph.ingest": [str(tmp_path / "a.txt"), "--collection", "docs", "--database-url", url],
        "graph.replay": ["some-run", "--list", "--state-url", url],
    }[command]
    result = run_cli(command, *args)
    assert_one_line_error(result, "cannot connect")
    assert CANARY not in result.stdout + result.stderr


def test_an_embedding_of_another_dimension_stops_a_run_before_it_begins(pg_url, tmp_path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            'CREATE TABLE IF NOT EXISTS "dim8" (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,'
            " embedding vector(8) NOT NULL, langchain_metadata JSON)"
        )
        for n in range(6):
            vector = "[" + ",".join(str((n + i) % 5 + 1) for i in range(8)) + "]"
            conn.execute(
                "INSERT INTO dim8 VALUES (gen_random_uuid(), %s, %s::vector, '{}') ON CONFLICT DO NOTHING",
                (f"Chunk {n} about the replication slot settings of a server. " * 8, vector),
            )
    result = run_cli("graph.run", *one_sample(pg_url, "dim8", "--run-id", "dim8-run", runs=str(tmp_path)))
    assert_one_line_error(result, "stores 8-d embeddings but the embedding model gives 384-d", "--embedding")
    assert not (tmp_path / "dim8-run").exists()
    with state_connection(pg_url) as conn:
        registered = conn.execute("SELECT count(*) FROM triad_runs WHERE run_id = 'dim8-run'").fetchone()
    assert registered == (0,)


def test_a_table_the_role_may_not_read_is_named_as_a_missing_privilege(pg_url, demo_slice, tmp_path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS triad_no_select")
        conn.execute("CREATE ROLE triad_no_select LOGIN")
    no_select_url = pg_url.replace("postgresql://postgres:", "postgresql://triad_no_select:", 1)
    result = run_cli("graph.run", *one_sample(no_select_url, demo_slice, runs=str(tmp_path)), "--state-url", pg_url)
    assert_one_line_error(result, f"permission denied on public.{demo_slice}", "grant SELECT")


def test_chunks_without_an_embedding_are_left_out_with_a_note_and_a_resume_works(pg_url, demo_slice, tmp_path):
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute(
            'CREATE TABLE IF NOT EXISTS "with_pending" (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,'
            " embedding vector(384), langchain_metadata JSON)"
        )
        conn.execute(f'INSERT INTO with_pending SELECT * FROM "{demo_slice}" ON CONFLICT DO NOTHING')
        pending = [
            row[0]
            for row in conn.execute(
                "INSERT INTO with_pending SELECT gen_random_uuid(), content || ' (a later version)', NULL,"
                f' langchain_metadata FROM "{demo_slice}" ORDER BY langchain_id LIMIT 5 RETURNING langchain_id::text'
            ).fetchall()
        ]
    args = one_sample(pg_url, "with_pending", "--run-id", "pending-run", "--seed", "4", runs=str(tmp_path))
    first = run_cli("graph.run", *args)
    assert first.returncode == 0, first.stderr
    assert "note: 5 chunk(s) of 'with_pending' have no embedding (pending or failed embedding jobs)" in first.stderr
    used = set()
    for line in (tmp_path / "pending-run" / "dataset.jsonl").read_text().splitlines():
        record = json.loads(line)
        used |= {c["id"] for c in record["supporting"]} | {c["id"] for c in record["contexts"]}
    assert used and not used & set(pending)
    again = run_cli("graph.run", "--resume", "pending-run", "--database-url", pg_url, "--runs-dir", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert "continuing run pending-run" in again.stderr
