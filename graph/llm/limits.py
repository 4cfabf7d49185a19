"""Client-side limits on provider calls: a rate limiter per provider, bounded retries.

One `AdaptiveLimiter` per provider is shared by every sample of a run: it caps requests per second
and requests in flight. Sustained 429s halve the concurrency; it climbs back one step after a
streak of successes. Every wait here is bounded.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Literal

#: Successes in a row after which a throttled limiter allows one more request in flight.
RECOVERY_STREAK = 20

ErrorKind = Literal["transient", "rate_limited", "auth", "connection", "fatal"]


@dataclass(frozen=True)
class RetryPolicy:
    """Bounds of transient-error retries: count, and total seconds spent waiting."""

    max_attempts: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    max_total_wait_s: float = 120.0
    request_timeout_s: float = 120.0
    """One request that has not answered by then is cut off and counts as a (retried) timeout."""

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number `attempt` (1-based): Retry-After, or full-jitter backoff."""
        if retry_after is not None:
            return min(retry_after, self.max_delay_s)
        return rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1)))


def _status_code(error: BaseException) -> int | None:
    for candidate in (error, getattr(error, "response", None)):
        for attribute in ("status_code", "code", "status"):
            value = getattr(candidate, attribute, None)
            if isinstance(value, int) and 100 <= value < 600:
                return value
    return None


def classify(error: BaseException) -> ErrorKind:
    """How a provider error should be handled, from its HTTP status or its type."""
    status = _status_code(error)
    name = type(error).__name__.lower()
    if status == 429 or "ratelimit" in name or "resourceexhausted" in name:
        return "rate_limited"
    if status in (401, 403) or "authentication" in name or "permissiondenied" in name or "unauthenticated" in name:
        return "auth"
    if status is not None and (status >= 500 or status in (408, 409)):
        return "transient"
    if isinstance(error, TimeoutError | asyncio.TimeoutError) or "timeout" in name:
        return "transient"
    # A connection that was made and then dropped is transient; one that cannot be made is not.
    if isinstance(error, ConnectionResetError | ConnectionAbortedError | BrokenPipeError) or "remoteprotocol" in name:
        return "transient"
    if isinstance(error, ConnectionError) or "connect" in name:
        return "connection"
    return "fatal"


def retry_after_seconds(error: BaseException) -> float | None:
    """The server's Retry-After (seconds or HTTP date), when the error carries one."""
    response = getattr(error, "response", None)
    headers: Any = getattr(response, "headers", None) or getattr(error, "headers", None)
    if not headers:
        return None
    value = headers.get("retry-after") or headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


class AdaptiveLimiter:
    """Requests per second and requests in flight for one provider, lowered by 429s."""

    def __init__(self, requests_per_second: float, max_concurrency: int) -> None:
        if requests_per_second <= 0 or max_concurrency <= 0:
            raise ValueError("rate limits must be positive")
        self.interval = 1.0 / requests_per_second
        self.max_concurrency = max_concurrency
        self.concurrency = max_concurrency
        self._in_flight = 0
        self._streak = 0
        self._next_start = 0.0
        self._condition = asyncio.Condition()

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one request slot: waits for a free slot and for the rate's next start time."""
        async with self._condition:
            await self._condition.wait_for(lambda: self._in_flight < self.concurrency)
            self._in_flight += 1
            now = time.monotonic()
            start = max(now, self._next_start)
            self._next_start = start + self.interval
        try:
            if start > now:
                await asyncio.sleep(start - now)
            yield
        finally:
            async with self._condition:
                self._in_flight -= 1
                self._condition.notify_all()

    def throttled(self) -> None:
        """A 429 came back: halve the requests allowed in flight (at least one)."""
        self.concurrency = max(1, self.concurrency // 2)
        self._streak = 0

    def succeeded(self) -> None:
        """A request went through: after a streak, allow one more in flight again."""
        self._streak += 1
        if self._streak >= RECOVERY_STREAK and self.concurrency < self.max_concurrency:
            self.concurrency += 1
            self._streak = 0
