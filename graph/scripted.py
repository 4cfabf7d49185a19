"""A scripted chat model: answers from a script instead of a provider.

Tests, benchmarks and the fault runner drive the real graph with it. It is a subclass of
langchain-core's fake chat model that also supports `with_structured_output` (the schema's name
picks the script) and `bind_tools`, reports usage metadata, can sleep a fixed latency per call, and
raises any exception a script step holds, so provider faults can be injected.

    model = ScriptedChatModel(script={"QualityVerdict": ['{"accepted": true, ...}'], ...})

A script maps a schema name (or "text" for plain calls) to a list of steps used in order (the last
one repeats) or to a callable `(messages) -> step`. A step is a reply string, a dict (sent as
JSON), an `AIMessage`, or an exception to raise.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable, RunnableLambda
from pydantic import BaseModel, Field, PrivateAttr

Step = str | dict[str, Any] | AIMessage | BaseException
Script = dict[str, list[Step] | Callable[[list[BaseMessage]], Step]]

TEXT_CALLS = "text"


def _approx_tokens(text: str) -> int:
    return max(1, len(text) // 4)


class ScriptedChatModel(GenericFakeChatModel):
    """A fake chat model that answers from a script, with structured output and latency."""

    messages: Iterator[AIMessage | str] = Field(default_factory=lambda: iter(()))
    script: dict[str, Any] = Field(default_factory=dict)
    latency_s: float = 0.0
    """Seconds each call sleeps, standing in for a provider's latency."""

    _positions: dict[str, int] = PrivateAttr(default_factory=dict)
    _calls: list[tuple[str, list[BaseMessage]]] = PrivateAttr(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    @property
    def calls(self) -> list[tuple[str, list[BaseMessage]]]:
        """Every call so far: (script key, messages)."""
        return self._calls

    def _next_step(self, key: str, messages: list[BaseMessage]) -> Step:
        if key not in self.script:
            raise KeyError(f"the script has no replies for {key!r} (has: {sorted(self.script)})")
        entry = self.script[key]
        if callable(entry):
            return entry(messages)
        position = self._positions.get(key, 0)
        self._positions[key] = position + 1
        return entry[min(position, len(entry) - 1)]

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
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        message = self._reply(messages, kwargs.get("script_key", TEXT_CALLS))
        return ChatResult(generations=[ChatGeneration(message=message)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChatModel:  # type: ignore[override]
        """Tools are accepted and ignored: scripted replies decide what comes back."""
        return self

    def with_structured_output(  # type: ignore[override]
        self, schema: type[BaseModel], *, include_raw: bool = False, method: str | None = None, **kwargs: Any
    ) -> Runnable[Any, Any]:
        """Replies from the script entry named after the schema, parsed into it like a provider would."""

        async def invoke(messages: list[BaseMessage]) -> Any:
            raw = await self.ainvoke(messages, script_key=schema.__name__)
            try:
                parsed, error = schema.model_validate_json(str(raw.content)), None
            except ValueError as problem:
                parsed, error = None, problem
            if include_raw:
                return {"raw": raw, "parsed": parsed, "parsing_error": error}
            if error is not None:
                raise error
            return parsed

        return RunnableLambda(lambda messages: asyncio.run(invoke(messages)), afunc=invoke)
