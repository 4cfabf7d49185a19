"""The model gateway with scripted models: schema retries, transient errors, accounting, recorded calls."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from graph.config.settings import resolve_settings
from graph.llm.errors import ProviderUnavailable, RecordingMiss
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway, parsed_as
from graph.llm.limits import RetryPolicy
from graph.llm.models import resolve_roles
from graph.llm.offline.scripted import ScriptedChatModel
from graph.llm.replies import Reply
from nodes.ports import ModelCallFailed

FAST = RetryPolicy(max_attempts=4, base_delay_s=0.001, max_delay_s=0.01, max_total_wait_s=5)


class Verdict(BaseModel):
    accepted: bool
    reason: str


class HttpError(Exception):
    def __init__(self, status: int, retry_after: str | None = None) -> None:
        super().__init__(f"HTTP {status}")
        self.status_code = status
        headers = {"retry-after": retry_after} if retry_after else {}
        self.response = type("Response", (), {"headers": headers})()


MESSAGES = [SystemMessage("Judge the question."), HumanMessage("Q: Which was set earlier?")]
OK = {"accepted": True, "reason": "needs both chunks"}


def gateway_for(model: ScriptedChatModel, **kwargs) -> LLMGateway:  # noqa: ANN003
    roles = resolve_roles({"generator": model, "validator": model, "extractor": model})
    return LLMGateway(roles, **{"retry": FAST, **kwargs})


def ask(gateway: LLMGateway, messages=MESSAGES):  # noqa: ANN001, ANN201
    return asyncio.run(gateway.ask("validator", Verdict, messages, node="judge_quality"))


def test_structured_answer_and_its_accounting() -> None:
    model = ScriptedChatModel(script={"Verdict": [OK]})
    gateway = gateway_for(model, prices={"instance:ScriptedChatModel": (1.0, 2.0)})
    value, record = ask(gateway)
    assert value == Verdict(**OK)
    assert record["role"] == "validator" and record["node"] == "judge_quality"
    assert record["input_tokens"] > 0 and record["output_tokens"] > 0
    assert record["cost_usd"] == pytest.approx((record["input_tokens"] * 1.0 + record["output_tokens"] * 2.0) / 1e6)
    assert gateway.calls == [record] and gateway.cost_usd == record["cost_usd"]
    assert gateway.tokens == record["input_tokens"] + record["output_tokens"]


class Listed(BaseModel):
    reasons: list[str]


class LaxListed(BaseModel):
    reasons: list[str] | None


def test_a_reply_the_client_parsed_is_taken_as_it_is_and_one_of_another_shape_is_validated_here() -> None:
    parsed = Verdict(**OK)
    assert parsed_as(Reply(text="", parsed=parsed), Verdict) is parsed
    loose = Reply(text="", parsed=LaxListed(reasons=None))  # parsed by a laxer schema than the one asked for
    assert parsed_as(loose, Listed) == Listed(reasons=[])
    assert parsed_as(Reply(text=json.dumps(OK)), Verdict) == parsed


def test_an_unusable_reply_is_sent_back_with_the_error_then_accepted() -> None:
    model = ScriptedChatModel(script={"Verdict": ['```json\n{"accepted": tr', f"Sure: {json.dumps(OK)} hope it helps"]})
    value, record = ask(gateway_for(model))
    assert value.accepted is True
    assert record["attempts"] == 2
    feedback = model.calls[1][1][-1].content
    assert "could not be used" in feedback and "incomplete JSON" in feedback


def test_replies_unusable_past_the_bound_fail_the_call_with_the_raw_reply_kept() -> None:
    model = ScriptedChatModel(script={"Verdict": ["I think it is fine."]})
    with pytest.raises(ModelCallFailed) as caught:
        ask(gateway_for(model))
    assert caught.value.raw == "I think it is fine."
    assert len(model.calls) == 3


def test_transient_errors_are_retried_within_bounds() -> None:
    model = ScriptedChatModel(
        script={"Verdict": [HttpError(429, "0"), HttpError(503), TimeoutError(), ConnectionResetError(), OK]}
    )
    gateway = gateway_for(model, retry=RetryPolicy(max_attempts=6, base_delay_s=0.001, max_delay_s=0.01))
    gateway._provider_ok = True  # a call already succeeded earlier in this run
    value, record = ask(gateway)
    assert value.accepted and record["attempts"] == 5
    assert gateway.limiter("instance").concurrency < gateway.limiter("instance").max_concurrency


def test_retries_stop_at_the_attempt_bound() -> None:
    model = ScriptedChatModel(script={"Verdict": [HttpError(500)]})
    with pytest.raises(ModelCallFailed, match="after 4 attempt"):
        ask(gateway_for(model))
    assert len(model.calls) == 4


def test_refused_credentials_stop_the_run() -> None:
    model = ScriptedChatModel(script={"Verdict": [HttpError(401)]})
    with pytest.raises(ProviderUnavailable, match="refused the credentials"):
        ask(gateway_for(model))
    assert len(model.calls) == 1


def test_an_unreachable_provider_stops_the_run_before_minutes_of_retries() -> None:
    model = ScriptedChatModel(script={"Verdict": [ConnectionRefusedError("refused")]})
    with pytest.raises(ProviderUnavailable, match="cannot reach"):
        ask(gateway_for(model))
    assert len(model.calls) == 2


def test_answers_from_a_recording_are_identical_to_the_recorded_ones(tmp_path: Path) -> None:
    record_file = tmp_path / "calls.jsonl"
    model = ScriptedChatModel(script={"Verdict": ["not json", OK, {"accepted": False, "reason": "ambiguous"}]})
    recording = gateway_for(model, recording_path=record_file)
    other = [SystemMessage("Judge the question."), HumanMessage("Q: Which came later?")]
    first = [ask(recording)[0], ask(recording, other)[0]]
    assert len(record_file.read_text().splitlines()) == 3

    settings = resolve_settings({"llm": f"recorded:{record_file}"}, env={})
    replaying = build_gateway(settings)
    replayed = [ask(replaying)[0], ask(replaying, other)[0]]
    assert replayed == first
    assert {call["source"] for call in replaying.calls} == {"recorded"}

    with pytest.raises(RecordingMiss, match="no answer for the validator request of node judge_quality"):
        ask(replaying, [HumanMessage("never recorded")])
