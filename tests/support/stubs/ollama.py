"""An Ollama server stub: /api/chat with a JSON-schema `format`."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from tests.support.stubs.server import StubHandler, StubState, approx_tokens, serve


def _ollama_messages(body: dict[str, Any]) -> list[BaseMessage]:
    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds.get(m.get("role", "user"), HumanMessage)(content=m.get("content", "")) for m in body["messages"]]


class _OllamaHandler(StubHandler):
    def do_POST(self) -> None:  # noqa: N802 - http.server API
        state = self.state
        if self.path.rstrip("/") != "/api/chat":
            self._send(404, {"error": f"no endpoint {self.path}"})
            return
        body = self._body()
        schema = body.get("format")
        if not isinstance(schema, dict) or schema.get("type") != "object":
            message = "structured output needs format set to a JSON schema"
            state.errors.append(message)
            self._send(400, {"error": message})
            return
        messages = _ollama_messages(body)
        prompt = approx_tokens("".join(str(m.content) for m in messages))
        if self._held_back(body, str(body.get("model", "")), prompt, {"error": "too many requests"}):
            return
        try:
            answer = state.respond(str(schema.get("title", "")), messages)
        except Exception as error:
            state.errors.append(f"{type(error).__name__}: {error}")
            self._send(500, {"error": str(error)})
            return
        text = json.dumps(answer)
        reply = {
            "model": body.get("model", ""),
            "created_at": "2026-01-01T00:00:00Z",
            "message": {"role": "assistant", "content": text},
            "done": True,
            "done_reason": "stop",
            "prompt_eval_count": prompt,
            "eval_count": approx_tokens(text),
        }
        if body.get("stream", True):  # Ollama streams unless told not to: one JSON object per line
            data = (json.dumps(reply) + "\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/x-ndjson")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self._send(200, reply)


def ollama_stub(state: StubState) -> AbstractContextManager[str]:
    """An Ollama server stub; its URL is what `--llm-base-url` takes."""
    return serve(_OllamaHandler, state)
