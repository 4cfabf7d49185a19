"""Contract test: the default provider against a local server speaking the Gemini API's wire format.

The stub (tests/support/stubs/gemini.py) checks each request's structured-output configuration and
refuses schema keywords the Gemini API does not take; it reports usage with cached and thinking
tokens, answers 429 RESOURCE_EXHAUSTED with a RetryInfo delay, 503 UNAVAILABLE, and candidates
that end with SAFETY or MAX_TOKENS.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

import state.schemas as schemas
from graph.config.errors import UserError
from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from graph.llm.models import gemini_schema
from nodes.ports import ModelCallFailed
from state.schemas import TemporalLabel
from tests.support.scripts import THOUGHT_FIRST
from tests.support.stubs.gemini import (
    gemini_error,
    gemini_finished,
    gemini_rate_limited,
    gemini_stub,
    unsupported_keywords,
)
from tests.support.stubs.server import Fault, StubState, Usage

KEY = "AIza-test-key"
MESSAGES = [SystemMessage("You label questions."), HumanMessage("Did the 2019 release come before the 2021 one? " * 8)]


def temporal_answer(title: str, messages: list) -> dict:  # noqa: ANN001
    assert title == "TemporalLabel"
    return {"temporal": True, "reason": "it orders two releases in time"}


@pytest.fixture
def stub() -> Iterator[tuple[StubState, str]]:
    state = StubState(answer=temporal_answer)
    with gemini_stub(state) as url:
        yield state, url


def gateway(url: str, **settings: object) -> LLMGateway:
    resolved = resolve_settings(
        {"llm": "google_genai:gemini-2.5-flash", "llm_base_url": url, "google_api_key": KEY, **settings},
        env={},  # type: ignore[dict-item]
    )
    built = build_gateway(resolved)
    built.retry = RetryPolicy(base_delay_s=0.01, max_delay_s=5.0, max_total_wait_s=20.0)
    return built


def ask(built: LLMGateway) -> tuple[TemporalLabel, dict]:
    return asyncio.run(built.ask("validator", TemporalLabel, MESSAGES, node="classify_temporal"))  # type: ignore[return-value]


def test_every_schema_triad_sends_is_one_gemini_takes() -> None:
    models = [
        cls
        for _, cls in inspect.getmembers(schemas, inspect.isclass)
        if issubclass(cls, BaseModel) and cls.__module__ == schemas.__name__
    ]
    assert len(models) >= 10
    refused = {cls.__name__: unsupported_keywords(gemini_schema(cls)) for cls in models}
    assert refused == {cls.__name__: [] for cls in models}
    # What is dropped is only what Gemini refuses: pydantic's own schema uses `default`, which the stub refuses.
    assert unsupported_keywords(schemas.TemporalLabel.model_json_schema())


def test_a_structured_call_with_cached_and_thinking_tokens_is_billed_as_gemini_bills_it(stub) -> None:  # noqa: ANN001
    state, url = stub
    state.usage = Usage(cached_tokens=40, thinking_tokens=25)
    answer, record = ask(gateway(url))
    assert answer.temporal is True and state.errors == [] and state.keys == {KEY}
    config = state.requests[0]["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["title"] == "TemporalLabel"
    assert record["cached_tokens"] == 40 and record["thinking_tokens"] == 25
    fresh = record["input_tokens"] - 40
    candidates = record["output_tokens"] - 25  # output tokens include the thinking tokens
    assert candidates > 0 and fresh > 0
    # gemini-2.5-flash: 0.30 input, 0.03 cached input, 2.50 output (thinking included) per million tokens.
    expected = (fresh * 0.30 + 40 * 0.03 + (candidates + 25) * 2.50) / 1e6
    assert record["cost_usd"] == pytest.approx(expected)
    assert record["thinking_cost_usd"] == pytest.approx(25 * 2.50 / 1e6)


def test_a_cached_price_given_in_triad_toml_is_used(stub) -> None:  # noqa: ANN001
    state, url = stub
    state.usage = Usage(cached_tokens=30)
    _, record = ask(gateway(url, prices={"gemini-2.5-flash": (1.0, 2.0, 0.5)}))
    expected = ((record["input_tokens"] - 30) * 1.0 + 30 * 0.5 + record["output_tokens"] * 2.0) / 1e6
    assert record["cost_usd"] == pytest.approx(expected)


def test_resource_exhausted_waits_the_retry_delay_and_unavailable_is_retried(stub) -> None:  # noqa: ANN001
    state, url = stub
    state.faults = [gemini_rate_limited(1.5), Fault(503, gemini_error(503, "UNAVAILABLE", "The model is overloaded."))]
    started = time.monotonic()
    answer, record = ask(gateway(url))
    assert answer.temporal is True and record["attempts"] == 3 and len(state.requests) == 3
    assert time.monotonic() - started >= 1.5  # RetryInfo's delay, not the 10 ms backoff


def test_a_withheld_reply_fails_the_call_without_a_re_ask(stub) -> None:  # noqa: ANN001
    state, url = stub
    for reason in ("SAFETY", "RECITATION", "PROHIBITED_CONTENT"):
        state.faults, state.requests = [gemini_finished(reason)], []
        with pytest.raises(ModelCallFailed, match=f"withheld by the provider \\(finish reason {reason}\\)"):
            ask(gateway(url))
        assert len(state.requests) == 1


def test_a_cut_off_reply_is_asked_again_once_then_fails(stub) -> None:  # noqa: ANN001
    state, url = stub
    state.faults = [gemini_finished("MAX_TOKENS", '{"temporal": tr'), gemini_finished("MAX_TOKENS", '{"temp')]
    with pytest.raises(ModelCallFailed, match="cut off \\(finish reason MAX_TOKENS\\)"):
        ask(gateway(url))
    assert len(state.requests) == 2
    state.faults, state.requests = [gemini_finished("MAX_TOKENS", '{"temporal": tr')], []
    answer, _ = ask(gateway(url))  # one cut-off, then a whole reply
    assert answer.temporal is True and len(state.requests) == 2


def test_thinking_per_role_goes_on_the_wire_as_gemini_takes_it(stub) -> None:  # noqa: ANN001
    state, url = stub
    built = gateway(url, thinking={"validator": "0"})
    ask(built)
    assert state.requests[-1]["generationConfig"]["thinkingConfig"] == {"thinking_budget": 0}
    ask(gateway(url, llm="google_genai:gemini-3.1-flash-lite-preview", thinking={"validator": "low"}))
    assert state.requests[-1]["generationConfig"]["thinkingConfig"] == {"thinking_level": "LOW"}
    with pytest.raises(UserError, match="takes a thinking budget"):  # 2.5 models take budgets, not levels
        gateway(url, thinking={"validator": "low"})
    ask(gateway(url))  # none given: the provider's own default, nothing sent
    assert "thinkingConfig" not in state.requests[-1]["generationConfig"]


def test_a_base_url_for_one_role_only(stub) -> None:  # noqa: ANN001
    state, url = stub
    built = gateway("http://127.0.0.1:9", base_urls={"validator": url})
    answer, _ = ask(built)
    assert answer.temporal is True and len(state.requests) == 1


@pytest.mark.parametrize("title", sorted(THOUGHT_FIRST))
def test_the_schema_sent_asks_for_the_plan_or_reasoning_first_and_requires_every_field(stub, title: str) -> None:  # noqa: ANN001
    state, url = stub
    first, reply = THOUGHT_FIRST[title]
    state.answer = lambda asked, messages: reply
    asyncio.run(gateway(url).ask("validator", getattr(schemas, title), MESSAGES, node="judge_quality"))
    sent = state.requests[-1]["generationConfig"]["responseJsonSchema"]
    assert list(sent["properties"])[0] == first
    assert sent["required"] == list(sent["properties"])
