"""A Gemini API stub: generateContent with JSON-schema output, Gemini's errors and finish reasons."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from tests.support.stubs.server import Fault, StubHandler, StubState, approx_tokens, serve

#: JSON Schema keywords the Gemini API documents for `responseJsonSchema`; it refuses a schema with others.
GEMINI_SCHEMA_KEYWORDS = frozenset(
    {
        "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items",
        "prefixItems", "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties",
        "additionalProperties", "required", "propertyOrdering",
    }
)  # fmt: skip

#: Keys whose values are maps of names to schemas, not schemas themselves.
SCHEMA_MAPS = ("properties", "$defs")


def unsupported_keywords(schema: Any, path: str = "$") -> list[str]:
    """Where `schema` uses a keyword outside `GEMINI_SCHEMA_KEYWORDS` (JSON paths)."""
    found: list[str] = []
    if isinstance(schema, list):
        for index, item in enumerate(schema):
            found += unsupported_keywords(item, f"{path}[{index}]")
        return found
    if not isinstance(schema, dict):
        return found
    for key, value in schema.items():
        if key not in GEMINI_SCHEMA_KEYWORDS:
            found.append(f"{path}.{key}")
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                found += unsupported_keywords(sub, f"{path}.{key}.{name}")
        elif key in ("items", "anyOf", "oneOf", "prefixItems", "additionalProperties"):
            found += unsupported_keywords(value, f"{path}.{key}")
    return found


def gemini_error(code: int, status: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An error body as the Gemini API writes it (`google.rpc.Status`)."""
    return {"error": {"code": code, "status": status, "message": message, "details": details or []}}


def gemini_rate_limited(retry_delay_s: float) -> Fault:
    """A 429 RESOURCE_EXHAUSTED whose RetryInfo says when to come back."""
    details = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": f"{retry_delay_s:g}s"}]
    return Fault(
        429, gemini_error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", details)
    )


def gemini_finished(reason: str, text: str = "") -> Fault:
    """A 200 whose only candidate ends with `reason` (SAFETY, RECITATION, MAX_TOKENS, ...)."""
    content = {"role": "model", "parts": [{"text": text}] if text else []}
    body = {
        "candidates": [{"content": content, "finishReason": reason, "index": 0}],
        "usageMetadata": {"promptTokenCount": 50, "candidatesTokenCount": approx_tokens(text) if text else 0,
                          "totalTokenCount": 50},
    }  # fmt: skip
    return Fault(200, body)


def _gemini_messages(body: dict[str, Any]) -> list[BaseMessage]:
    messages: list[BaseMessage] = []
    system = body.get("systemInstruction") or body.get("system_instruction")
    if system:
        messages.append(SystemMessage("".join(p.get("text", "") for p in system.get("parts", []))))
    for content in body.get("contents", []):
        text = "".join(part.get("text", "") for part in content.get("parts", []))
        messages.append(AIMessage(text) if content.get("role") == "model" else HumanMessage(text))
    return messages


class _GeminiHandler(StubHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server API
        state = self.state
        model = self.path.split("/models/", 1)[-1].split(":", 1)[0]
        if ":generateContent" not in self.path:
            self._send(404, gemini_error(404, "NOT_FOUND", f"no method at {self.path}"))
            return
        state.keys.add(self.headers.get("x-goog-api-key", ""))
        body = self._body()
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if config.get("responseMimeType") != "application/json" or not isinstance(schema, dict):
            message = "structured output needs responseMimeType application/json and a response schema"
            state.errors.append(message)
            self._send(400, gemini_error(400, "INVALID_ARGUMENT", message))
            return
        unsupported = unsupported_keywords(schema)
        if unsupported:
            message = f"Invalid JSON payload: unsupported schema keywords at {', '.join(unsupported[:5])}"
            state.errors.append(message)
            self._send(400, gemini_error(400, "INVALID_ARGUMENT", message))
            return
        messages = _gemini_messages(body)
        prompt = approx_tokens("".join(str(m.content) for m in messages))
        if self._held_back(body, model, prompt, gemini_rate_limited(1.0).body):
            return
        try:
            answer = state.respond(str(schema.get("title", "")), messages)
        except Exception as error:  # a test failure should name it, not look like a network error
            state.errors.append(f"{type(error).__name__}: {error}")
            self._send(500, gemini_error(500, "INTERNAL", str(error)))
            return
        text = json.dumps(answer)
        cached = min(state.usage.cached_tokens, prompt)
        thoughts = state.usage.thinking_tokens
        usage = {
            "promptTokenCount": prompt,
            "candidatesTokenCount": approx_tokens(text),
            "totalTokenCount": prompt + approx_tokens(text) + thoughts,
        }
        if cached:
            usage["cachedContentTokenCount"] = cached
        if thoughts:
            usage["thoughtsTokenCount"] = thoughts
        self._send(
            200,
            {
                "candidates": [
                    {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP", "index": 0}
                ],
                "usageMetadata": usage,
                "modelVersion": model,
            },
        )


def gemini_stub(state: StubState) -> AbstractContextManager[str]:
    """A Gemini API stub; its URL is what `--llm-base-url` takes."""
    return serve(_GeminiHandler, state)
