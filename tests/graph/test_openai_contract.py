"""Contract test: the OpenAI-compatible path against a local server speaking OpenAI's wire format.

The server answers /v1/chat/completions like the OpenAI API documents it: a JSON-schema
`response_format` answered with JSON content, `usage` tokens, a 429 with Retry-After and a 500.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

import state.schemas as schemas
from graph.config.settings import resolve_settings
from graph.llm.cache import LLMCache
from graph.llm.from_settings import build_gateway
from graph.llm.limits import RetryPolicy
from tests.support.scripts import THOUGHT_FIRST


class Verdict(BaseModel):
    accepted: bool
    reason: str


class StubOpenAI(BaseHTTPRequestHandler):
    """Scripted responses in order: ("status", headers, body)."""

    script: list[tuple[int, dict[str, str], dict]] = []
    requests: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        status, headers, payload = type(self).script.pop(0)
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in headers.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def completion(content: str, prompt_tokens: int = 31, completion_tokens: int = 9) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "stub-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def error(message: str, kind: str) -> dict:
    return {"error": {"message": message, "type": kind, "code": None, "param": None}}


@pytest.fixture
def stub() -> Iterator[str]:
    StubOpenAI.script, StubOpenAI.requests = [], []
    server = ThreadingHTTPServer(("127.0.0.1", 0), StubOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def gateway(base_url: str, **flags):  # noqa: ANN003, ANN201
    settings = resolve_settings({"llm": "openai:stub-model", "llm_base_url": base_url, **flags}, env={})
    built = build_gateway(settings)
    built.retry = RetryPolicy(max_attempts=4, base_delay_s=0.01, max_delay_s=1.0, max_total_wait_s=10)
    return built


def ask(built, text: str = "Is the question multi-hop?"):  # noqa: ANN001, ANN201
    return asyncio.run(built.ask("validator", Verdict, [HumanMessage(text)], node="judge_quality"))


def test_structured_output_usage_and_the_json_schema_request(stub: str) -> None:
    StubOpenAI.script = [(200, {}, completion('{"accepted": true, "reason": "needs A and B"}'))]
    built = gateway(stub, prices={"stub-model": (2.0, 4.0)})
    value, record = ask(built)
    assert value == Verdict(accepted=True, reason="needs A and B")
    assert (record["input_tokens"], record["output_tokens"]) == (31, 9)
    assert record["cost_usd"] == pytest.approx((31 * 2.0 + 9 * 4.0) / 1e6)
    request = StubOpenAI.requests[0]
    assert request["response_format"]["type"] == "json_schema"
    assert set(request["response_format"]["json_schema"]["schema"]["properties"]) == {"accepted", "reason"}


def test_429_with_retry_after_and_500_are_retried(stub: str) -> None:
    StubOpenAI.script = [
        (429, {"Retry-After": "0.2"}, error("slow down", "rate_limit_exceeded")),
        (500, {}, error("internal", "server_error")),
        (200, {}, completion('{"accepted": false, "reason": "chunk A suffices"}')),
    ]
    built = gateway(stub)
    value, record = ask(built)
    assert value.accepted is False
    assert record["attempts"] == 3
    assert len(StubOpenAI.requests) == 3
    assert built.limiter("openai").concurrency < built.limiter("openai").max_concurrency


def test_401_stops_with_one_clear_error(stub: str) -> None:
    from graph.llm.errors import ProviderUnavailable

    StubOpenAI.script = [(401, {}, error("Incorrect API key provided", "invalid_request_error"))]
    with pytest.raises(ProviderUnavailable, match="refused the credentials"):
        ask(gateway(stub))
    assert len(StubOpenAI.requests) == 1


def test_identical_requests_are_paid_once_with_the_cache(stub: str, pg_url: str) -> None:
    StubOpenAI.script = [(200, {}, completion('{"accepted": true, "reason": "fine"}'))]
    built = gateway(stub)
    built.cache = LLMCache(pg_url)
    text = "Cache me: is this multi-hop? (contract test)"
    first, _ = ask(built, text)
    again = gateway(stub)
    again.cache = LLMCache(pg_url)
    second, record = ask(again, text)
    assert first == second
    assert record["source"] == "cache" and record["cost_usd"] == 0
    assert len(StubOpenAI.requests) == 1


@pytest.mark.parametrize("title", sorted(THOUGHT_FIRST))
def test_the_json_schema_sent_asks_for_the_plan_or_reasoning_first_and_requires_every_field(
    stub: str, title: str
) -> None:
    first, reply = THOUGHT_FIRST[title]
    StubOpenAI.script = [(200, {}, completion(json.dumps(reply)))]
    asyncio.run(gateway(stub).ask("validator", getattr(schemas, title), [HumanMessage("Judge it.")], node="judge"))
    sent = StubOpenAI.requests[-1]["response_format"]["json_schema"]["schema"]
    assert list(sent["properties"])[0] == first
    assert sent["required"] == list(sent["properties"])
