"""Turn files into chunks with stable ids, ready to embed.

Text, Markdown and HTML files are split with LangChain's recursive character splitter; each chunk
keeps its source path and character position. A JSONL file holds chunks that are already cut
(`{"id"?, "text", "metadata"?}` per line) and is taken line by line, unsplit.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graph.config.errors import UserError

DOCUMENT_SUFFIXES = {".txt", ".md", ".markdown", ".html", ".htm"}
JSONL_SUFFIXES = {".jsonl"}

#: Namespace of the UUIDv5 chunk ids, so the same chunk always gets the same id.
CHUNK_ID_NAMESPACE = uuid.UUID("6f1d3c2e-8a4b-5e7f-9c0d-1a2b3c4d5e6f")

#: HTML elements whose text is not document content.
_SKIPPED_HTML = ("head", "script", "style", "nav", "header", "footer", "noscript")
_SKIPPED_HTML_CLASSES = ("navheader", "navfooter", "toc")


@dataclass(frozen=True)
class ChunkRecord:
    """A chunk to write: its id in the store, its text and its metadata."""

    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


def stable_id(*parts: str) -> str:
    """A UUIDv5 from the parts: re-ingesting the same content yields the same id."""
    return str(uuid.uuid5(CHUNK_ID_NAMESPACE, "\x1f".join(parts)))


def html_to_text(html: str) -> str:
    """Readable text of an HTML page: navigation dropped, one block element per paragraph."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(list(_SKIPPED_HTML)):
        tag.decompose()
    for tag in soup.find_all(class_=list(_SKIPPED_HTML_CLASSES)):
        tag.decompose()
    for tag in soup.find_all(["p", "pre", "li", "dt", "dd", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "div", "table"]):
        tag.insert_before("\n\n")
    # Block elements were marked with blank lines; line breaks inside a block are only source layout.
    blocks = (" ".join(block.split()) for block in re.split(r"\n\s*\n", soup.get_text()))
    return "\n\n".join(block for block in blocks if block)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise UserError(f"{path} is not UTF-8 text (byte {error.start}); convert it to UTF-8 or remove it") from None
    except OSError as error:
        raise UserError(f"cannot read {path} ({error.strerror}); check the path and its permissions") from None


def iter_document_files(root: Path) -> list[Path]:
    """The supported files under `root` (or `root` itself), in a stable order."""
    if not root.exists():
        raise UserError(f"{root} does not exist; give a file or folder of .txt/.md/.html files or a .jsonl file")
    if root.is_file():
        if root.suffix.lower() not in DOCUMENT_SUFFIXES | JSONL_SUFFIXES:
            raise UserError(f"{root} is not a .txt, .md, .html or .jsonl file")
        return [root]
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in DOCUMENT_SUFFIXES | JSONL_SUFFIXES)
    if not files:
        raise UserError(f"no .txt, .md, .html or .jsonl files under {root}")
    return files


#: The metadata key naming the folder a chunk was ingested from.
FOLDER_KEY = "ingested_from"


def split_document(text: str, source: str, chunk_size: int, chunk_overlap: int) -> list[ChunkRecord]:
    """Cut one document into chunks; metadata keeps the source, the character offset and the index."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, add_start_index=True)
    records = []
    for index, piece in enumerate(splitter.create_documents([text])):
        start = int(piece.metadata["start_index"])
        digest = hashlib.sha1(piece.page_content.encode()).hexdigest()
        records.append(
            ChunkRecord(
                id=stable_id(source, str(start), digest),
                text=piece.page_content,
                metadata={"source": source, "start_index": start, "chunk_index": index},
            )
        )
    return records


def read_jsonl_chunks(path: Path, lines: Iterator[str] | None = None) -> list[ChunkRecord]:
    """Chunks from a JSONL file of `{"id"?, "text", "metadata"?}` objects (or from given lines)."""
    records = []
    source = str(path)
    for number, line in enumerate(lines if lines is not None else _read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            text = row["text"]
            metadata = dict(row.get("metadata") or {})
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise UserError(
                f'{path} line {number} is not a JSON object with a "text" field; fix or remove it'
            ) from None
        if not isinstance(text, str) or not text.strip():
            continue
        given_id = row.get("id")
        chunk_id = _store_id(str(given_id)) if given_id is not None else stable_id(source, str(number), text)
        if given_id is not None and chunk_id != str(given_id):
            metadata.setdefault("source_id", str(given_id))
        metadata.setdefault("source", source)
        metadata.setdefault("line", number)
        records.append(ChunkRecord(id=chunk_id, text=text, metadata=metadata))
    return records


def _store_id(given: str) -> str:
    """PGVectorStore ids are UUIDs: keep a UUID as is, map any other id to a stable UUID."""
    try:
        return str(uuid.UUID(given))
    except ValueError:
        return stable_id("id", given)


def load_chunks(root: Path, chunk_size: int, chunk_overlap: int) -> list[ChunkRecord]:
    """Every chunk from the files under `root`, sources named relative to it."""
    if chunk_overlap >= chunk_size:
        raise UserError(f"--chunk-overlap ({chunk_overlap}) must be smaller than --chunk-size ({chunk_size})")
    records: list[ChunkRecord] = []
    base = root if root.is_dir() else root.parent
    for path in iter_document_files(root):
        if path.suffix.lower() in JSONL_SUFFIXES:
            records += read_jsonl_chunks(path)
            continue
        text = _read_text(path)
        if path.suffix.lower() in {".html", ".htm"}:
            text = html_to_text(text)
        if text.strip():
            records += split_document(text, str(path.relative_to(base)), chunk_size, chunk_overlap)
    if root.is_dir():  # a folder's chunks say where they came from: its documents deleted later go with it
        folder = str(root.resolve())
        for record in records:
            record.metadata[FOLDER_KEY] = folder  # a row copied from another folder's dump is this folder's now
    return records
