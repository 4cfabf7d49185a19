"""A local stand-in for LangSmith's dataset API, enough for the SDK's dataset and example calls.

It keeps datasets and examples in memory and every request it received, so a test can assert what
the SDK sent. `serve_langsmith()` yields (its URL, the stub's state).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

from tests.support.stubs.server import StubHandler, StubState, serve

CREATED = "2026-01-01T00:00:00+00:00"
TENANT = "00000000-0000-0000-0000-000000000001"


@dataclass
class LangSmithState:
    key: str = "test-key"
    """The API key the stub accepts; any other is refused with 401."""
    datasets: dict[str, dict[str, Any]] = field(default_factory=dict)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)


def _handler(state: LangSmithState) -> type[StubHandler]:
    class Handler(StubHandler):
        def _authorised(self) -> bool:
            if self.headers.get("x-api-key") == state.key:
                return True
            self._send(401, {"detail": "Invalid token"})
            return False

        def _payload(self) -> Any:
            size = int(self.headers.get("content-length") or 0)
            return json.loads(self.rfile.read(size)) if size else None

        def do_GET(self) -> None:
            url = urlparse(self.path)
            query = parse_qs(url.query)
            state.requests.append(("GET", url.path))
            if url.path == "/info":
                return self._send(200, {})
            if not self._authorised():
                return None
            if url.path == "/datasets":
                names = query.get("name", [])
                return self._send(200, [d for d in state.datasets.values() if not names or d["name"] in names])
            if url.path == "/examples":
                dataset = query.get("dataset", [""])[0]
                offset = int(query.get("offset", ["0"])[0])
                found = [e for e in state.examples.values() if e["dataset_id"] == dataset]
                return self._send(200, found[offset : offset + int(query.get("limit", ["100"])[0])])
            return self._send(200, [])

        def do_POST(self) -> None:
            url = urlparse(self.path)
            state.requests.append(("POST", url.path))
            if not self._authorised():
                return None
            body = self._payload()
            if url.path == "/datasets":
                dataset = {"id": str(uuid.uuid4()), "name": body["name"], "description": body.get("description"),
                           "data_type": "kv", "created_at": CREATED, "tenant_id": TENANT}  # fmt: skip
                state.datasets[dataset["id"]] = dataset
                return self._send(200, dataset)
            if url.path == "/examples/bulk":
                for example in body:
                    state.examples[str(example["id"])] = {**example, "created_at": CREATED, "modified_at": CREATED}
                return self._send(200, [{"id": str(e["id"])} for e in body])
            return self._send(200, {})

        def do_PATCH(self) -> None:
            url = urlparse(self.path)
            state.requests.append(("PATCH", url.path))
            if not self._authorised():
                return None
            body = self._payload()
            if url.path == "/examples/bulk":
                for update in body:
                    known = state.examples[str(update["id"])]
                    known.update({k: v for k, v in update.items() if v is not None and k != "id"})
                return self._send(200, {"count": len(body)})
            return self._send(200, {})

    return Handler


@contextmanager
def serve_langsmith(state: LangSmithState | None = None) -> Iterator[tuple[str, LangSmithState]]:
    state = state or LangSmithState()
    with serve(_handler(state), StubState()) as url:
        yield url, state
