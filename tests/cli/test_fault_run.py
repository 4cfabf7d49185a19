"""The fault runner itself: a few SIGKILLs of a real run, then its end-of-run checks and figures."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.commands import run_script


def test_fault_runner_kills_resumes_and_finds_nothing_lost(pg_url: str, scale_collection: str, tmp_path: Path) -> None:
    figures_file = tmp_path / "figures.json"
    result = run_script(
        "fault_run.py", "--kills", "3", "--count", "8", "--concurrency", "4", "--latency-ms", "300",
        "--kill-after", "3", "5", "--collection", scale_collection,
        # The types whose cells rarely hit their attempt caps on this small collection (as in test_scale).
        "--types", "comparison,intersection",
        "--database-url", pg_url, "--work-dir", str(tmp_path / "work"), "--json", str(figures_file),
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    figures = json.loads(figures_file.read_text())
    assert figures["kills"] == 3
    assert all(figures["checks"].values()), figures["checks"]
    assert figures["accepted_in_dataset"] == figures["accepted_in_database"] == 8
    assert figures["calls_sent"] >= figures["calls_used_by_finished_samples"] > 0
    assert figures["calls_wasted_by_crashes"] == figures["calls_sent"] - figures["calls_used_by_finished_samples"]
    assert "wasted by the crashes" in result.stdout
