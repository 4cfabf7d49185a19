"""What nodes need from the outside world, as interfaces the graph layer implements.

Nodes ask a role for a structured answer; they never see vendors, retries, caches or limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from state.usage import CallRecord, Role

T = TypeVar("T", bound=BaseModel)


class ModelCallFailed(Exception):
    """A call that gave no usable answer within its bounds (unparseable replies, provider errors
    past the retry budget); the sample ends as `failed`, with the raw reply kept."""

    def __init__(self, message: str, *, raw: str, record: CallRecord) -> None:
        super().__init__(message)
        self.raw = raw
        self.record = record


class StructuredChat(Protocol):
    """Asks the model of a role for an answer validated against a pydantic schema."""

    async def ask(
        self, role: Role, schema: type[T], messages: Sequence[BaseMessage], *, node: str
    ) -> tuple[T, CallRecord]:
        """The validated answer and what the call cost; raises `ModelCallFailed` when there is none."""
        ...
