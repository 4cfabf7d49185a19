"""Error classification, Retry-After and RetryInfo, backoff bounds, the adaptive limiter and per-minute quotas."""

from __future__ import annotations

import asyncio
import random

import pytest

from graph.config.settings import resolve_settings
from graph.llm.from_settings import minute_limits
from graph.llm.limits import (
    RECOVERY_STREAK,
    AdaptiveLimiter,
    MinuteQuota,
    RetryPolicy,
    classify,
    retry_after_seconds,
)


class StatusError(Exception):
    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"HTTP {status}")
        self.status_code = status
        self.response = type("Response", (), {"headers": headers or {}, "status_code": status})()


class AuthenticationError(Exception):
    pass


class ReadTimeout(Exception):
    pass


class ReadError(Exception):
    """httpx's, when a kept-alive connection was closed by the server as it was read."""


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (StatusError(429), "rate_limited"),
        (StatusError(500), "transient"),
        (StatusError(503), "transient"),
        (StatusError(401), "auth"),
        (StatusError(403), "auth"),
        (StatusError(400), "fatal"),
        (AuthenticationError("bad key"), "auth"),
        (Exception("400 INVALID_ARGUMENT. API key not valid. Please pass a valid API key. API_KEY_INVALID"), "auth"),
        (TimeoutError(), "transient"),
        (ReadTimeout(), "transient"),
        (ConnectionResetError(), "transient"),
        (ReadError(""), "transient"),
        (BrokenPipeError(), "transient"),
        (ConnectionRefusedError(), "connection"),
        (ValueError("boom"), "fatal"),
    ],
)
def test_errors_are_classified_by_status_or_type(error: BaseException, kind: str) -> None:
    assert classify(error) == kind


def test_retry_after_is_read_in_seconds_or_as_a_date() -> None:
    assert retry_after_seconds(StatusError(429, {"retry-after": "7"})) == 7.0
    assert retry_after_seconds(StatusError(429, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after_seconds(StatusError(429)) is None


def test_backoff_is_bounded_and_honours_retry_after() -> None:
    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=8.0)
    rng = random.Random(0)
    assert all(0 <= policy.delay(attempt, None, rng) <= 8.0 for attempt in range(1, 30))
    assert policy.delay(3, 5.0, rng) == 5.0
    assert policy.delay(1, 600.0, rng) == 8.0


def test_429s_halve_concurrency_and_successes_restore_it() -> None:
    limiter = AdaptiveLimiter(requests_per_second=1000, max_concurrency=16)
    limiter.throttled()
    limiter.throttled()
    assert limiter.concurrency == 4
    for _ in range(5):
        limiter.throttled()
    assert limiter.concurrency == 1
    for _ in range(RECOVERY_STREAK * 3):
        limiter.succeeded()
    assert limiter.concurrency == 4


def test_limiter_never_lets_more_than_its_concurrency_in_flight() -> None:
    limiter = AdaptiveLimiter(requests_per_second=10_000, max_concurrency=3)
    in_flight, peak = 0, 0

    async def one() -> None:
        nonlocal in_flight, peak
        async with limiter.slot():
            in_flight += 1
            peak = max(peak, in_flight)
            await asyncio.sleep(0.001)
            in_flight -= 1

    async def many() -> None:
        await asyncio.gather(*(one() for _ in range(30)))

    asyncio.run(many())
    assert peak == 3


def test_a_minute_quota_is_never_exceeded_in_any_window_and_corrections_count() -> None:
    quota = MinuteQuota(requests_per_minute=4, tokens_per_minute=100, window_s=0.4)
    sent: list[tuple[float, int]] = []

    async def one(tokens: int) -> None:
        reservation = await quota.reserve(tokens)
        MinuteQuota.sending(reservation)
        sent.append((reservation.at, tokens))
        quota.correct(reservation, tokens // 2)  # the provider counted fewer than estimated

    async def many() -> None:
        await asyncio.gather(*(one(tokens) for tokens in [30] * 12 + [90] * 3))

    asyncio.run(many())
    assert len(sent) == 15
    for start, _ in sent:  # every window of the quota's length, from each send on
        inside = [tokens // 2 for at, tokens in sent if start <= at < start + quota.window_s]
        assert len(inside) <= 4 and sum(inside) <= 100
    assert quota.waited_s > 0


def test_per_minute_limits_come_from_the_model_entry_then_every_model_times_the_share() -> None:
    settings = resolve_settings(
        {
            "requests_per_minute": 100,
            "limits": {"gemini-2.5-flash": {"tokens_per_minute": 5000}},
            "limit_share": 0.5,
        },
        env={},
    )
    assert minute_limits(settings, "google_genai:gemini-2.5-flash") == (50, 2500)
    assert minute_limits(settings, "google_genai:gemini-2.5-flash-lite") == (50, None)
    assert minute_limits(resolve_settings({}, env={}), "openai:m") == (None, None)


def test_gemini_retry_info_is_read_through_the_wrapper_it_is_raised_in() -> None:
    class ClientError(Exception):
        def __init__(self) -> None:
            super().__init__("429 RESOURCE_EXHAUSTED")
            self.code = 429
            self.details = {
                "error": {"details": [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "2.5s"}]}
            }

    try:
        try:
            raise ClientError()
        except ClientError as cause:
            raise RuntimeError("Error calling model (RESOURCE_EXHAUSTED)") from cause
    except RuntimeError as wrapped:
        assert retry_after_seconds(wrapped) == 2.5


def test_a_reserved_request_that_waits_to_be_sent_keeps_its_place_and_a_fraction_of_a_request_allows_one() -> None:
    async def waits_past_the_window() -> tuple[float, float]:
        quota = MinuteQuota(requests_per_minute=1, tokens_per_minute=None, window_s=0.2)
        held = await quota.reserve(1)
        await asyncio.sleep(0.3)  # longer than the window, still not sent: it must not age out
        started = asyncio.get_running_loop().time()
        waiting = asyncio.ensure_future(quota.reserve(1))
        await asyncio.sleep(0.1)
        assert not waiting.done()
        MinuteQuota.sending(held)
        await waiting
        return started, asyncio.get_running_loop().time()

    started, granted = asyncio.run(waits_past_the_window())
    assert granted - started >= 0.25  # a window after the first was really sent

    async def below_one() -> None:
        quota = MinuteQuota(requests_per_minute=0.5, tokens_per_minute=None, window_s=0.1)
        for _ in range(2):
            MinuteQuota.sending(await quota.reserve(1))

    asyncio.run(below_one())
