"""The model factory resolves every provider string without touching the network."""

from __future__ import annotations

import sys

import pytest
from langchain_core.language_models import BaseChatModel

from graph.config.errors import UserError
from graph.llm.models import NO_KEY_MESSAGE, ModelSpec, make_chat_model, resolve_role_model, thinking_options
from graph.llm.modes import modes_to_try
from graph.llm.offline.scripted import ScriptedChatModel


def test_gemini_with_a_key_builds_the_gemini_client() -> None:
    from langchain_google_genai import ChatGoogleGenerativeAI

    model = make_chat_model("google_genai:gemini-2.5-flash", google_api_key="test-key")
    assert isinstance(model, ChatGoogleGenerativeAI)
    assert model.model.endswith("gemini-2.5-flash")


def test_gemini_without_a_key_says_how_to_set_one() -> None:
    with pytest.raises(UserError) as caught:
        make_chat_model("google_genai:gemini-2.5-flash")
    assert str(caught.value) == NO_KEY_MESSAGE
    assert "GOOGLE_API_KEY" in NO_KEY_MESSAGE and "--llm" in NO_KEY_MESSAGE


def test_openai_compatible_server_by_base_url() -> None:
    from langchain_openai import ChatOpenAI

    model = make_chat_model("openai:qwen2.5-7b-instruct", base_url="http://127.0.0.1:8000/v1")
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "qwen2.5-7b-instruct"
    assert str(model.openai_api_base).startswith("http://127.0.0.1:8000")
    assert model.max_retries == 0
    with pytest.raises(UserError, match="OPENAI_API_KEY"):
        make_chat_model("openai:gpt-4.1-mini")


@pytest.mark.parametrize(
    ("spec", "package"), [("ollama:llama3.1", "langchain-ollama"), ("anthropic:claude-x", "langchain-anthropic")]
)
def test_missing_optional_provider_packages_give_an_install_hint(spec: str, package: str) -> None:
    try:
        model = make_chat_model(spec)
    except UserError as error:
        assert f"pip install {package}" in str(error)
    else:  # the package happens to be installed
        assert isinstance(model, BaseChatModel)


@pytest.mark.parametrize(
    ("spec", "message"), [("gemini-2.5-flash", "provider:model"), ("nosuch:model", "unknown model provider")]
)
def test_malformed_and_unknown_specs_are_user_errors(spec: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        ModelSpec.parse(spec)


def test_instances_and_replay_files_resolve(tmp_path) -> None:  # noqa: ANN001
    scripted = ScriptedChatModel(script={})
    role = resolve_role_model("validator", scripted)
    assert role.chat_model is scripted
    assert modes_to_try(role.provider, role.chat_model, role.mode) == ("json_schema", "text")  # its own, then text
    replay = tmp_path / "calls.jsonl"
    replay.write_text("")
    assert resolve_role_model("generator", f"recorded:{replay}").recorded_file == replay
    with pytest.raises(UserError, match="recorded file .* not found"):
        resolve_role_model("generator", f"recorded:{tmp_path / 'missing.jsonl'}")


def test_provider_clients_time_out_when_the_settings_say(tmp_path) -> None:  # noqa: ANN001
    from graph.config.settings import resolve_settings
    from graph.llm.from_settings import build_gateway

    settings = resolve_settings(
        {
            "home": tmp_path,
            "generator_model": "google_genai:gemini-2.5-flash",
            "validator_model": "openai:qwen2.5-7b-instruct",
            "extractor_model": "openai:qwen2.5-7b-instruct",
            "llm_base_url": "http://127.0.0.1:8000/v1",
            "google_api_key": "test-key",
        },
        env={"TRIAD_REQUEST_TIMEOUT_SECONDS": "300"},
    )
    gateway = build_gateway(settings)
    assert gateway.retry.request_timeout_s == 300
    assert gateway.roles["generator"].chat_model.timeout == 300  # type: ignore[union-attr]
    assert gateway.roles["validator"].chat_model.request_timeout == 300  # type: ignore[union-attr]
    assert make_chat_model("google_genai:gemini-2.5-flash", google_api_key="k").timeout == 120  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("provider", "thinking", "options"),
    [
        ("google_genai", "0", {"thinking_budget": 0}),
        ("google_genai", "1024", {"thinking_budget": 1024}),
        ("google_genai", "Low", {"thinking_level": "low"}),
        ("openai", "high", {"reasoning_effort": "high"}),
        ("ollama", "false", {"reasoning": False}),
        ("ollama", "medium", {"reasoning": "medium"}),
        ("openai", None, {}),
    ],
)
def test_thinking_becomes_the_providers_own_option(provider: str, thinking: str | None, options: dict) -> None:
    assert thinking_options(provider, thinking) == options


@pytest.mark.parametrize(
    ("provider", "thinking", "message"),
    [("google_genai", "lots", "neither a token budget"), ("openai", "512", "takes no thinking '512'")],
)
def test_thinking_a_provider_cannot_take_is_named(provider: str, thinking: str, message: str) -> None:
    with pytest.raises(UserError, match=message):
        thinking_options(provider, thinking)


def test_the_offline_provider_answers_in_this_process_and_its_old_spec_still_works() -> None:
    from graph.llm.offline import plausible

    model = make_chat_model("offline:plausible")
    assert isinstance(model, ScriptedChatModel)
    assert resolve_role_model("generator", "offline:plausible").base_url is None
    with pytest.raises(UserError, match="no offline model 'nope'; use offline:plausible"):
        make_chat_model("offline:nope")
    sys.modules.pop("graph.testing.plausible", None)  # imported afresh, as by a run that names it
    with pytest.warns(FutureWarning, match=r"graph.testing.plausible is now graph.llm.offline.plausible"):
        old_model = make_chat_model("import:graph.testing.plausible:plausible_model")
    assert isinstance(old_model, ScriptedChatModel)
    assert sys.modules["graph.testing.plausible"] is plausible
