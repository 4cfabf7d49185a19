"""Client-side limits on provider calls: a rate limiter per provider, bounded retries.

One `AdaptiveLimiter` per provider is shared by every sample of a run: it caps requests per second
and requests in flight. Sustained 429s halve the concurrency; it climbs back one step after a
streak of successes. Every wait here is bounded.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections import deque
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


def status_code(error: BaseException) -> int | None:
    for candidate in (error, getattr(error, "response", None)):
        for attribute in ("status_code", "code", "status"):
            value = getattr(candidate, attribute, None)
            if isinstance(value, int) and 100 <= value < 600:
                return value
    return None


def classify(error: BaseException) -> ErrorKind:
    """How a provider error should be handled, from its HTTP status or its type."""
    status = status_code(error)
    name = type(error).__name__.lower()
    if status == 429 or "ratelimit" in name or "resourceexhausted" in name:
        return "rate_limited"
    if status in (401, 403) or "authentication" in name or "permissiondenied" in name or "unauthenticated" in name:
        return "auth"
    if "API_KEY_INVALID" in str(error) or "API key not valid" in str(error):  # Gemini answers a bad key with a 400
        return "auth"
    if status is not None and (status >= 500 or status in (408, 409)):
        return "transient"
    if isinstance(error, TimeoutError | asyncio.TimeoutError) or "timeout" in name:
        return "transient"
    # A connection that was made and then dropped is transient; one that cannot be made is not.
    if isinstance(error, ConnectionResetError | ConnectionAbortedError | BrokenPipeError) or "remoteprotocol" in name:
        return "transient"
    if name in ("readerror", "writeerror"):  # httpx: a kept-alive connection the server closed while it was used
        return "transient"
    if isinstance(error, ConnectionError) or "connect" in name:
        return "connection"
    return "fatal"


def _causes(error: BaseException) -> list[BaseException]:
    """The error and the errors it was raised from (SDK wrappers keep the HTTP error as the cause)."""
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain and len(chain) < 5:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def retry_info_seconds(error: BaseException) -> float | None:
    """The `retryDelay` of a `google.rpc.RetryInfo` detail (Gemini's 429 RESOURCE_EXHAUSTED), e.g. "7s"."""
    for cause in _causes(error):
        body: Any = getattr(cause, "details", None)
        status = body.get("error", body) if isinstance(body, dict) else {}
        entries = status.get("details") if isinstance(status, dict) else None
        for detail in entries if isinstance(entries, list) else []:
            if isinstance(detail, dict) and str(detail.get("@type", "")).endswith("google.rpc.RetryInfo"):
                try:
                    return max(0.0, float(str(detail.get("retryDelay", "")).rstrip("s")))
                except ValueError:
                    return None
    return None


def retry_after_seconds(error: BaseException) -> float | None:
    """When the server says to come back: Gemini's RetryInfo, else Retry-After (seconds or HTTP date)."""
    delay = retry_info_seconds(error)
    if delay is not None:
        return delay
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


#: Seconds a request counts against a per-minute quota here: a little over the provider's minute, so
#: that a request the provider received later than it left is gone from its window too.
QUOTA_WINDOW_S = 61.0

#: Seconds a reservation that does not fit sleeps at most before it looks again: requests in flight hold
#: their estimates until their replies correct them, and a correction may make room sooner.
QUOTA_RECHECK_S = 0.25

#: Replies whose counts scale the next estimates, and the margin kept above the largest of their ratios.
RATIO_SAMPLES = 32
RATIO_MARGIN = 1.05

#: Characters per prompt token assumed before the provider has counted (it counts about four; fewer here
#: over-estimates, which keeps a quota from being overrun).
CHARS_PER_TOKEN_ESTIMATE = 3


def estimate_tokens(text_chars: int) -> int:
    """A request's prompt tokens before sending it, from its length: a bound above the provider's count."""
    return max(1, -(-text_chars // CHARS_PER_TOKEN_ESTIMATE))


@dataclass
class _Sent:
    at: float
    """When it was sent, or reserved while it waits to be sent."""
    tokens: int
    estimate: int = 0
    """The tokens reserved for it from its text, before the provider counted."""
    sent: bool = False
    """A request reserved but not sent yet counts as sent now: it never ages out while it waits."""

    def counted_at(self, now: float) -> float:
        return self.at if self.sent else now


class MinuteQuota:
    """Requests and prompt tokens per minute to one model, as its provider publishes them, never exceeded.

    Every request reserves its place before it is sent: its tokens estimated from its text, corrected by
    the reply's usage. Reservations are granted in order; one that does not fit waits until enough of
    the last minute's requests have aged out. A request counts from the moment it is really sent
    (`sending`), as the provider counts it: one reserved early and sent later stays counted longer.
    """

    def __init__(
        self, requests_per_minute: float | None, tokens_per_minute: float | None, window_s: float | None = None
    ) -> None:
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.window_s = QUOTA_WINDOW_S if window_s is None else window_s
        self._sent: list[_Sent] = []
        self._lock = asyncio.Lock()
        self.waited_s = 0.0
        """Seconds requests spent waiting for the quota, in all."""
        self._ratios: deque[float] = deque(maxlen=RATIO_SAMPLES)
        """The provider's count over the estimate, for the last replies: how much an estimate overshoots."""

    def scaled(self, estimate: int) -> int:
        """`estimate` scaled by the largest recent ratio of the provider's count to it, with a margin (never up)."""
        if not self._ratios:
            return estimate
        return max(1, math.ceil(estimate * min(1.0, max(self._ratios) * RATIO_MARGIN)))

    def _prune(self, now: float) -> None:
        cut = now - self.window_s
        kept = (sent for sent in self._sent if sent.counted_at(now) > cut)
        self._sent = sorted(kept, key=lambda sent: sent.counted_at(now))

    def _wait_for(self, tokens: int, now: float) -> float:
        """Seconds until a request of `tokens` fits; 0 when it fits now."""
        waits = [0.0]
        # Fewer than one request a minute still lets one through in each window.
        allowed = max(1, int(self.requests_per_minute)) if self.requests_per_minute is not None else None
        if allowed is not None and len(self._sent) + 1 > allowed:
            oldest = self._sent[len(self._sent) - allowed]
            waits.append(oldest.counted_at(now) + self.window_s - now)
        if self.tokens_per_minute is not None and self._sent:
            excess = sum(s.tokens for s in self._sent) + tokens - self.tokens_per_minute
            for sent in self._sent:  # oldest first: how many must age out before it fits
                if excess <= 0:
                    break
                excess -= sent.tokens
                waits.append(sent.counted_at(now) + self.window_s - now)
        return max(waits)

    async def reserve(self, tokens: int) -> _Sent:
        """Wait until a request of about `tokens` prompt tokens fits in both limits, and count it."""
        async with self._lock:
            while True:
                now = time.monotonic()
                self._prune(now)
                wait = self._wait_for(self.scaled(tokens), now)
                if wait <= 0:
                    sent = _Sent(now, self.scaled(tokens), estimate=tokens)
                    self._sent.append(sent)
                    return sent
                pause = min(wait, QUOTA_RECHECK_S)
                self.waited_s += pause
                await asyncio.sleep(pause)

    @staticmethod
    def sending(sent: _Sent) -> None:
        """The reserved request leaves now: it counts from now on."""
        sent.at, sent.sent = max(sent.at, time.monotonic()), True

    def correct(self, sent: _Sent, tokens: int) -> None:
        """The provider's own count of a sent request's prompt tokens, in place of the estimate."""
        if tokens > 0:
            sent.tokens = tokens
            if sent.estimate:
                self._ratios.append(tokens / sent.estimate)
