"""A scripted chat model: answers from a script instead of a provider.

Tests, benchmarks and the fault runner drive the real graph with it. It is a subclass of
langchain-core's fake chat model that also supports `with_structured_output` (the schema's name
picks the script) and `bind_tools`, reports usage metadata, can sleep a fixed latency per call, and
raises any exception a script step holds, so provider faults can be injected.

    model = ScriptedChatModel(script={"QualityVerdict": ['{"accepted": true, ...}'], ...})

A script maps a schema name (or "text" for plain calls) to a list of steps used in order (the last
one repeats) or to a callable `(messages) -> step`. A step is a reply string, a dict (sent as
JSON), an `AIMessage`, or an exception to raise.

`Faults` injects provider trouble into a share of asynchronous calls, drawn at random: 429s with and
without Retry-After, 500s, requests that hang until the caller's timeout, connection resets, and
replies that are malformed, truncated or empty.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from pydantic import BaseModel, Field, PrivateAttr

Step = str | dict[str, Any] | AIMessage | BaseException
#: Each schema's replies in turn (each a reply, or a function of the request that gives one), or one function.
Script = dict[str, list[Step | Callable[[list[BaseMessage]], Step]] | Callable[[list[BaseMessage]], Step]]

TEXT_CALLS = "text"


def _approx_tokens(text: str) -> int:
    return max(1, len(text) // 4)


class InjectedHTTPError(Exception):
    """An HTTP error as provider SDKs raise them: a status code and a response with headers."""

    def __init__(self, status: int, retry_after: float | None = None) -> None:
        super().__init__(f"HTTP {status} (injected)")
        self.status_code = status
        headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
        self.response = SimpleNamespace(status_code=status, headers=headers)


#: Every kind of fault `Faults` can inject.
FAULT_KINDS = (
    "rate_limited_retry_after",
    "rate_limited",
    "server_error",
    "hang",
    "connection_reset",
    "malformed_json",
    "truncated_json",
    "empty_reply",
)


@dataclass
class Faults:
    """Provider faults injected into a share of calls (`rate`), each kind equally likely."""

    rate: float = 0.3
    random_seed: int | None = None
    kinds: tuple[str, ...] = FAULT_KINDS
    retry_after_s: float = 0.5
    hang_s: float = 3600.0
    """How long a hanging request sleeps: far past any sensible request timeout."""
    injected: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        unknown = set(self.kinds) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; choose from {FAULT_KINDS}")
        self._rng = random.Random(self.random_seed)

    def draw(self) -> str | None:
        """The fault for the next call, or None for a clean one."""
        self.calls += 1
        if self._rng.random() >= self.rate:
            return None
        kind = self._rng.choice(self.kinds)
        self.injected[kind] += 1
        return kind

    async def before_reply(self, kind: str) -> None:
        """Raise (or hang) for the faults that never produce a reply."""
        if kind == "rate_limited_retry_after":
            raise InjectedHTTPError(429, retry_after=self.retry_after_s)
        if kind == "rate_limited":
            raise InjectedHTTPError(429)
        if kind == "server_error":
            raise InjectedHTTPError(500)
        if kind == "connection_reset":
            raise ConnectionResetError("connection reset by peer (injected)")
        if kind == "hang":
            await asyncio.sleep(self.hang_s)

    @staticmethod
    def spoil(kind: str, reply: AIMessage) -> AIMessage:
        """The reply as a faulty provider would send it."""
        text = str(reply.content)
        spoiled = {
            "malformed_json": "Sure! Here is the JSON you asked for: {" + text.strip("{}")[:40] + ",,}",
            "truncated_json": text[: max(1, len(text) // 2)],
            "empty_reply": "",
        }.get(kind)
        if spoiled is None:
            return reply
        return AIMessage(content=spoiled, usage_metadata=reply.usage_metadata)


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that answers from a script, with structured output and latency."""

    messages: Iterator[AIMessage | str] = Field(default_factory=lambda: iter(()))
    script: dict[str, Any] = Field(default_factory=dict)
    latency_s: float = 0.0
    """Seconds each call sleeps, standing in for a provider's latency."""
    faults: Faults | None = None
    """Provider faults injected into asynchronous calls."""

    _positions: dict[str, int] = PrivateAttr(default_factory=dict)
    _calls: list[tuple[str, list[BaseMessage]]] = PrivateAttr(default_factory=list)
    _spans: list[tuple[float, float]] = PrivateAttr(default_factory=list)
    _schemas: list[type[BaseModel]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def calls(self) -> list[tuple[str, list[BaseMessage]]]:
        """Every call so far: (script key, messages)."""
        return self._calls

    @property
    def schemas(self) -> list[type[BaseModel]]:
        """The schema of every structured call so far, as the caller bound it (what a provider would receive)."""
        return self._schemas

    @property
    def spans(self) -> list[tuple[float, float]]:
        """(start, end) monotonic times of every asynchronous call, for benchmarks."""
        return self._spans

    def _next_step(self, key: str, messages: list[BaseMessage]) -> Step:
        if key not in self.script:
            raise KeyError(f"the script has no replies for {key!r} (has: {sorted(self.script)})")
        entry = self.script[key]
        if callable(entry):
            return entry(messages)
        position = self._positions.get(key, 0)
        self._positions[key] = position + 1
        step = entry[min(position, len(entry) - 1)]
        return step(messages) if callable(step) else step  # a step may be a function of the request

    def _reply(self, messages: list[BaseMessage], key: str) -> AIMessage:
        self._calls.append((key, list(messages)))
        step = self._next_step(key, messages)
        if isinstance(step, BaseException):
            raise step
        if isinstance(step, AIMessage):
            return step
        text = json.dumps(step) if isinstance(step, dict) else step
        prompt = "".join(str(message.content) for message in messages)
        usage = {"input_tokens": _approx_tokens(prompt), "output_tokens": _approx_tokens(text)}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        return AIMessage(content=text, usage_metadata=usage)  # type: ignore[arg-type]

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        message = self._reply(messages, kwargs.get("script_key", TEXT_CALLS))
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        started = time.monotonic()
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        fault = self.faults.draw() if self.faults is not None else None
        if fault is not None:
            await self.faults.before_reply(fault)  # type: ignore[union-attr]
        message = self._reply(messages, kwargs.get("script_key", TEXT_CALLS))
        if fault is not None:
            message = Faults.spoil(fault, message)
        self._note_span(started, time.monotonic())
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _note_span(self, started: float, ended: float) -> None:
        """Keeps an asynchronous call's (start, end) for `spans`; a benchmark's subclass may also file it by sample."""
        self._spans.append((started, ended))

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        """Tools are accepted and ignored: scripted replies decide what comes back."""
        return self

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, method: str | None = None, **kwargs: Any
    ) -> Runnable[Any, Any]:
        """Replies from the script entry named after the schema, parsed into it like a provider would."""
        return _StructuredReplies(self, schema, include_raw)


class _StructuredReplies(Runnable[Any, Any]):
    """A scripted model's replies parsed into a schema (its `with_structured_output`)."""

    def __init__(self, model: ScriptedChatModel, schema: type[BaseModel], include_raw: bool) -> None:
        self.model, self.schema, self.include_raw = model, schema, include_raw

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        return asyncio.run(self.ainvoke(input, config))

    async def ainvoke(self, input: Any, config: Any = None, **kwargs: Any) -> Any:
        self.model._schemas.append(self.schema)
        raw = await self.model.ainvoke(input, config, script_key=self.schema.__name__)
        try:
            parsed, error = self.schema.model_validate_json(str(raw.content)), None
        except ValueError as problem:
            parsed, error = None, problem
        if self.include_raw:
            return {"raw": raw, "parsed": parsed, "parsing_error": error}
        if error is not None:
            raise error
        return parsed
