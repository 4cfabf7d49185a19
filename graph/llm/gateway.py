"""The model layer every node talks to: structured answers with bounded retries, rate limits,
accounting, a response cache, and recorded calls.

    answer, record = await gateway.ask("validator", QualityVerdict, messages, node="judge_quality")

A call goes: recorded file (when the role's spec is `recorded:FILE`) or cache, else the provider through
the shared per-provider limiter, retrying transient errors with backoff. The reply is validated
against the pydantic schema; an invalid one is sent back with the error as feedback, a bounded
number of times, after which the call raises `ModelCallFailed` (the sample fails, the run goes on).

A reply's parts are read in `graph.llm.replies`, recorded calls in `graph.llm.recording`, and the
structured-output mode a server is asked in is chosen by `graph.llm.modes.ServerModes`; the gateway a
run's settings call for is built by `graph.llm.from_settings`.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Awaitable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import structlog
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel

from graph.config.errors import first_line
from graph.llm.cache import LLMCache, StoredResponse, request_key
from graph.llm.errors import ModeRefused, ProviderUnavailable
from graph.llm.limits import (
    AdaptiveLimiter,
    MinuteQuota,
    RetryPolicy,
    classify,
    estimate_tokens,
    retry_after_seconds,
)
from graph.llm.models import (
    PROVIDERS,
    Price,
    RoleModel,
    gemini_schema,
    price_per_million,
)
from graph.llm.modes import ServerModes, refuses_mode, structured_runnable, with_schema_instruction
from graph.llm.parsing import ReplyParseError, parse_reply, validate
from graph.llm.recording import Recordings
from graph.llm.replies import (
    BLOCKED_FINISH_REASONS,
    CUT_OFF_FINISH_REASONS,
    MAX_CUT_OFF_RETRIES,
    Reply,
    finish_reason_error,
    reply_from,
    reply_text,
    stored_reply,
)
from nodes.ports import ModelCallFailed
from state.usage import ModelCall, Role, StructuredMode

T = TypeVar("T", bound=BaseModel)
log = structlog.get_logger("triad.llm")

#: Times an unusable reply is sent back with feedback before the call fails.
MAX_SCHEMA_RETRIES = 2

SCHEMA_FEEDBACK = (
    "Your previous reply could not be used: {error}. Reply again with only a JSON object that fits the "
    "requested schema, with no other text."
)


def parsed_as(reply: Reply, schema: type[T]) -> T:
    """The reply as `schema`: the object the client library parsed, when it is one (it passed the schema's
    validation there); else the reply validated here (`validate`, `parse_reply`)."""
    if type(reply.parsed) is schema:
        return reply.parsed  # type: ignore[return-value]
    if reply.parsed is not None:
        return validate(reply.parsed.model_dump(), schema)
    return parse_reply(reply.text, schema)


class LLMGateway:
    """Structured calls for the three roles, shared by every sample of a run."""

    def __init__(
        self,
        roles: dict[Role, RoleModel],
        *,
        prices: dict[str, tuple[float, ...]] | None = None,
        requests_per_second: float = 10.0,
        max_concurrency: int = 16,
        retry: RetryPolicy | None = None,
        cache: LLMCache | None = None,
        recording_path: Path | None = None,
        random_seed: int | None = None,
        minute_limits: dict[str, tuple[float | None, float | None]] | None = None,
        modes: dict[str, StructuredMode] | None = None,
    ) -> None:
        self.roles = roles
        self.quotas = {spec: MinuteQuota(rpm, tpm) for spec, (rpm, tpm) in (minute_limits or {}).items() if rpm or tpm}
        """Requests and prompt tokens per minute, by model spec; shared by every role that uses the model."""
        self.prices = prices or {}
        self.retry = retry or RetryPolicy()
        self.cache = cache
        self.recordings = Recordings(recording_path)
        self.calls: list[ModelCall] = []
        # Totals over `calls`, kept as they grow: progress and the cost limit read them after every sample.
        self._cost_usd = 0.0
        self._tokens = 0
        self._latency: dict[Role, tuple[int, float]] = {}
        self._limits = (requests_per_second, max_concurrency)
        self._limiters: dict[str, AdaptiveLimiter] = {}
        self._rng = random.Random(random_seed)
        self._provider_ok = False
        self._structured: dict[tuple[int, type[BaseModel], str], Any] = {}
        self.modes = ServerModes(modes)
        """The structured-output mode each server answered in, by `RoleModel.server`."""

    @property
    def cost_usd(self) -> float:
        """Spent so far by this gateway."""
        return self._cost_usd

    @property
    def tokens(self) -> int:
        """Prompt and output tokens of every call so far."""
        return self._tokens

    def mean_latency(self) -> dict[Role, float]:
        """Seconds a provider call took on average (retries included), by role; roles with no such call left out."""
        return {role: total / count for role, (count, total) in self._latency.items()}

    def limiter(self, provider: str) -> AdaptiveLimiter:
        """The limiter shared by every call to `provider`."""
        if provider not in self._limiters:
            self._limiters[provider] = AdaptiveLimiter(*self._limits)
        return self._limiters[provider]

    async def ask(
        self, role: Role, schema: type[T], messages: Sequence[BaseMessage], *, node: str, cached: bool = True
    ) -> tuple[T, ModelCall]:
        """A validated answer of `schema` from the role's model, and what it cost; `cached=False` asks the provider
        even when the cache holds the answer."""
        model = self.roles[role]
        started = time.monotonic()
        conversation = list(messages)
        totals = Reply(text="", attempts=0)
        problem: ReplyParseError | None = None
        cut_offs = 0
        for _ in range(MAX_SCHEMA_RETRIES + 1):
            reply = await self._answer(model, node, schema, conversation, cached)
            totals.add(reply)
            if reply.finish_reason in BLOCKED_FINISH_REASONS or (
                reply.finish_reason in CUT_OFF_FINISH_REASONS and cut_offs >= MAX_CUT_OFF_RETRIES
            ):
                call = self._account(model, node, totals, time.monotonic() - started)
                what = "withheld by the provider" if reply.finish_reason in BLOCKED_FINISH_REASONS else "cut off"
                raise ModelCallFailed(
                    f"{node}: the reply of {model.spec} was {what} (finish reason {reply.finish_reason})",
                    raw=totals.text,
                    call=call,
                )
            cut_offs += reply.finish_reason in CUT_OFF_FINISH_REASONS
            try:
                value = parsed_as(reply, schema)
            except ReplyParseError as error:
                problem = error
                log.warning("reply_unusable", role=role, node=node, model=model.spec, error=str(error))
                conversation = [
                    *messages,
                    AIMessage(content=reply.text),
                    HumanMessage(SCHEMA_FEEDBACK.format(error=error)),
                ]
                continue
            return value, self._account(model, node, totals, time.monotonic() - started)
        call = self._account(model, node, totals, time.monotonic() - started)
        raise ModelCallFailed(
            f"{node}: no usable {schema.__name__} from {model.spec} ({problem})", raw=totals.text, call=call
        )

    def _account(self, model: RoleModel, node: str, reply: Reply, seconds: float) -> ModelCall:
        # Only provider calls are paid; cached and recorded answers keep their recorded tokens.
        paid = reply.source == "provider"
        price = price_per_million(model.spec, self.prices) if paid else Price()
        cost = price.cost(reply.input_tokens, reply.output_tokens, reply.cached_tokens)
        call = ModelCall(
            role=model.role,
            node=node,
            model=model.spec,
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cached_tokens=reply.cached_tokens,
            thinking_tokens=reply.thinking_tokens,
            cost_usd=cost,
            thinking_cost_usd=reply.thinking_tokens * price.output / 1e6,
            source=reply.source,  # type: ignore[typeddict-item]
            attempts=reply.attempts,
            seconds=round(seconds, 3),
        )
        self.calls.append(call)
        self._cost_usd += cost
        self._tokens += reply.input_tokens + reply.output_tokens
        if paid:
            count, total = self._latency.get(model.role, (0, 0.0))
            self._latency[model.role] = (count + 1, total + seconds)
        log.debug("llm_call", **call)
        return call

    async def _answer(
        self, model: RoleModel, node: str, schema: type[BaseModel], conversation: list[BaseMessage], cached: bool
    ) -> Reply:
        cache = self.cache if model.provider in PROVIDERS and cached else None
        # The request's hash is worth computing only when something looks it up or writes it down.
        keyed = model.recorded_file is not None or cache is not None or self.recordings.recording_path is not None
        key = request_key(model.role, conversation, schema) if keyed else ""
        if model.recorded_file is not None:
            return stored_reply(self.recordings.answer(model, node, schema, key), "recorded")
        # A thinking setting and the server change the answer: they are part of the key (a model asked on its
        # provider's own server, with no thinking setting, keeps the key it always had). Local servers often
        # answer any model name, so two models served as `openai:local` must not share answers.
        asked = model.spec if model.thinking is None else f"{model.spec}\x1fthinking={model.thinking}"
        if model.base_url:
            asked += f"\x1fserver={model.base_url}"
        cache_key = hashlib.sha256(f"{asked}\x1f{key}".encode()).hexdigest()
        if cache is not None and (hit := await cache.get(cache_key)) is not None:
            return stored_reply(hit, "cache")
        reply = await self._call_provider(model, node, schema, conversation)
        response = StoredResponse(content=reply.text, usage=reply.usage())
        if reply.finish_reason:
            response["finish_reason"] = reply.finish_reason
        if cache is not None and reply.finish_reason not in BLOCKED_FINISH_REASONS | CUT_OFF_FINISH_REASONS:
            await cache.put(cache_key, model.spec, response)
        if self.recordings.recording_path is not None:
            await self.recordings.write(key, model, node, schema, conversation, response)
        return reply

    async def _call_provider(
        self, model: RoleModel, node: str, schema: type[BaseModel], conversation: list[BaseMessage]
    ) -> Reply:
        """The provider's reply in the model's structured-output mode (`ServerModes.answer` chooses it)."""

        def send(mode: StructuredMode, probing: bool) -> Awaitable[Reply]:
            return self._send(model, node, schema, conversation, mode, probing=probing)

        return await self.modes.answer(model, send)

    async def _send(
        self,
        model: RoleModel,
        node: str,
        schema: type[BaseModel],
        conversation: list[BaseMessage],
        mode: StructuredMode,
        *,
        probing: bool = False,
    ) -> Reply:
        """One request in `mode`, transient errors retried with backoff; `probing`: a refusal of the mode is
        `ModeRefused` at once."""
        assert model.chat_model is not None
        try:
            runnable = self._structured_runnable(model, schema, mode)
        except NotImplementedError as error:  # the client library cannot ask this model in this mode
            if probing:
                raise ModeRefused(f"{type(error).__name__}: {error}") from None
            raise ModelCallFailed(
                f"{model.spec} cannot be asked in the {mode} mode ({error}); name another with --structured-output",
                raw="",
                call=self._account(model, node, Reply(text="", attempts=0), 0.0),
            ) from None
        if mode in ("json_object", "text"):
            conversation = with_schema_instruction(conversation, schema)
        limiter = self.limiter(model.provider)
        quota = self.quotas.get(model.spec)
        estimate = estimate_tokens(sum(len(reply_text(message)) for message in conversation))
        waited = 0.0
        for attempt in range(1, self.retry.max_attempts + 1):
            try:
                sent = await quota.reserve(estimate) if quota is not None else None
                # asyncio.timeout bounds the call in this task (wait_for would start another task per call).
                async with limiter.slot(), asyncio.timeout(self.retry.request_timeout_s):
                    if sent is not None:
                        MinuteQuota.sending(sent)
                    result = await runnable.ainvoke(conversation)
            except Exception as error:  # provider SDKs raise their own hierarchies; classify() sorts them
                finished = finish_reason_error(error, attempt)
                if finished is not None:  # OpenAI's parse() raises where others reply with a finish reason
                    return finished
                refused = refuses_mode(error)
                if refused and probing:
                    raise ModeRefused(f"{type(error).__name__}: {first_line(error)}") from None
                kind = "fatal" if refused else classify(error)  # asking again in the same form cannot help
                if kind == "auth":
                    raise ProviderUnavailable(
                        f"{model.spec} refused the credentials ({type(error).__name__}); check the API key"
                    ) from None
                if kind == "connection" and not self._provider_ok and attempt >= 2:
                    raise ProviderUnavailable(
                        f"cannot reach {model.spec} ({type(error).__name__}: {error}); "
                        "check the network or --llm-base-url"
                    ) from None
                if kind == "rate_limited":
                    limiter.throttled()
                delay = self.retry.delay(attempt, retry_after_seconds(error), self._rng)
                if (
                    kind == "fatal"
                    or attempt == self.retry.max_attempts
                    or waited + delay > self.retry.max_total_wait_s
                ):
                    hint = (
                        f"; the server refuses the {mode} mode: name another with --structured-output"
                        if refused
                        else ""
                    )
                    raise ModelCallFailed(
                        f"{model.spec} failed after {attempt} attempt(s): {type(error).__name__}: {error}{hint}",
                        raw="",
                        call=self._account(model, node, Reply(text="", attempts=attempt), waited),
                    ) from None
                log.info("llm_retry", model=model.spec, kind=kind, attempt=attempt, delay_s=round(delay, 2))
                waited += delay
                await asyncio.sleep(delay)
                continue
            limiter.succeeded()
            self._provider_ok = True
            reply = reply_from(result, attempt)
            if sent is not None and quota is not None:
                quota.correct(sent, reply.input_tokens)
            return reply
        raise AssertionError("unreachable: the loop returns or raises")

    def _structured_runnable(self, model: RoleModel, schema: type[BaseModel], mode: StructuredMode) -> Any:
        """The model bound to ask for `schema` in `mode`, built once per model, schema and mode (building costs CPU).

        Gemini gets the schema without the keywords it refuses; the reply is validated against `schema` all the same.
        """
        assert model.chat_model is not None
        key = (id(model.chat_model), schema, mode)
        if key not in self._structured:
            sent: Any = gemini_schema(schema) if model.provider == "google_genai" else schema
            self._structured[key] = structured_runnable(model.chat_model, model.provider, schema, mode, sent)
        return self._structured[key]
