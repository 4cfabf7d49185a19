"""OpenAI-compatible model servers as they answer structured-output requests: /v1/chat/completions.

Each `ServerProfile` says which structured-output forms a server takes and how its replies look:

    llama_cpp_python  llama-cpp-python 0.3.36: HTTP 500 on `json_schema`; `json_object` with a `schema`
                      constrains the reply to it; its grammar lets strings hold raw newlines, and a model
                      writes `null` for an empty list
    llama_server      llama.cpp's llama-server: `json_schema` and `json_object` with a `schema`
    vllm              vLLM: `json_schema`, `json_object` and tool calls (guided decoding)
    lm_studio         LM Studio: `json_schema` only; a `json_object` request is a 400
    text_only         a server with no structured output: a response format or tools are a 400; the model
                      writes prose and then the JSON in a Markdown fence
    refusing          every request a 400 that names the response format
    small_context     as llama-cpp-python, started with a 400-token context: a longer prompt is a 400
    unknown_model     every request a 404: the model is not served under that name

Only the forms come from the servers' documented request formats; the answers are the plausible script's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from tests.support.stubs.server import StubHandler, StubState, approx_tokens, serve


@dataclass(frozen=True)
class ServerProfile:
    """What one server takes and how it answers."""

    name: str
    takes: frozenset[str]
    """Forms served: json_schema, json_object (with a schema), tool, text (no response format)."""
    refusal: tuple[int, str] = (400, "response_format is not supported by this server")
    """The status and error message of a form it does not take."""
    raw_newlines: bool = False
    """Newlines inside JSON strings written raw, as a grammar that allows control characters lets a model."""
    null_lists: bool = False
    """Empty lists written as null."""
    fenced: bool = False
    """Text replies as prose, then the JSON in a Markdown fence."""
    context_tokens: int | None = None
    """The model's context window: a longer prompt is a 400, as a server started with a small context answers."""


LLAMA_CPP_PYTHON = ServerProfile(
    "llama_cpp_python",
    frozenset({"json_object", "text"}),
    refusal=(
        500,
        "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
        "'msg': \"Input should be 'text' or 'json_object'\"}]",
    ),
    raw_newlines=True,
    null_lists=True,
    fenced=True,
)
LLAMA_SERVER = ServerProfile("llama_server", frozenset({"json_schema", "json_object", "text"}))
VLLM = ServerProfile("vllm", frozenset({"json_schema", "json_object", "tool", "text"}))
LM_STUDIO = ServerProfile(
    "lm_studio",
    frozenset({"json_schema", "text"}),
    refusal=(400, "'response_format.type' must be 'json_schema' or 'text'"),
)
TEXT_ONLY = ServerProfile(
    "text_only",
    frozenset({"text"}),
    refusal=(400, "response_format and tools are not supported"),
    fenced=True,
)
REFUSING = ServerProfile(
    "refusing",
    frozenset(),
    refusal=(400, "this server takes no response_format, tools or grammar for this model"),
)
SMALL_CONTEXT = ServerProfile("small_context", frozenset({"json_object", "text"}), context_tokens=400)
UNKNOWN_MODEL = ServerProfile("unknown_model", frozenset(), refusal=(404, "The model `local` does not exist."))

PROFILES = {
    p.name: p
    for p in (LLAMA_CPP_PYTHON, LLAMA_SERVER, VLLM, LM_STUDIO, TEXT_ONLY, REFUSING, SMALL_CONTEXT, UNKNOWN_MODEL)
}

_SCHEMA_IN_PROMPT = re.compile(r"JSON schema[^\n]*:\n(\{.*\})\s*$", re.S)


def requested_form(body: dict[str, Any]) -> tuple[str, str]:
    """(form, schema title) of a request: how it asks for structured output and for which schema."""
    response_format = body.get("response_format") or {}
    kind = response_format.get("type")
    if kind == "json_schema":
        spec = response_format.get("json_schema") or {}
        return "json_schema", str((spec.get("schema") or {}).get("title") or spec.get("name") or "")
    if kind == "json_object":
        return "json_object", str((response_format.get("schema") or {}).get("title") or "")
    if body.get("tools"):
        return "tool", str(body["tools"][0]["function"]["name"])
    last = str(body["messages"][-1].get("content") or "")
    match = _SCHEMA_IN_PROMPT.search(last)
    return "text", str(json.loads(match.group(1)).get("title", "")) if match else ""


def _messages(body: dict[str, Any]) -> list[BaseMessage]:
    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds.get(m.get("role", "user"), HumanMessage)(content=m.get("content") or "") for m in body["messages"]]


def written(answer: dict[str, Any], profile: ServerProfile) -> str:
    """The answer's JSON as the server's model writes it."""
    text = json.dumps(answer, ensure_ascii=False)
    if profile.null_lists:
        text = text.replace(": []", ": null")
    if profile.raw_newlines:
        text = text.replace("\\n", "\n")  # only strings hold escapes: each becomes a raw newline
    return text


class _CompatibleHandler(StubHandler):
    profile: ServerProfile

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        state, profile = self.state, self.profile
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"no endpoint {self.path}"}})
            return
        body = self._body()
        messages = _messages(body)
        prompt = approx_tokens("".join(str(m.content) for m in messages))
        if self._held_back(body, str(body.get("model", "")), prompt, {"error": {"message": "too many requests"}}):
            return
        form, title = requested_form(body)
        if profile.context_tokens is not None and prompt > profile.context_tokens:
            too_long = (
                f"This model's maximum context length is {profile.context_tokens} tokens. However, your messages "
                f"resulted in {prompt} tokens."
            )
            self._send(400, {"error": {"message": too_long, "type": "invalid_request_error"}})
            return
        if form not in profile.takes:
            status, refusal = profile.refusal
            self._send(status, {"error": {"message": refusal, "type": "invalid_request_error"}})
            return
        try:
            answer = state.respond(title, messages)
        except Exception as error:
            state.errors.append(f"{type(error).__name__}: {error}")
            self._send(500, {"error": {"message": str(error)}})
            return
        text = written(answer, profile)
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if form == "tool":
            call = {"id": "call_1", "type": "function", "function": {"name": title, "arguments": text}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
        elif form == "text" and profile.fenced:
            message = {"role": "assistant", "content": f"Here is my reply, thought through.\n\n```json\n{text}\n```\n"}
        reply = {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": 1,
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if form == "tool" else "stop"}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": approx_tokens(text), "total_tokens": prompt},
        }
        self._send(200, reply)


@contextmanager
def compatible_stub(state: StubState, profile: ServerProfile) -> Iterator[str]:
    """An OpenAI-compatible server that answers as `profile` says; yields the base URL `--llm-base-url` takes."""
    handler = type(f"{profile.name}_handler", (_CompatibleHandler,), {"profile": profile})
    with serve(handler, state) as url:
        yield f"{url}/v1"
