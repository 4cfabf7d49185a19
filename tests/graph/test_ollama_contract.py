"""Contract test: the `ollama:` provider against a local server speaking Ollama's /api/chat wire format.

Structured output goes as `format` with the JSON schema; usage comes back as prompt_eval_count and
eval_count; a 500 is retried; a reply cut off at the output limit (`done_reason: length`) is asked
again once; a thinking setting goes as `think`.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from langchain_core.messages import HumanMessage

import state.schemas as schemas
from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.llm.limits import RetryPolicy
from nodes.ports import ModelCallFailed
from state.schemas import TemporalLabel
from tests.support.scripts import THOUGHT_FIRST
from tests.support.stubs.ollama import ollama_stub
from tests.support.stubs.server import Fault, StubState, approx_tokens

MESSAGES = [HumanMessage("Did the 2019 release come before the 2021 one? " * 8)]


def cut_off(text: str) -> Fault:
    body = {"model": "llama3.1", "message": {"role": "assistant", "content": text}, "done": True,
            "done_reason": "length", "prompt_eval_count": 40, "eval_count": 5}  # fmt: skip
    return Fault(200, body)


@pytest.fixture
def stub() -> Iterator[tuple[StubState, str]]:
    state = StubState(answer=lambda title, messages: {"temporal": True, "reason": "it orders two releases"})
    with ollama_stub(state) as url:
        yield state, url


def gateway(url: str, **settings: object) -> LLMGateway:
    built = build_gateway(resolve_settings({"llm": "ollama:llama3.1", "llm_base_url": url, **settings}, env={}))
    built.retry = RetryPolicy(base_delay_s=0.01, max_delay_s=0.05)
    return built


def ask(built: LLMGateway) -> tuple[TemporalLabel, dict]:
    return asyncio.run(built.ask("validator", TemporalLabel, MESSAGES, node="classify_temporal"))  # type: ignore[return-value]


def test_structured_output_goes_as_format_and_usage_is_read(stub) -> None:  # noqa: ANN001
    state, url = stub
    answer, record = ask(gateway(url))
    assert answer.temporal is True and state.errors == []
    sent = state.requests[-1]
    assert sent["model"] == "llama3.1" and sent["format"]["title"] == "TemporalLabel"
    replied = json.dumps(state.respond("TemporalLabel", []))
    assert record["input_tokens"] > 0 and record["output_tokens"] == approx_tokens(replied)
    assert "think" not in sent  # no thinking setting: the model's own default


def test_a_server_error_is_retried_and_a_cut_off_reply_asked_again_once(stub) -> None:  # noqa: ANN001
    state, url = stub
    state.faults = [Fault(500, {"error": "model runner crashed"})]
    answer, record = ask(gateway(url))
    assert answer.temporal is True and record["attempts"] == 2
    state.faults, state.requests = [cut_off('{"temporal": tr'), cut_off('{"temp')], []
    with pytest.raises(ModelCallFailed, match="cut off \\(finish reason length\\)"):
        ask(gateway(url))
    assert len(state.requests) == 2


def test_thinking_goes_as_think(stub) -> None:  # noqa: ANN001
    state, url = stub
    ask(gateway(url, thinking={"validator": "false"}))
    assert state.requests[-1]["think"] is False
    ask(gateway(url, thinking={"validator": "high"}))
    assert state.requests[-1]["think"] == "high"


@pytest.mark.parametrize("title", sorted(THOUGHT_FIRST))
def test_the_format_sent_asks_for_the_plan_or_reasoning_first_and_requires_every_field(stub, title: str) -> None:  # noqa: ANN001
    state, url = stub
    first, reply = THOUGHT_FIRST[title]
    state.answer = lambda asked, messages: reply
    asyncio.run(gateway(url).ask("validator", getattr(schemas, title), MESSAGES, node="judge_quality"))
    sent = state.requests[-1]["format"]
    assert list(sent["properties"])[0] == first
    assert sent["required"] == list(sent["properties"])
