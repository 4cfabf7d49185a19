"""Local servers speaking hosted providers' wire formats, for contract tests and benchmarks.

`GeminiStub` answers `POST /{version}/models/{model}:generateContent` as the Gemini API documents
it; `OllamaStub` answers Ollama's `POST /api/chat`. Both answer every structured-output request
with the plausible script's answer for its schema (found by the schema's title), report token usage,
and can be told to fail: a queue of scripted faults, and requests-per-minute and tokens-per-minute
limits past which they answer 429 as the services do.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from graph.testing.plausible import PLAUSIBLE_SCRIPT

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


def approx_tokens(text: str) -> int:
    """The stubs' own token count of a text: one token per four characters, as providers roughly count."""
    return max(1, math.ceil(len(text) / 4))


@dataclass
class Fault:
    """One scripted failure, answered instead of the next request."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Usage:
    """Token counts a stub reports beyond prompt and reply: cached prompt tokens and thinking tokens."""

    cached_tokens: int = 0
    thinking_tokens: int = 0


class MinuteLimits:
    """Requests and tokens per sliding minute, counted as a provider counts them; True when a request fits."""

    def __init__(self, requests_per_minute: int | None, tokens_per_minute: int | None, window_s: float = 60.0):
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.window_s = window_s
        self._sent: deque[tuple[float, int]] = deque()
        self._lock = threading.Lock()
        self.refused = 0
        self.admitted = 0

    def admit(self, tokens: int) -> bool:
        with self._lock:
            now = time.monotonic()
            while self._sent and self._sent[0][0] <= now - self.window_s:
                self._sent.popleft()
            requests = len(self._sent) + 1
            used = sum(t for _, t in self._sent) + tokens
            if (self.requests_per_minute is not None and requests > self.requests_per_minute) or (
                self.tokens_per_minute is not None and used > self.tokens_per_minute
            ):
                self.refused += 1
                return False
            self._sent.append((now, tokens))
            self.admitted += 1
            return True


@dataclass
class StubState:
    """What a stub was sent and what it will do next; shared by its handler threads."""

    latency_s: float = 0.0
    faults: list[Fault] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    limits: tuple[int | None, int | None] | None = None
    """Requests and prompt tokens per minute, per model (as the services count quotas)."""
    per_model: dict[str, MinuteLimits] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    answer: Callable[[str, list[BaseMessage]], dict[str, Any]] | None = None
    """Answers a schema title and messages (default: the plausible script)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def refused(self) -> int:
        """Requests answered 429 for a limit, over all models."""
        return sum(limits.refused for limits in self.per_model.values())

    def admit(self, model: str, tokens: int) -> bool:
        if self.limits is None:
            return True
        with self.lock:
            limits = self.per_model.setdefault(model, MinuteLimits(*self.limits))
        return limits.admit(tokens)

    def next_fault(self) -> Fault | None:
        with self.lock:
            return self.faults.pop(0) if self.faults else None

    def respond(self, title: str, messages: list[BaseMessage]) -> dict[str, Any]:
        if self.answer is not None:
            return self.answer(title, messages)
        return PLAUSIBLE_SCRIPT[title](messages)


class _Handler(BaseHTTPRequestHandler):
    state: StubState

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> dict[str, Any]:
        return dict(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))

    def _answered(self, body: dict[str, Any], model: str, prompt_tokens: int) -> tuple[Fault | None, bool]:
        """A scripted fault, or whether the model's minute limits refuse this request."""
        state = self.state
        with state.lock:
            state.requests.append(body)
        fault = state.next_fault()
        if fault is not None:
            return fault, False
        if not state.admit(model, prompt_tokens):
            return None, True
        if state.latency_s:
            time.sleep(state.latency_s)
        return None, False


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


class _GeminiHandler(_Handler):
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
        fault, refused = self._answered(body, model, prompt)
        if fault is not None:
            self._send(fault.status, fault.body, fault.headers)
            return
        if refused:
            self._send(429, gemini_rate_limited(1.0).body)
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


def _ollama_messages(body: dict[str, Any]) -> list[BaseMessage]:
    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return [kinds.get(m.get("role", "user"), HumanMessage)(content=m.get("content", "")) for m in body["messages"]]


class _OllamaHandler(_Handler):
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
        fault, refused = self._answered(body, str(body.get("model", "")), prompt)
        if fault is not None:
            self._send(fault.status, fault.body, fault.headers)
            return
        if refused:
            self._send(429, {"error": "too many requests"})
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


class _RagHandler(_Handler):
    """A RAG service as `graph.evaluate`'s `url=` setups call it: POST {"question"}, the reply `reply` gives."""

    reply: Callable[[str], dict[str, Any]]

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        self._send(200, type(self).reply(self._body()["question"]))


@contextmanager
def serve_rag(reply: Callable[[str], dict[str, Any]]) -> Iterator[str]:
    """A RAG service answering each question with `reply(question)` ({"answer", "contexts"}); yields its URL."""
    handler = type("RagService", (_RagHandler,), {"reply": staticmethod(reply)})
    with serve(handler, StubState()) as url:
        yield f"{url}/rag"


@contextmanager
def serve(handler: type[_Handler], state: StubState) -> Iterator[str]:
    """Serve `handler` on a free local port in a thread; yields its base URL."""
    bound = type(handler.__name__, (handler,), {"state": state})
    server = ThreadingHTTPServer(("127.0.0.1", 0), bound)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def gemini_stub(state: StubState) -> AbstractContextManager[str]:
    """A Gemini API stub; its URL is what `--llm-base-url` takes."""
    return serve(_GeminiHandler, state)


def ollama_stub(state: StubState) -> AbstractContextManager[str]:
    """An Ollama server stub; its URL is what `--llm-base-url` takes."""
    return serve(_OllamaHandler, state)
