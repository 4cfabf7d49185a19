"""The review app: Starlette routes over a run's samples and the state database's labels.

On a loopback address it serves anyone on the machine; bound elsewhere, every request must carry the
token the printed URL holds (as `?token=`, then as a cookie), or it gets 403.
"""

from __future__ import annotations

import hmac
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from graph.config.errors import UserError
from graph.reviewing.labels import Labels, ReviewLabels, clean_labels
from graph.reviewing.pages import FILTERS, list_page, sample_page, summary_page
from graph.reviewing.quotes import correction_problem
from graph.reviewing.samples import ReviewSample
from graph.reviewing.validation_table import summarise
from state.record import SupportingChunk

TOKEN_COOKIE = "triad_review_token"


@dataclass
class Review:
    """What the app serves: one run's samples, its review set, the reviewer, the labels' store."""

    run_id: str
    samples: dict[int, ReviewSample]
    review_set: list[int]
    reviewer: str
    labels: ReviewLabels
    token: str | None = None
    chunks: Callable[[list[str]], Awaitable[list[SupportingChunk]]] | None = None
    """Reads chunks from the store by id (a rejected sample's line names its chunks, not their texts)."""

    @property
    def order(self) -> list[int]:
        """The review set first, then every other sample in slot order."""
        chosen = set(self.review_set)
        return [*self.review_set, *(n for n in self.samples if n not in chosen)]


def build_app(review: Review) -> Starlette:
    async def listing(request: Request) -> Response:
        filters = {key: request.query_params.get(key, "") for key in FILTERS}
        reviews = await review.labels.of_run(review.run_id)
        reviewed = {row["n"]: row["updated_at"] for row in reviews if row["reviewer"] == review.reviewer}
        html = list_page(
            review.run_id, review.samples, review.order, set(review.review_set), reviewed, filters, review.reviewer
        )
        return HTMLResponse(html)

    async def sample(request: Request) -> Response:
        n = int(request.path_params["n"])
        if n not in review.samples:
            return PlainTextResponse(f"no sample {n} in run {review.run_id}", status_code=404)
        reviews = [r for r in await review.labels.of_run(review.run_id) if r["n"] == n]
        mine = [r for r in reviews if r["reviewer"] == review.reviewer]
        others = [r for r in reviews if r["reviewer"] != review.reviewer]
        order = review.order
        at = order.index(n)
        previous = order[at - 1] if at > 0 else None
        following = order[at + 1] if at + 1 < len(order) else None
        labels: Labels = mine[0]["labels"] if mine else {}
        shown = review.samples[n]
        if shown.rejection is not None and review.chunks is not None and shown.rejection.supporting_ids:
            shown = replace(shown, fetched=tuple(await review.chunks(shown.rejection.supporting_ids)))
        reviewed_at = mine[0]["updated_at"] if mine else None
        return HTMLResponse(sample_page(review.run_id, shown, labels, previous, following, reviewed_at, others))

    async def save(request: Request) -> Response:
        n = int(request.path_params["n"])
        if n not in review.samples:
            return JSONResponse({"error": f"no sample {n}"}, status_code=404)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            # A form another site posts cannot set this type without the browser asking first.
            return JSONResponse({"error": "send the labels as application/json"}, status_code=415)
        try:
            given = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body is not JSON"}, status_code=400)
        if not isinstance(given, dict):
            return JSONResponse({"error": "the body is not a JSON object"}, status_code=400)
        record = review.samples[n].record
        evidence = clean_labels(given).get("evidence") or {}
        if evidence and (problem := correction_problem(record, evidence) if record else "no record to correct"):
            return JSONResponse({"error": problem}, status_code=400)
        saved = await review.labels.save(review.run_id, n, review.reviewer, given)
        return JSONResponse({"saved": saved})

    async def summary(request: Request) -> Response:
        figures = summarise(review.samples, await review.labels.of_run(review.run_id))
        return HTMLResponse(summary_page(review.run_id, figures))

    middleware = []
    if review.token is not None:
        token = review.token

        async def require_token(request: Request, call_next: Any) -> Response:
            given = request.query_params.get("token") or request.cookies.get(TOKEN_COOKIE) or ""
            if not hmac.compare_digest(given.encode(), token.encode()):
                return PlainTextResponse("forbidden: open the URL the review command printed", status_code=403)
            response: Response = await call_next(request)
            if request.query_params.get("token"):
                response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
            return response

        middleware.append(Middleware(BaseHTTPMiddleware, dispatch=require_token))
    return Starlette(
        routes=[
            Route("/", listing),
            Route("/sample/{n:int}", sample),
            Route("/api/labels/{n:int}", save, methods=["POST"]),
            Route("/summary", summary),
        ],
        middleware=middleware,
    )


def is_loopback(host: str) -> bool:
    """Whether the app is reachable from this machine only (other hosts need the token)."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def check_port(host: str, port: int) -> None:
    """The address the app is to listen on is free; one line naming the fix when it is not."""
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise UserError(f"cannot listen on {host}:{port} ({error.strerror}); pass another --port") from None
