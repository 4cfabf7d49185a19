"""A query file a run is seeded from (`--queries FILE`): one query per line, or JSON lines with `query` and an
optional `role`; read whole, and its digest kept with the run so a continued run reads the same queries."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from graph.config.errors import UserError


@dataclass(frozen=True)
class Query:
    text: str
    role: str | None = None
    """Who asked, when the file says (JSON lines' `role`)."""


def query_hash(text: str) -> str:
    """A query's link in records: the first 16 hex digits of the SHA-256 of its text as the file gives it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def file_digest(path: Path) -> str:
    """The SHA-256 of a query file, kept with the run so a continued run reads the same queries."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_queries(path: Path) -> list[Query]:
    """The queries of a file: plain lines, or JSON lines (`.jsonl`, or a first line that opens an object)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(f"query file {path} not found; give --queries a file with one query per line") from None
    except (OSError, UnicodeDecodeError) as error:
        raise UserError(f"cannot read query file {path} ({error}); give --queries a UTF-8 text file") from None
    lines = [(number, line.strip()) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    as_json = path.suffix == ".jsonl" or (bool(lines) and lines[0][1].startswith("{"))
    queries = [_json_query(path, number, line) if as_json else Query(line) for number, line in lines]
    if not queries:
        raise UserError(f"query file {path} holds no query; put one query per line")
    return queries


def _json_query(path: Path, number: int, line: str) -> Query:
    try:
        item = json.loads(line)
    except ValueError:
        item = None
    if not isinstance(item, dict) or not isinstance(item.get("query"), str) or not item["query"].strip():
        raise UserError(f'{path} line {number} is not a JSON object with a "query" text; fix or remove that line')
    role = item.get("role")
    return Query(item["query"].strip(), role.strip() if isinstance(role, str) and role.strip() else None)


def query_file(path: Path) -> dict[str, str]:
    """The query file as a run keeps it: its absolute path and the digest of its contents (read once here)."""
    read_queries(path)  # an unreadable or empty file fails here, before any work
    return {"queries": str(path.resolve()), "queries_digest": file_digest(path)}
