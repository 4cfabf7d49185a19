"""Structured-output modes through the gateway against servers as they answer, and the watch on failing samples."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from graph.config.settings import resolve_settings
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.llm.modes import refuses_mode
from graph.runs.failures import FAILED_ALIKE, SameFailure, failure_kind
from graph.testing.stubs.openai_compatible import PROFILES, compatible_stub
from graph.testing.stubs.server import StubState
from nodes.ports import ModelCallFailed
from state.schemas import QualityVerdict

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


def test_a_mode_the_user_named_is_not_fallen_back_from() -> None:
    state = StubState(answer=lambda title, messages: VERDICT)
    with compatible_stub(state, PROFILES["llama_cpp_python"]) as url:
        gateway = gateway_on(url, structured_output=["json_schema"], request_timeout_seconds=5)
        with pytest.raises(ModelCallFailed, match="Input should be 'text' or 'json_object'.*--structured-output auto"):
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
        (NotImplementedError("method json_mode is not supported"), True),
        (Refused(500, "internal server error"), False),  # transient: retried, not a refusal
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


def test_the_first_samples_failing_alike_stop_the_run_and_anything_else_settles_it() -> None:
    alike = SameFailure()
    for n in range(FAILED_ALIKE):
        alike.note(n, f"r/{n}", "failed", failed(f"openai:local failed after {n + 1} attempt(s): 400 too long"))
    assert alike.reason is not None and len(alike.released) == FAILED_ALIKE
    alike.note(9, "r/9", "failed", failed("openai:local failed after 1 attempt(s): 400 too long"))  # in flight
    alike.note(10, "r/10", "accepted", {"llm_calls": [{}]})
    assert [s.slot for s in alike.released] == [0, 1, 2, 3, 4, 9]
    mixed = SameFailure()
    for n, reason in enumerate(["a: 400 too long"] * 4 + ["b: 500 gone"]):
        mixed.note(n, f"r/{n}", "failed", failed(reason))
    assert mixed.reason is None and mixed.settled and mixed.released == []
    working = SameFailure()
    working.note(0, "r/0", "rejected", {"llm_calls": [{}]})
    for n in range(1, FAILED_ALIKE + 2):
        working.note(n, f"r/{n}", "failed", failed("x: 400 too long"))
    assert working.reason is None  # a sample that reached a model and ended otherwise: the models can work
    unreached = SameFailure()
    for n in range(FAILED_ALIKE + 1):
        unreached.note(n, f"r/{n}", "no_bridge", {"llm_calls": []})
    assert unreached.reason is None and not unreached.settled


def test_failures_are_alike_whatever_their_node_and_numbers() -> None:
    assert failure_kind("judge_quality: no usable QualityVerdict (3 errors)") == failure_kind(
        "propose_bridge: no usable QualityVerdict (5 errors)"
    )
    assert failure_kind("a: 404 model x") != failure_kind("a: 400 too long")
