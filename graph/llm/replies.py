"""A model's reply before validation: its text, tokens and finish reason, read from what LangChain returns."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from graph.llm.cache import StoredResponse, TokenUsage


def reply_text(message: BaseMessage) -> str:
    """The text of a reply, whether its content is a string or a list of parts."""
    if isinstance(message.content, str):
        return message.content
    parts = [part.get("text", "") if isinstance(part, dict) else str(part) for part in message.content]
    return "".join(parts)


#: Finish reasons of a reply the provider withheld (Gemini's, and OpenAI's content filter): asking
#: again for the same thing cannot help, so the call fails at once with the reason.
BLOCKED_FINISH_REASONS = frozenset(
    {"SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "content_filter"}
)

#: Finish reasons of a reply cut off at the output limit: asked again once, then the call fails.
CUT_OFF_FINISH_REASONS = frozenset({"MAX_TOKENS", "length"})

#: Re-asks after a cut-off reply.
MAX_CUT_OFF_RETRIES = 1


@dataclass
class Reply:
    """One answer to one request, before validation."""

    text: str
    parsed: BaseModel | None = None
    input_tokens: int = 0
    output_tokens: int = 0
    source: str = "provider"
    attempts: int = 1
    cached_tokens: int = 0
    """Of `input_tokens`, those the provider's prompt cache served."""
    thinking_tokens: int = 0
    """Of `output_tokens`, those spent thinking."""
    finish_reason: str = ""

    def add(self, other: Reply) -> None:
        """Count `other`'s tokens and attempts in this one, and keep its text and source."""
        self.input_tokens += other.input_tokens
        self.output_tokens += other.output_tokens
        self.cached_tokens += other.cached_tokens
        self.thinking_tokens += other.thinking_tokens
        self.attempts += other.attempts
        self.source, self.text, self.finish_reason = other.source, other.text, other.finish_reason

    def usage(self) -> TokenUsage:
        """The tokens as the cache and recordings keep them."""
        return TokenUsage(
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            cached_tokens=self.cached_tokens,
            thinking_tokens=self.thinking_tokens,
        )


def tool_arguments(message: BaseMessage) -> str:
    """The arguments of a reply's first tool call as the model wrote them (a call LangChain could not parse keeps
    its raw text), for the tolerant reading a text reply gets; empty without a tool call."""
    invalid = getattr(message, "invalid_tool_calls", None) or []
    if invalid and isinstance(invalid[0].get("args"), str):
        return str(invalid[0]["args"])
    calls = getattr(message, "tool_calls", None) or []
    return json.dumps(calls[0]["args"], ensure_ascii=False) if calls else ""


def reply_from(result: Any, attempts: int) -> Reply:
    """A chat model's structured-output result (raw message and parsed object) as a `Reply`."""
    raw: BaseMessage = result["raw"] if isinstance(result, dict) else result
    parsed = result.get("parsed") if isinstance(result, dict) else None
    text = reply_text(raw)
    if not text.strip():  # tool-call style structured output leaves content empty: its arguments are the reply
        text = tool_arguments(raw) or (parsed.model_dump_json() if isinstance(parsed, BaseModel) else "")
    usage = getattr(raw, "usage_metadata", None) or {}
    metadata = getattr(raw, "response_metadata", None) or {}
    return Reply(
        text=text,
        parsed=parsed if isinstance(parsed, BaseModel) else None,
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        cached_tokens=int((usage.get("input_token_details") or {}).get("cache_read") or 0),
        thinking_tokens=int((usage.get("output_token_details") or {}).get("reasoning") or 0),
        finish_reason=str(metadata.get("finish_reason") or metadata.get("done_reason") or ""),
        attempts=attempts,
    )


#: OpenAI's exceptions for a structured reply that ended early, by the finish reason they stand for.
FINISH_REASON_ERRORS = {"LengthFinishReasonError": "length", "ContentFilterFinishReasonError": "content_filter"}


def finish_reason_error(error: BaseException, attempts: int) -> Reply | None:
    """The reply an OpenAI finish-reason exception stands for (its tokens were paid for); None for other errors."""
    reason = FINISH_REASON_ERRORS.get(type(error).__name__)
    if reason is None:
        return None
    usage = getattr(getattr(error, "completion", None), "usage", None)
    return Reply(
        text="",
        input_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        finish_reason=reason,
        attempts=attempts,
    )


def stored_reply(response: StoredResponse, source: str) -> Reply:
    """A recorded or cached response, with the tokens it cost when it was first paid for."""
    usage = response.get("usage") or {}
    return Reply(
        text=str(response["content"]),
        input_tokens=int(usage.get("input_tokens", 0)),
        output_tokens=int(usage.get("output_tokens", 0)),
        cached_tokens=int(usage.get("cached_tokens", 0)),
        thinking_tokens=int(usage.get("thinking_tokens", 0)),
        finish_reason=str(response.get("finish_reason", "")),
        source=source,
        attempts=0,
    )
