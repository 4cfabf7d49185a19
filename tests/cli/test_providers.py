"""Whole runs against local servers speaking Gemini's and Ollama's wire formats, as a user with a key runs them.

`python -m graph.run` with the default models (three Gemini models) talks to the Gemini stub through
`TRIAD_LLM_BASE_URL`; every structured-output request must pass the stub's schema checks, tokens
(cached and thinking ones included) and cost land in run.json, and per-minute quotas keep a
16-way run free of 429s.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from graph.llm.models import DEFAULT_PRICES
from nodes.run_context import DEFAULT_MODELS
from tests.support.commands import run_cli
from tests.support.stubs.gemini import gemini_stub
from tests.support.stubs.ollama import ollama_stub
from tests.support.stubs.server import StubState, Usage

KEY = "AIza-stub-key"


@pytest.fixture
def gemini() -> Iterator[tuple[StubState, str]]:
    state = StubState(usage=Usage(cached_tokens=64, thinking_tokens=30))
    with gemini_stub(state) as url:
        yield state, url


def run_on(url: str, collection: str, runs: Path, *extra: str, env: dict[str, str]) -> dict:
    """A new run (named after its folder, so each test makes its own) without the response cache."""
    result = run_cli(
        "graph.run", "--collection", collection, "--dedup-threshold", "0", "--database-url", url,
        "--runs-dir", str(runs), "--run-id", runs.name, "--seed", "3", "--no-llm-cache", *extra, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "continuing run" not in result.stderr
    return json.loads((runs / runs.name / "run.json").read_text())


def test_a_default_model_run_against_the_gemini_api_is_accepted_and_billed(pg_url, demo_slice, gemini, tmp_path):
    state, stub_url = gemini
    env = {"GOOGLE_API_KEY": KEY, "TRIAD_LLM_BASE_URL": stub_url}
    document = run_on(pg_url, demo_slice, tmp_path, "--count", "2", "--concurrency", "4", env=env)
    assert state.errors == [] and state.keys == {KEY}
    assert document["funnel"]["accepted"] == 2 and document["shortfall"] == {}
    assert document["models"] == DEFAULT_MODELS
    per_role = document["funnel"]["llm"]["per_role"]
    for role, totals in per_role.items():
        calls = totals["calls"]
        assert calls > 0 and totals["cached_tokens"] == 64 * calls and totals["thinking_tokens"] == 30 * calls
        price_in, price_out, *cached = DEFAULT_PRICES[DEFAULT_MODELS[role].partition(":")[2]]
        price_cached = cached[0] if cached else price_in
        fresh = totals["input_tokens"] - totals["cached_tokens"]
        expected = (
            fresh * price_in + totals["cached_tokens"] * price_cached + totals["output_tokens"] * price_out
        ) / 1e6
        assert totals["cost_usd"] == pytest.approx(expected)
        assert totals["thinking_cost_usd"] == pytest.approx(totals["thinking_tokens"] * price_out / 1e6)
    assert document["funnel"]["llm"]["cost_usd"] > 0
    records = [json.loads(line) for line in (tmp_path / tmp_path.name / "dataset.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(r["provenance"]["models"] == DEFAULT_MODELS for r in records)


def test_thinking_set_for_a_role_is_sent_and_kept_in_provenance(pg_url, demo_slice, gemini, tmp_path) -> None:
    state, stub_url = gemini
    env = {"GOOGLE_API_KEY": KEY, "TRIAD_LLM_BASE_URL": stub_url}
    run_on(pg_url, demo_slice, tmp_path, "--count", "1", "--thinking", "generator=0", "--thinking", "validator=high",
           env=env)  # fmt: skip
    configs = [request["generationConfig"].get("thinkingConfig") for request in state.requests]
    assert {"thinking_budget": 0} in configs and {"thinking_level": "HIGH"} in configs and None in configs
    record = json.loads((tmp_path / tmp_path.name / "dataset.jsonl").read_text().splitlines()[0])
    assert record["provenance"]["thinking"] == {"generator": "0", "validator": "high"}


def test_per_minute_quotas_keep_a_16_way_run_free_of_429s(pg_url, demo_slice, tmp_path, monkeypatch) -> None:
    # A "minute" of 6 s at the stub and in the run's limiter (a little longer there, as a real minute is):
    # the same waits, a tenth of the time.
    monkeypatch.setattr("graph.llm.limits.QUOTA_WINDOW_S", 6.1)
    state = StubState(limits=(120, 60_000), window_s=6.0)  # per model, as Gemini's quotas are
    with gemini_stub(state) as stub_url:
        # At the default request rate, as a user runs it (the tests' own rate would be a hundred times that).
        env = {"GOOGLE_API_KEY": KEY, "TRIAD_LLM_BASE_URL": stub_url, "TRIAD_REQUESTS_PER_SECOND": "10"}
        document = run_on(
            pg_url, demo_slice, tmp_path, "--count", "4", "--concurrency", "16",
            "--requests-per-minute", "120", "--tokens-per-minute", "60000", env=env,
        )  # fmt: skip
    assert state.refused == 0 and len(state.per_model) == 3
    assert document["funnel"]["accepted"] == 4
    assert document["funnel"]["llm"]["repeated_requests"] == 0
    # The extractor's model needed more than a window's quota, so the limiter had to hold requests back.
    assert document["funnel"]["llm"]["per_role"]["extractor"]["input_tokens"] > 60_000


def test_a_run_against_an_ollama_server(pg_url, demo_slice, tmp_path) -> None:
    state = StubState()
    with ollama_stub(state) as stub_url:
        document = run_on(
            pg_url, demo_slice, tmp_path, "--count", "2", "--llm", "ollama:llama3.1", "--llm-base-url", stub_url, env={}
        )
    assert state.errors == []
    assert all(request["format"]["type"] == "object" for request in state.requests)
    assert document["funnel"]["accepted"] == 2
    assert document["funnel"]["llm"]["per_role"]["extractor"]["input_tokens"] > 0
