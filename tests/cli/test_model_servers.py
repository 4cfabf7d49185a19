"""Runs and the preflight against local model servers as they really answer (tests.support.stubs.openai_compatible):
llama-cpp-python (500 on json_schema, raw newlines and nulls), a text-only server, one that refuses every mode,
one with a context too small for triad's prompts, and the recipes of docs/models.md."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from graph.running.failures import FAILED_ALIKE
from graph.seeding.seeds import SEED_BATCH
from tests.support.commands import REPO_ROOT, assert_one_line_error, run_cli, state_connection
from tests.support.stubs.ollama import ollama_stub
from tests.support.stubs.openai_compatible import PROFILES, compatible_stub
from tests.support.stubs.server import StubState


def run_against(url: str, pg_url: str, collection: str, runs: Path, *extra: str) -> tuple[int, str, dict | None]:
    """`graph.run` with every role on the local server; its exit code, stderr and run.json (None when absent)."""
    result = run_cli(
        "graph.run", "--collection", collection, "--dedup-threshold", "0", "--database-url", pg_url,
        "--runs-dir", str(runs), "--seed", "3", "--no-llm-cache", "--llm", "openai:local", "--llm-base-url", url,
        *extra,
    )  # fmt: skip
    run_json = runs / runs.name / "run.json"
    return result.returncode, result.stderr, json.loads(run_json.read_text()) if run_json.is_file() else None


def forms(state: StubState) -> list[str]:
    """How each request asked for structured output."""
    return [
        (body.get("response_format") or {}).get("type") or ("tool" if body.get("tools") else "text")
        for body in state.requests
    ]


def test_a_run_against_llama_cpp_python_pays_one_refusal_and_names_the_mode(pg_url, demo_slice, tmp_path) -> None:  # noqa: ANN001
    state = StubState()
    runs = tmp_path / "llama"
    with compatible_stub(state, PROFILES["llama_cpp_python"]) as url:
        code, stderr, document = run_against(url, pg_url, demo_slice, runs, "--count", "2", "--run-id", "llama")
        assert code == 0, stderr
        assert forms(state).count("json_schema") == 1  # refused once; every later call asks in json_object
        assert set(forms(state)) == {"json_schema", "json_object"} and state.errors == []
        assert document is not None and document["funnel"]["accepted"] == 2 and document["funnel"]["failed"] == 0
        server = f"openai:local at {url}"
        assert document["structured_output"] == {server: "json_object"}
        assert document["manifest"]["structured_output"] == {server: "json_object"}
        assert "model generator" in stderr and "json_object" in stderr  # the preflight's lines
        assert ", a call takes generator " in stderr  # the progress line's mean latency per role
        assert document["funnel"]["llm"]["per_node"]["preflight"]["calls"] == 1  # one call for the three roles
        with state_connection(pg_url) as conn:
            kept = conn.execute("SELECT model_modes FROM triad_runs WHERE run_id = 'llama'").fetchone()
        assert kept is not None and kept[0] == {server: "json_object"}
        # A resume (or another worker) knows the mode: its preflight asks in json_object straight away.
        before = len(state.requests)
        again = run_cli(
            "graph.run", "--resume", "llama", "--database-url", pg_url, "--runs-dir", str(runs),
            "--llm", "openai:local", "--llm-base-url", url, "--no-llm-cache",
        )  # fmt: skip
        assert again.returncode == 0, again.stderr
        assert forms(state)[before:] == ["json_object"]


def test_a_text_only_server_answers_in_text_read_from_prose_and_fences(pg_url, demo_slice, tmp_path) -> None:  # noqa: ANN001
    state = StubState()
    runs = tmp_path / "text"
    with compatible_stub(state, PROFILES["text_only"]) as url:
        code, stderr, document = run_against(url, pg_url, demo_slice, runs, "--count", "2", "--run-id", "text")
    assert code == 0, stderr
    assert document is not None and document["funnel"]["accepted"] == 2
    assert document["structured_output"] == {f"openai:local at {url}": "text"}
    assert forms(state)[:3] == ["json_schema", "json_object", "tool"] and set(forms(state)[3:]) == {"text"}


def test_a_server_that_refuses_every_mode_stops_the_run_before_it_is_begun(pg_url, demo_slice, tmp_path) -> None:  # noqa: ANN001
    state = StubState()
    runs = tmp_path / "refused"
    with compatible_stub(state, PROFILES["refusing"]) as url:
        code, stderr, document = run_against(url, pg_url, demo_slice, runs, "--count", "2", "--run-id", "refused")
    assert code == 1 and document is None
    lines = stderr.strip().splitlines()
    assert lines[-1].startswith("error: ") and "refused every structured-output mode" in lines[-1]
    assert "--structured-output" in lines[-1] and "Traceback" not in stderr
    assert len(state.requests) == 4  # each mode once, for the three roles together: then nothing more is sent
    # Fixed (another server), the same command makes the run.
    working = StubState()
    with compatible_stub(working, PROFILES["llama_server"]) as url:
        code, stderr, document = run_against(url, pg_url, demo_slice, runs, "--count", "2", "--run-id", "refused")
    assert code == 0, stderr
    assert document is not None and document["funnel"]["accepted"] == 2


def test_a_run_whose_first_samples_all_fail_alike_stops_releases_them_and_resumes(pg_url, demo_slice, tmp_path) -> None:  # noqa: ANN001
    small = StubState()
    runs = tmp_path / "small"
    with compatible_stub(small, PROFILES["small_context"]) as url:
        code, stderr, document = run_against(
            url, pg_url, demo_slice, runs, "--count", "4", "--concurrency", "2", "--run-id", "small"
        )
    assert code == 1, stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("error: the first 5 samples that reached a model all failed on the same error")
    assert "maximum context length is 400 tokens" in last and "--resume small" in last
    with state_connection(pg_url) as conn:
        samples = conn.execute("SELECT count(*) FROM triad_samples WHERE run_id = 'small'").fetchone()
        seeds = conn.execute("SELECT count(*) FROM triad_seeds WHERE run_id = 'small'").fetchone()
    assert samples == (0,)  # released: they count against no cap
    # Their seeds can be drawn again; what is left is the seed pool's batch drawn ahead and not used yet.
    assert seeds is not None and seeds[0] <= SEED_BATCH - FAILED_ALIKE
    assert (runs / "small" / "rejected.jsonl").read_text() == ""
    working = StubState()
    with compatible_stub(working, PROFILES["llama_cpp_python"]) as url:
        resumed = run_cli(
            "graph.run", "--resume", "small", "--database-url", pg_url, "--runs-dir", str(runs),
            "--llm", "openai:local", "--llm-base-url", url, "--no-llm-cache",
        )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    document = json.loads((runs / "small" / "run.json").read_text())
    assert document["funnel"]["accepted"] == 4 and document["funnel"]["failed"] == 0


#: The recipes' servers (docs/models.md) and the stub profile and mode each one answers in.
RECIPES = {
    "Ollama": ("ollama", "json_schema"),
    "vLLM": ("vllm", "json_schema"),
    "llama.cpp llama-server": ("llama_server", "json_object"),
    "llama-cpp-python": ("llama_cpp_python", "json_object"),
    "LM Studio": ("lm_studio", "json_schema"),
}


def documented_recipes() -> dict[str, list[str]]:
    """The `python -m graph.run` flags of each recipe in docs/models.md, by the server its comment names."""
    section = (REPO_ROOT / "docs" / "models.md").read_text().split("## Local and on-prem model servers", 1)[1]
    recipes, server = {}, None
    for line in section.splitlines():
        if line.startswith("# "):
            server = line[2:].split(":")[0].split(" (")[0]
        elif line.startswith("python -m graph.run") and server is not None:
            recipes[server] = shlex.split(line)[3:]
    return recipes


def with_flag(flags: list[str], name: str, value: str) -> list[str]:
    at = flags.index(name)
    return [*flags[:at], name, value, *flags[at + 2 :]]


def test_every_documented_recipe_has_a_server_stub() -> None:
    assert set(documented_recipes()) == set(RECIPES)


@pytest.mark.parametrize("server", list(RECIPES))
def test_each_recipe_of_the_docs_runs_against_its_server(server: str, pg_url, demo_slice, tmp_path) -> None:  # noqa: ANN001
    profile, mode = RECIPES[server]
    state = StubState()
    stub = ollama_stub(state) if profile == "ollama" else compatible_stub(state, PROFILES[profile])
    with stub as url:
        flags = documented_recipes()[server]
        for name, value in (("--collection", demo_slice), ("--count", "2"), ("--llm-base-url", url)):
            flags = with_flag(flags, name, value)
        result = run_cli(
            "graph.run", *flags, "--database-url", pg_url, "--runs-dir", str(tmp_path), "--run-id", f"recipe-{profile}",
            "--seed", "3", "--dedup-threshold", "0", "--no-llm-cache",
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    document = json.loads((tmp_path / f"recipe-{profile}" / "run.json").read_text())
    assert document["funnel"]["accepted"] == 2 and document["funnel"]["failed"] == 0
    assert list(document["structured_output"].values()) == [mode]
    assert state.errors == []
    if profile != "ollama":  # the mode the recipe names is asked for from the first call: nothing refused
        assert set(forms(state)) == {mode}


@pytest.mark.parametrize(("profile", "mode"), [("llama_cpp_python", "json_object"), ("text_only", "text")])
def test_the_preflight_names_each_roles_model_mode_latency_and_tokens(profile: str, mode: str) -> None:
    state = StubState()
    with compatible_stub(state, PROFILES[profile]) as url:
        result = run_cli(
            "graph.preflight", "--llm", "openai:local", "--validator-model", "openai:judge", "--llm-base-url", url
        )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert [line.split()[0] for line in lines] == ["generator", "extractor", "validator"]
    assert all(f": {mode}, " in line and " s, " in line and " tokens" in line for line in lines)
    assert "one call for generator, extractor" in lines[0] and f"openai:judge at {url}" in lines[2]


@pytest.mark.parametrize(
    ("profile", "fragment"),
    [
        ("refusing", "refused every structured-output mode"),
        ("unknown_model", "did not answer a small structured request"),
    ],
)
def test_a_preflight_that_fails_is_one_line_naming_the_fix(profile: str, fragment: str) -> None:
    with compatible_stub(StubState(), PROFILES[profile]) as url:
        result = run_cli("graph.preflight", "--llm", "openai:local", "--llm-base-url", url)
    assert_one_line_error(result, fragment)


def test_an_unreachable_server_and_a_missing_key_fail_the_preflight_in_one_line() -> None:
    unreachable = run_cli("graph.preflight", "--llm", "openai:local", "--llm-base-url", "http://127.0.0.1:9/v1")
    assert_one_line_error(unreachable, "cannot reach openai:local", "--llm-base-url")
    assert_one_line_error(run_cli("graph.preflight"), "no Gemini API key: set GOOGLE_API_KEY")
    recorded = run_cli("graph.preflight", "--llm", "recorded:graph/demo/recorded_calls.jsonl")
    assert recorded.returncode == 0 and "nothing to check" in recorded.stdout


def test_a_bad_structured_output_value_is_one_line() -> None:
    result = run_cli("graph.preflight", "--llm", "openai:local", "--structured-output", "generator=grammar")
    assert_one_line_error(result, "grammar", "json_object")
