"""Structured-output modes through the gateway against servers as they answer, and the watch on failing samples."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.llm.modes import refuses_mode
from graph.running.failures import FAILED_ALIKE, SameFailure, failure_kind
from nodes.ports import ModelCallFailed
from state.schemas import QualityVerdict
from tests.support.stubs.openai_compatible import PROFILES, compatible_stub
from tests.support.stubs.server import StubState

VERDICT = {
    "reasoning": "the question needs\nboth chunks",  # a newline a grammar-constrained server writes raw
    "asks_for": [],  # null as llama-cpp-python's model writes it
    "quality": True,
    "multi_hop": True,
    "unambiguous": True,
    "accepted": True,
    "reason": "",
}
ASKED = [SystemMessage("Judge the question."), HumanMessage("The question and its chunks.")]


def gateway_on(url: str, **settings: object) -> LLMGateway:
    return build_gateway(resolve_settings({"llm": "openai:local", "llm_base_url": url, "llm_cache": False, **settings}))


def test_calls_in_flight_wait_for_the_first_so_a_refusal_is_paid_once() -> None:
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, PROFILES["llama_cpp_python"]) as url:
        gateway = gateway_on(url)

        async def sixteen() -> list:
            calls = [gateway.ask("validator", QualityVerdict, ASKED, node="judge_quality") for _ in range(16)]
            return await asyncio.gather(*calls)

        replies = asyncio.run(sixteen())
    kinds = [(body.get("response_format") or {}).get("type") for body in state.requests]
    assert kinds.count("json_schema") == 1 and kinds.count("json_object") == 16
    assert all(
        verdict.reasoning == "the question needs\nboth chunks" and verdict.asks_for == [] for verdict, _ in replies
    )
    assert all(call["attempts"] == 1 for _, call in replies)  # the refusal spent no retry of any call
    assert gateway.modes == {f"openai:local at {url}": "json_object"}


def test_a_native_json_schema_reply_is_read_as_tolerantly_as_a_text_one() -> None:
    # A server with native JSON-schema output whose grammar still lets a raw newline into a string.
    profile = dataclasses.replace(PROFILES["vllm"], raw_newlines=True, null_lists=True)
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, profile) as url:
        verdict, call = asyncio.run(gateway_on(url).ask("validator", QualityVerdict, ASKED, node="judge_quality"))
    assert verdict.reasoning == "the question needs\nboth chunks" and verdict.asks_for == [] and call["attempts"] == 1
    sent = state.requests[0]["response_format"]["json_schema"]
    assert sent["strict"] is True and sent["schema"]["additionalProperties"] is False


def test_a_mode_that_answered_before_and_is_refused_now_is_looked_for_again() -> None:
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, PROFILES["llama_cpp_python"]) as url:
        gateway = gateway_on(url)
        gateway.modes[f"openai:local at {url}"] = "json_schema"  # as a resume would know it, the server since changed
        verdict, _ = asyncio.run(gateway.ask("validator", QualityVerdict, ASKED, node="judge_quality"))
    assert verdict.accepted and gateway.modes == {f"openai:local at {url}": "json_object"}
    assert [body["response_format"]["type"] for body in state.requests] == ["json_schema", "json_object"]


def test_tool_call_arguments_are_read_as_tolerantly_as_a_text_reply() -> None:
    profile = dataclasses.replace(PROFILES["vllm"], raw_newlines=True, null_lists=True)
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, profile) as url:
        gateway = gateway_on(url, structured_output=["tool"])
        verdict, call = asyncio.run(gateway.ask("validator", QualityVerdict, ASKED, node="judge_quality"))
    assert verdict.reasoning == "the question needs\nboth chunks" and verdict.asks_for == [] and call["attempts"] == 1


def test_a_mode_the_user_named_is_not_fallen_back_from() -> None:
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, PROFILES["llama_cpp_python"]) as url:
        gateway = gateway_on(url, structured_output=["json_schema"], request_timeout_seconds=5)
        with pytest.raises(
            ModelCallFailed, match="Input should be 'text' or 'json_object'.*refuses the json_schema mode"
        ):
            asyncio.run(gateway.ask("validator", QualityVerdict, ASKED, node="judge_quality"))
    assert [(body.get("response_format") or {}).get("type") for body in state.requests] == ["json_schema"]  # once


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status


@pytest.mark.parametrize(
    ("error", "refused"),
    [
        (
            Refused(
                500,
                "[{'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}]",
            ),
            True,
        ),
        (Refused(400, "'response_format.type' must be 'json_schema' or 'text'"), True),
        (Refused(400, "tools are not supported for this model"), True),
        (Refused(422, "json_schema: unsupported grammar"), True),
        (Refused(400, "responseJsonSchema is not supported for this model"), True),  # Gemini's field names
        (Refused(400, "response_mime_type application/json is not supported"), True),
        (Refused(400, "guided_json requires the outlines backend"), True),  # vLLM's guided decoding
        (NotImplementedError("method json_mode is not supported"), True),
        (Refused(500, "internal server error"), False),  # transient: retried, not a refusal
        (Refused(500, "see the server log for more information"), False),  # "format" inside a word
        (Refused(500, "the function crashed"), False),  # a 500 must name the request's form itself
        (Refused(429, "response_format requests are rate limited"), False),
        (Refused(401, "invalid api key for tools"), False),
        (Refused(404, "The model `local` does not exist."), False),
        (Refused(400, "This model's maximum context length is 2048 tokens."), False),
    ],
)
def test_a_refusal_names_the_form_of_the_request(error: BaseException, refused: bool) -> None:
    assert refuses_mode(error) is refused


def failed(reason: str) -> dict:
    return {"llm_calls": [{"role": "generator"}], "end_reason": reason, "seed": {"id": "s"}}


def watch(*ended: tuple[int, str, dict]) -> SameFailure:
    """A watch that saw slots 0, 1, ... start in order, then end as given (slot, outcome, state)."""
    failures = SameFailure()
    for slot in range(max(n for n, _, _ in ended) + 1):
        failures.started(slot)
    for slot, outcome, state in ended:
        failures.note(slot, f"r/{slot}", outcome, state)
    return failures


def test_the_first_samples_failing_alike_stop_the_run_and_anything_else_settles_it() -> None:
    too_long = [(n, "failed", failed(f"openai:local failed after {n + 1} attempt(s): 400 too long")) for n in range(7)]
    alike = watch(*too_long[:FAILED_ALIKE])
    assert alike.reason is not None and [s.slot for s in alike.released] == [0, 1, 2, 3, 4]
    alike.note(6, "r/6", "failed", too_long[6][2])  # in flight when it was found, failing alike: released too
    alike.note(5, "r/5", "accepted", {"llm_calls": [{}]})
    assert [s.slot for s in alike.released] == [0, 1, 2, 3, 4, 6] and alike.released[0].seeds == ["s"]
    mixed = watch(*[(n, "failed", failed(reason)) for n, reason in enumerate(["a: 400 too long"] * 4 + ["b: 500"])])
    assert mixed.reason is None and mixed.settled and mixed.released == []
    assert watch((0, "rejected", {"llm_calls": [{}]}), *too_long[1:7]).reason is None  # a model answered well
    unreached = watch(*[(n, "no_bridge", {"llm_calls": []}) for n in range(FAILED_ALIKE + 1)])
    assert unreached.reason is None and not unreached.settled


def test_fast_failures_among_samples_still_running_do_not_stop_a_run() -> None:
    failures = SameFailure()
    for slot in range(8):
        failures.started(slot)
    for slot in range(1, 8):  # seven fast failures end while the first sample started is still running
        failures.note(slot, f"r/{slot}", "failed", failed("a: 400 a chunk too long for the context"))
    assert failures.reason is None
    failures.note(0, "r/0", "accepted", {"llm_calls": [{}]})
    assert failures.reason is None and failures.settled


def test_failures_are_alike_whatever_their_node_and_numbers() -> None:
    assert failure_kind("judge_quality: no usable QualityVerdict (3 errors)") == failure_kind(
        "propose_bridge: no usable QualityVerdict (5 errors)"
    )
    assert failure_kind("a: 404 model x") != failure_kind("a: 400 too long")
    assert failure_kind("x: 400 bad request (request id req_3f9a2b7c1d)") == failure_kind(
        "x: 400 bad request (request id req_77e0d41a9b)"
    )


def test_one_model_name_on_two_servers_is_two_models_to_the_cache(pg_url: str) -> None:
    from graph.llm.cache import LLMCache

    first, second = StubState(answer=lambda title, messages: VERDICT), StubState(answer=lambda title, messages: VERDICT)
    asked = [SystemMessage("Judge the question."), HumanMessage("Two servers, one model name (cache test).")]
    with compatible_stub(first, PROFILES["vllm"]) as one, compatible_stub(second, PROFILES["vllm"]) as other:
        replies = []
        for url in (one, other, one):
            gateway = gateway_on(url)
            gateway.cache = LLMCache(pg_url)
            replies.append(asyncio.run(gateway.ask("validator", QualityVerdict, asked, node="judge_quality"))[1])
    assert [call["source"] for call in replies] == ["provider", "provider", "cache"]
    assert len(first.requests) == 1 and len(second.requests) == 1
