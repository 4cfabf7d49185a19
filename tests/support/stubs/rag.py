"""A team's RAG service, as `graph.evaluate`'s `url=` setups call it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tests.support.stubs.server import StubHandler, StubState, serve


class _RagHandler(StubHandler):
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
