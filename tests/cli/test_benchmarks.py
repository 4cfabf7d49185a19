"""The benchmark scripts run end to end and print every figure (no timing is asserted)."""

from __future__ import annotations

import psycopg

from tests.support.commands import run_script


def test_run_benchmark_prints_each_figure_and_drops_its_state_database(pg_url: str, scale_collection: str) -> None:
    result = run_script(
        "bench_run.py", "--latency", "0.01", "--concurrency", "1", "2", "--count", "2", "--scale-count", "2",
        "--repeat", "2", "--database-url", pg_url, "--collection", scale_collection,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    figures = (
        "(a) overhead at concurrency 1",
        "from the first sample's start",
        "concurrency   2:",
        "with every lane busy",
        "the drain",
        "(c) per",
        "(d) with no",
    )
    for figure in figures:
        assert figure in result.stdout, result.stdout
    # Repeated runs: each figure is a median, followed by both runs' values.
    assert result.stdout.count("(runs: ") >= 5, result.stdout
    with psycopg.connect(pg_url) as conn:
        left = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'triad_bench_%'").fetchall()
    assert left == []


def test_files_benchmark_rewrites_each_run_size_and_drops_its_state_database(pg_url: str) -> None:
    result = run_script("bench_files.py", "--sizes", "20", "60", "--database-url", pg_url)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if line.split()[:1] in (["20"], ["60"])]
    assert [row[0] for row in rows] == ["20", "60"], result.stdout
    assert all(len(row) == 6 and all(float(value) >= 0 for value in row[1:]) for row in rows), result.stdout
    with psycopg.connect(pg_url) as conn:
        left = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'triad_bench_%'").fetchall()
    assert left == []


def test_limits_benchmark_prints_each_figure(pg_url: str, demo_slice: str) -> None:
    result = run_script(
        "bench_limits.py", "--count", "1", "--setting", "rpm=600", "--latency", "0.01",
        "--database-url", pg_url, "--collection", demo_slice,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    for figure in ("rpm = 600 per minute per model", "(a) steady-state use", "429s answered: 0", "(b) 1 accepted",
                   "(c) prompt characters repeated"):  # fmt: skip
        assert figure in result.stdout, result.stdout
