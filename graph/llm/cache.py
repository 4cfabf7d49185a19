"""Answers kept by request key: the state database's cache, and the files --record-llm writes.

A request's key covers its role, messages and schema, so a changed prompt never gets an old answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, NotRequired, TypedDict, cast

import structlog
from langchain_core.messages import BaseMessage
from pydantic import BaseModel

from graph.config.errors import UserError, first_line

log = structlog.get_logger("triad.llm")


def message_payload(messages: Sequence[BaseMessage]) -> list[dict[str, Any]]:
    """Messages as plain data, for hashing and recording."""
    return [{"type": message.type, "content": message.content} for message in messages]


class TokenUsage(TypedDict, total=False):
    """The tokens a response cost when it was first paid for."""

    input_tokens: int
    output_tokens: int
    cached_tokens: int
    thinking_tokens: int


class StoredResponse(TypedDict):
    """A model's response as the cache and the recorded files keep it: its text, its tokens, and why it ended where
    the provider said."""

    content: str
    usage: TokenUsage
    finish_reason: NotRequired[str]


@lru_cache(maxsize=64)
def schema_fingerprint(schema: type[BaseModel]) -> str:
    """The schema's JSON schema as canonical text (generating it costs milliseconds: done once)."""
    return json.dumps(schema.model_json_schema(), sort_keys=True)


def request_key(role: str, messages: Sequence[BaseMessage], schema: type[BaseModel]) -> str:
    """Stable hash of role + messages + schema: the key of recorded files and of the cache."""
    payload = {"role": role, "messages": message_payload(messages), "schema": json.loads(schema_fingerprint(schema))}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@dataclass
class LLMCache:
    """Answers by request key, kept in the state database so a repeated run pays nothing twice."""

    url: str
    _conn: Any = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def _connection(self) -> Any:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            await self._conn.execute(
                "CREATE TABLE IF NOT EXISTS triad_llm_cache (key TEXT PRIMARY KEY, model TEXT NOT NULL,"
                " response JSONB NOT NULL, created_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
        return self._conn

    async def get(self, key: str) -> StoredResponse | None:
        """The cached response, or None (also while the database is away: the cache is only a saving)."""
        import psycopg

        async with self._lock:
            try:
                conn = await self._connection()
                cursor = await conn.execute("SELECT response FROM triad_llm_cache WHERE key = %s", (key,))
                row = await cursor.fetchone()
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                log.info("llm_cache_unavailable", error=first_line(error))
                return None
        return cast(StoredResponse, row[0]) if row else None

    async def put(self, key: str, model: str, response: StoredResponse) -> None:
        import psycopg

        from graph.store.jsonb import jsonb

        async with self._lock:
            try:
                conn = await self._connection()
                await conn.execute(
                    "INSERT INTO triad_llm_cache (key, model, response) VALUES (%s, %s, %s)"
                    " ON CONFLICT (key) DO NOTHING",
                    (key, model, jsonb(response)),
                )
            except (psycopg.OperationalError, psycopg.InterfaceError) as error:
                log.info("llm_cache_unavailable", error=first_line(error))

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()


def load_recorded_calls(path: Path) -> dict[str, StoredResponse]:
    """Recorded responses by request key (the first one recorded for a key wins)."""
    answers: dict[str, StoredResponse] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            answers.setdefault(entry["key"], cast(StoredResponse, dict(entry["response"])))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise UserError(
                f"{path} line {number} is not a recorded request; record the file again with --record-llm"
            ) from None
    return answers


def append_text(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)
