"""A local stand-in for Langfuse's dataset API, enough for the SDK's dataset and dataset-item calls.

Items are upserted by id, as Langfuse does; every request is kept. `serve_langfuse()` yields (its URL,
the stub's state).
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

from tests.support.stubs.server import StubHandler, StubState, serve

NOW = "2026-01-01T00:00:00.000Z"


@dataclass
class LangfuseState:
    public_key: str = "pk-test"
    secret_key: str = "sk-test"
    datasets: dict[str, dict[str, Any]] = field(default_factory=dict)
    items: dict[str, dict[str, Any]] = field(default_factory=dict)
    requests: list[tuple[str, str]] = field(default_factory=list)


def _handler(state: LangfuseState) -> type[StubHandler]:
    expected = "Basic " + base64.b64encode(f"{state.public_key}:{state.secret_key}".encode()).decode()

    class Handler(StubHandler):
        def _authorised(self) -> bool:
            if self.headers.get("authorization") == expected:
                return True
            self._send(401, {"message": "Invalid credentials"})
            return False

        def do_GET(self) -> None:
            url = urlparse(self.path)
            state.requests.append(("GET", url.path))
            if not self._authorised():
                return
            if url.path.startswith("/api/public/v2/datasets/"):
                name = unquote(url.path.rsplit("/", 1)[1])
                if name not in state.datasets:
                    return self._send(404, {"message": "Dataset not found"})
                return self._send(200, state.datasets[name])
            if url.path == "/api/public/dataset-items":
                name = parse_qs(url.query).get("datasetName", [""])[0]
                found = [item for item in state.items.values() if item["datasetName"] == name]
                meta = {"page": 1, "limit": len(found) or 50, "totalItems": len(found), "totalPages": 1}
                return self._send(200, {"data": found, "meta": meta})
            self._send(404, {"message": "not found"})

        def do_POST(self) -> None:
            url = urlparse(self.path)
            state.requests.append(("POST", url.path))
            if not self._authorised():
                return
            body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"null")
            if url.path == "/api/public/v2/datasets":
                dataset = {"id": str(uuid.uuid4()), "name": body["name"], "description": body.get("description"),
                           "metadata": None, "projectId": "project", "createdAt": NOW, "updatedAt": NOW}  # fmt: skip
                state.datasets[body["name"]] = dataset
                return self._send(200, dataset)
            if url.path == "/api/public/dataset-items":
                item = {"id": body.get("id") or str(uuid.uuid4()), "status": "ACTIVE", "input": body.get("input"),
                        "expectedOutput": body.get("expectedOutput"), "metadata": body.get("metadata"),
                        "datasetId": state.datasets[body["datasetName"]]["id"], "datasetName": body["datasetName"],
                        "createdAt": NOW, "updatedAt": NOW, "mediaReferences": []}  # fmt: skip
                state.items[item["id"]] = item
                return self._send(200, item)
            self._send(404, {"message": "not found"})

    return Handler


@contextmanager
def serve_langfuse(state: LangfuseState | None = None) -> Iterator[tuple[str, LangfuseState]]:
    state = state or LangfuseState()
    with serve(_handler(state), StubState()) as url:
        yield url, state
