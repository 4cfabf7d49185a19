"""What every stub shares: its state (faults, usage, minute limits) and a local HTTP server."""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT


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
    window_s: float = 60.0
    """The length of the limits' "minute" in seconds."""
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
            limits = self.per_model.setdefault(model, MinuteLimits(*self.limits, window_s=self.window_s))
        return limits.admit(tokens)

    def next_fault(self) -> Fault | None:
        with self.lock:
            return self.faults.pop(0) if self.faults else None

    def respond(self, title: str, messages: list[BaseMessage]) -> dict[str, Any]:
        if self.answer is not None:
            return self.answer(title, messages)
        return PLAUSIBLE_SCRIPT[title](messages)


class StubHandler(BaseHTTPRequestHandler):
    state: StubState

    def log_message(self, *args: object) -> None:
        pass

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
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

    def _held_back(self, body: dict[str, Any], model: str, prompt_tokens: int, rate_limited: dict[str, Any]) -> bool:
        """Whether the request was answered already: with a scripted fault, or a 429 (`rate_limited`) when the
        model's minute limits refuse it."""
        fault, refused = self._answered(body, model, prompt_tokens)
        if fault is not None:
            self._send(fault.status, fault.body, fault.headers)
        elif refused:
            self._send(429, rate_limited)
        return fault is not None or refused

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


@contextmanager
def serve(handler: type[StubHandler], state: StubState) -> Iterator[str]:
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
