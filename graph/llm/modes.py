"""Structured-output modes: how a model is asked for a reply that fits a schema.

    json_schema   the schema as the provider's native structured output (OpenAI's `response_format`
                  json_schema, Gemini's response schema, Ollama's `format`)
    json_object   JSON mode with the schema inside the response format (`{"type": "json_object",
                  "schema": ...}`), as llama-cpp-python's server takes it; Ollama's `format: json`
    tool          the schema as the one tool the model must call (function calling)
    text          no response format: the schema in the prompt, the reply parsed tolerantly

`auto` (the default) starts with the provider's best mode and, when the server refuses one, goes on to
the next; the gateway remembers the mode that worked per model and server.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import structlog
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import BaseModel

from graph.llm.errors import EveryModeRefused, ModeRefused
from graph.llm.limits import status_code
from graph.llm.models import RoleModel
from state.usage import AUTO_MODE, StructuredMode

log = structlog.get_logger("triad.llm")
R = TypeVar("R")

#: The modes `auto` tries per provider, best first.
PROVIDER_MODES: dict[str, tuple[StructuredMode, ...]] = {
    "openai": ("json_schema", "json_object", "tool", "text"),
    "ollama": ("json_schema", "json_object", "tool", "text"),
    "google_genai": ("json_schema", "text"),
    "anthropic": ("tool", "text"),
}

#: Statuses with which servers refuse a request's form (llama-cpp-python answers an unknown response format
#: with a 500); a refusal also names what it refuses, as a word of its own.
REFUSAL_STATUSES = frozenset({400, 404, 415, 422, 500, 501})
#: What names the request's form itself: its response format (as OpenAI, Gemini and vLLM call it), a schema,
#: a grammar, the tool choice.
_FORM = (
    r"response_?format|json_schema|json_object|tool_choice|grammar|response_?(?:json_?)?schema"
    r"|response_?mime_?type|guided_\w+"
)
REFUSAL_WORDS = re.compile(rf"\b({_FORM}|tools?|functions?|function_call|format)\b", re.IGNORECASE)
#: What a 500 must name to be a refusal, not a passing fault: the request's form itself.
FORM_WORDS = re.compile(rf"\b({_FORM})\b", re.IGNORECASE)

SCHEMA_INSTRUCTION = "Reply with only one JSON object that fits this JSON schema, with no other text:\n{schema}"


def modes_to_try(provider: str, chat_model: BaseChatModel | None, configured: str) -> tuple[StructuredMode, ...]:
    """The modes a model is asked in, in order: the configured one alone, or `auto`'s list for its provider."""
    if configured != AUTO_MODE:
        return (configured,)  # type: ignore[return-value]
    if provider in PROVIDER_MODES:
        return PROVIDER_MODES[provider]
    # An injected model: its own structured output when its class implements one, else text.
    native = chat_model is not None and (
        type(chat_model).with_structured_output is not BaseChatModel.with_structured_output
    )
    return ("json_schema", "text") if native else ("text",)


def refuses_mode(error: BaseException) -> bool:
    """Whether a provider error refuses the request's structured-output form rather than failing it."""
    if isinstance(error, NotImplementedError):  # the client library has no such method for this model
        return True
    status = status_code(error)
    if status not in REFUSAL_STATUSES:
        return False
    words = FORM_WORDS if status >= 500 else REFUSAL_WORDS
    return words.search(str(error)) is not None


def with_schema_instruction(conversation: list[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
    """The conversation with a last message naming the schema the reply must fit (json_object and text modes)."""
    shown = json.dumps(schema.model_json_schema(), ensure_ascii=False)
    return [*conversation, HumanMessage(SCHEMA_INSTRUCTION.format(schema=shown))]


def structured_runnable(
    chat_model: BaseChatModel, provider: str, schema: type[BaseModel], mode: StructuredMode, sent_schema: Any
) -> Any:
    """The model bound to ask for `schema` in `mode`; `sent_schema` is the schema as the provider takes it."""
    if mode == "json_schema":
        if provider == "openai":
            # As a JSON schema, not a class: the OpenAI client would parse the reply strictly itself and fail on a
            # raw newline in a string that a local server's grammar let through; the gateway reads it tolerantly.
            shown = schema.model_json_schema()
            return chat_model.with_structured_output(shown, method="json_schema", include_raw=True, strict=True)
        return chat_model.with_structured_output(sent_schema, method="json_schema", include_raw=True)
    if mode == "tool":
        return chat_model.with_structured_output(sent_schema, method="function_calling", include_raw=True)
    if mode == "json_object":
        if provider == "ollama":
            return chat_model.with_structured_output(sent_schema, method="json_mode", include_raw=True)
        response_format = {"type": "json_object", "schema": schema.model_json_schema()}
        return chat_model.bind(response_format=response_format)
    return chat_model


class ServerModes(dict[str, StructuredMode]):
    """The structured-output mode each model server answered in (by `RoleModel.server`), and how one is found.

    The first call to a server whose mode is not known goes alone; the others wait for it, so a refusal is
    paid once per server, not once per call in flight. A mode that answered before and is refused now
    (another schema, the server changed) is looked for again. A server that refuses every mode is said
    once and not asked again.
    """

    def __init__(self, known: dict[str, StructuredMode] | None = None) -> None:
        super().__init__(known or {})
        self.on_learned: Callable[[str, StructuredMode], Awaitable[None]] | None = None
        """Told of every mode learned (a run keeps it in the state database, for its workers and a resume)."""
        self._probes: dict[str, asyncio.Lock] = {}
        self._refused_everything: dict[str, str] = {}

    async def answer(self, model: RoleModel, send: Callable[[StructuredMode, bool], Awaitable[R]]) -> R:
        """`send(mode, probing)`'s reply in the model's mode: the one named for its role, the one its server
        answered in before, or (`auto`, not known yet) the first its server does not refuse. A probing send
        raises `ModeRefused` on a refusal."""
        modes = modes_to_try(model.provider, model.chat_model, model.mode)
        if len(modes) == 1:  # named for the role, or the only one there is
            return await send(modes[0], False)
        server = model.server
        refused: StructuredMode | None = None
        if (known := self.get(server)) is not None:
            try:
                return await send(known, True)
            except ModeRefused as refusal:
                log.info("mode_refused", model=server, mode=known, error=str(refusal))
                refused = known
        async with self._probes.setdefault(server, asyncio.Lock()):
            known = self.get(server)
            if known is not None and known != refused:  # found by the call this one waited for
                return await send(known, False)
            if server in self._refused_everything:
                raise EveryModeRefused(self._refused_everything[server])
            last = ""
            for mode in (m for m in modes if m != refused):
                try:
                    reply = await send(mode, True)
                except ModeRefused as refusal:
                    log.info("mode_refused", model=server, mode=mode, error=str(refusal))
                    last = str(refusal)
                    continue
                await self.learn(server, mode)
                return reply
            self._refused_everything[server] = (
                f"{server} refused every structured-output mode ({', '.join(modes)}; the last: {last}); check that the "
                "server serves this model, or name the mode it takes with --structured-output ROLE=MODE"
            )
            raise EveryModeRefused(self._refused_everything[server])

    async def learn(self, server: str, mode: StructuredMode) -> None:
        """Remember the mode `server` answers in, for every later call (and, through `on_learned`, the run)."""
        self[server] = mode
        log.info("mode_learned", model=server, mode=mode)
        if self.on_learned is not None:
            await self.on_learned(server, mode)

    def mode_of(self, model: RoleModel) -> str:
        """The mode a role's model is asked in: its named one, the one its server answered in, or `auto` while
        that is not known."""
        return model.mode if model.mode != AUTO_MODE else self.get(model.server, AUTO_MODE)

    def in_use(self, models: Iterable[RoleModel]) -> dict[str, str]:
        """The mode each model and server is asked in, where it is known (run.json, the manifest)."""
        return {
            model.server: mode
            for model in models
            if model.chat_model is not None and (mode := self.mode_of(model)) != AUTO_MODE
        }
