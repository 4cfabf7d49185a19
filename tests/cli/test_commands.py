"""The commands as a user runs them: help, ingestion, the embedded server, and one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from tests.support.commands import REPO_ROOT, assert_one_line_error, create_store_table, run_cli, run_process
from tests.support.documents import MIXED_FOLDER_SOURCES, encrypted_pdf, mixed_folder

UNREACHABLE = "postgresql://nobody@127.0.0.1:9/none"


@pytest.mark.parametrize(
    "module",
    [
        "graph.run",
        "graph.ingest",
        "graph.db",
        "graph.replay",
        "graph.evaluate",
        "graph.export",
        "graph.review",
        "graph.check",
        "graph.refresh",
    ],
)
def test_every_command_has_help(module: str) -> None:
    """Each command starts as a process of its own, as a user starts it."""
    result = run_process(module, "--help")
    assert result.returncode == 0
    assert "usage: python -m " + module in result.stdout


def test_run_help_lists_the_run_options() -> None:
    out = run_cli("graph.run", "--help").stdout
    for option in ("--count", "--collection", "--demo", "--types", "--hops", "--database-url", "--llm"):
        assert option in out


def test_ingest_a_folder_of_documents_names_the_unreadable_one_then_has_nothing_to_do(
    pg_url: str, tmp_path: Path
) -> None:
    docs = mixed_folder(tmp_path / "docs")
    encrypted_pdf(docs / "fontconfig-user.pdf", docs / "locked.pdf")
    first = run_cli("graph.ingest", str(docs), "--collection", "cli_docs", "--database-url", pg_url)
    assert first.returncode == 0, first.stderr
    assert first.stderr.strip().splitlines() == [
        "skipped locked.pdf: is encrypted with a password; save an unencrypted copy (qpdf --decrypt) or remove it"
    ]
    assert "chunks written" in first.stdout
    assert "7 files read into" in first.stdout
    assert (
        "1 skipped (chunks stored from them before are kept): locked.pdf (is encrypted with a password)" in first.stdout
    )
    with psycopg.connect(pg_url) as conn:
        sources = {row[0] for row in conn.execute("SELECT langchain_metadata->>'source' FROM cli_docs")}
    assert sources == MIXED_FOLDER_SOURCES
    again = run_cli("graph.ingest", str(docs), "--collection", "cli_docs", "--database-url", pg_url)
    assert again.returncode == 0 and "nothing to do" in again.stdout


def test_unreachable_database_url_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("some text")
    result = run_cli("graph.ingest", str(tmp_path / "a.txt"), "--collection", "x", "--database-url", UNREACHABLE)
    assert_one_line_error(result, "cannot connect", "--database-url")


def test_unreadable_path_and_missing_collection_flag_are_one_line(pg_url: str, tmp_path: Path) -> None:
    assert_one_line_error(
        run_cli("graph.ingest", str(tmp_path / "nope"), "--collection", "x", "--database-url", pg_url), "does not exist"
    )
    (tmp_path / "a.txt").write_text("some text")
    assert_one_line_error(run_cli("graph.ingest", str(tmp_path / "a.txt"), "--database-url", pg_url), "--collection")


def test_wrong_embedding_dimension_is_one_line(pg_url: str, tmp_path: Path) -> None:
    create_store_table(pg_url, "cli_dim8", 8)
    (tmp_path / "a.txt").write_text("text about checkpoints")
    result = run_cli("graph.ingest", str(tmp_path / "a.txt"), "--collection", "cli_dim8", "--database-url", pg_url)
    assert_one_line_error(result, "8-d", "384-d", "--embedding")


def test_unknown_and_empty_collections_are_one_line_for_a_run(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    create_store_table(pg_url, "cli_empty", 384)
    offline_model = (
        "--llm",
        "openai:local-model",
        "--llm-base-url",
        "http://127.0.0.1:9/v1",
        "--runs-dir",
        str(tmp_path),
    )
    unknown = run_cli("graph.run", "--count", "1", "--collection", "nosuch", "--database-url", pg_url, *offline_model)
    assert_one_line_error(unknown, "'nosuch' not found", "demo_slice")
    empty = run_cli("graph.run", "--count", "1", "--collection", "cli_empty", "--database-url", pg_url, *offline_model)
    assert_one_line_error(empty, "'cli_empty' is empty", "graph.ingest")


def test_embedded_server_starts_once_is_shared_and_stops(tmp_path: Path) -> None:
    env = {"TRIAD_HOME": str(tmp_path / "home")}
    assert "not created" in run_cli("graph.db", "status", env=env).stdout
    starts = [
        subprocess.Popen(
            [sys.executable, "-m", "graph.db", "start"],
            env={**env, "PATH": "/usr/bin:/bin"},
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        outputs = [process.communicate(timeout=120) for process in starts]
        assert all(process.returncode == 0 for process in starts), outputs
        urls = {out.strip() for out, _ in outputs}
        assert len(urls) == 1 and urls.pop().startswith("postgresql://")
        status = run_cli("graph.db", "status", env=env).stdout
        assert "state: running" in status
        with psycopg.connect(status.split("url: ")[1].splitlines()[0]) as conn:
            assert conn.execute("SELECT extname FROM pg_extension WHERE extname = 'vector'").fetchone()
    finally:
        stopped = run_cli("graph.db", "stop", env=env)
    assert stopped.stdout.strip() == "stopped"
    assert "state: stopped" in run_cli("graph.db", "status", env=env).stdout


def test_the_triad_command_lists_the_commands_and_runs_each_with_its_own_help() -> None:
    """`triad` is installed with the package (`pip install -e .`) beside the interpreter."""
    triad = Path(sys.executable).parent / "triad"
    listing = subprocess.run([str(triad), "--help"], capture_output=True, text=True, timeout=60)
    assert listing.returncode == 0, listing.stderr
    for name in ("run", "review", "evaluate", "export", "check", "refresh", "ingest", "replay", "db"):
        assert f"\n  {name} " in listing.stdout
    same = subprocess.run([str(triad), "check", "--help"], capture_output=True, text=True, timeout=60)
    assert same.returncode == 0 and same.stdout == run_process("graph.check", "--help").stdout
    unknown = run_cli("graph.cli", "nosuch")
    assert unknown.returncode == 2 and "no command 'nosuch'; triad --help lists them" in unknown.stderr
