"""Turn a folder of files into chunks with stable ids and their place, ready to embed.

Each format has a reader (`graph.ingestion.documents`, `.pdf`, `.word`, `.web`) and every document
is cut by `graph.ingestion.chunking`. A JSONL file holds chunks that are already cut
(`{"id"?, "text", "metadata"?}` per line) and is taken line by line, unsplit. A file that cannot be
read is skipped with the reason, and the others are read.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from graph.config.errors import UserError
from graph.ingestion.chunking import ChunkRecord, chunk_document, stable_id
from graph.ingestion.documents import Document, Unreadable, decode_text, read_bytes, read_markdown, read_plain_text
from graph.ingestion.pdf import read_pdf
from graph.ingestion.web import read_html
from graph.ingestion.word import read_docx

#: The reader of each document format, by file suffix.
READERS: dict[str, Callable[[Path], Document]] = {
    ".txt": read_plain_text,
    ".md": read_markdown,
    ".markdown": read_markdown,
    ".html": read_html,
    ".htm": read_html,
    ".pdf": read_pdf,
    ".docx": read_docx,
}
JSONL_SUFFIXES = {".jsonl"}
SUPPORTED = ".txt, .md, .html, .pdf, .docx or .jsonl"

#: The metadata key naming the folder a chunk was ingested from.
FOLDER_KEY = "ingested_from"


@dataclass(frozen=True)
class FileResult:
    """What one file gave: its chunks, or why it was skipped."""

    source: str
    chunks: list[ChunkRecord] = field(default_factory=list)
    skipped: str | None = None
    """The reason the file could not be read; None when it was."""


@dataclass
class Loaded:
    """The chunks of a folder, and the files that gave none."""

    chunks: list[ChunkRecord] = field(default_factory=list)
    files: int = 0
    skipped: list[FileResult] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    """Files read that hold no text (an empty file, a page of links only)."""


def iter_document_files(root: Path) -> list[Path]:
    """The supported files under `root` (or `root` itself), in a stable order."""
    suffixes = set(READERS) | JSONL_SUFFIXES
    if not root.exists():
        raise UserError(f"{root} does not exist; give a file or folder of {SUPPORTED} files")
    if root.is_file():
        if root.suffix.lower() not in suffixes:
            raise UserError(f"{root} is not a {SUPPORTED} file")
        return [root]
    files = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in suffixes)
    if not files:
        raise UserError(f"no {SUPPORTED} files under {root}")
    return files


def read_jsonl_chunks(path: Path, lines: Iterator[str] | None = None) -> list[ChunkRecord]:
    """Chunks from a JSONL file of `{"id"?, "text", "metadata"?}` objects (or from given lines)."""
    records = []
    source = str(path)
    for number, line in enumerate(lines if lines is not None else decode_text(read_bytes(path)).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            text = row["text"]
            metadata = dict(row.get("metadata") or {})
        except (json.JSONDecodeError, KeyError, TypeError, ValueError):
            raise Unreadable(f'has a line {number} that is not a JSON object with a "text" field; fix it') from None
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


def read_file(path: Path, source: str, chunk_size: int, chunk_overlap: int) -> FileResult:
    """One file's chunks; an unreadable file gives the reason instead."""
    try:
        if path.suffix.lower() in JSONL_SUFFIXES:
            return FileResult(source, read_jsonl_chunks(path))
        document = READERS[path.suffix.lower()](path)
    except Unreadable as problem:
        return FileResult(source, skipped=str(problem))
    except Exception as error:  # noqa: BLE001 - a reader library failing on one odd file must not stop the others
        reason = f"could not be read ({type(error).__name__}: {error}); re-save it or remove it"
        return FileResult(source, skipped=reason)
    return FileResult(source, chunk_document(document, source, chunk_size, chunk_overlap))


def load_chunks(
    root: Path,
    chunk_size: int,
    chunk_overlap: int,
    observe: Callable[[FileResult], None] | None = None,
    files: list[Path] | None = None,
) -> Loaded:
    """Every chunk from the files under `root` (or the `files` of it already listed), sources named relative
    to it; `observe` sees each file's result."""
    if chunk_overlap >= chunk_size:
        raise UserError(f"--chunk-overlap ({chunk_overlap}) must be smaller than --chunk-size ({chunk_size})")
    loaded = Loaded()
    base = root if root.is_dir() else root.parent
    for path in files if files is not None else iter_document_files(root):
        result = read_file(path, str(path.relative_to(base)), chunk_size, chunk_overlap)
        loaded.files += 1
        if result.skipped:
            loaded.skipped.append(result)
        elif not result.chunks:
            loaded.empty.append(result.source)
        loaded.chunks += result.chunks
        if observe:
            observe(result)
    if root.is_dir():  # a folder's chunks say where they came from: its documents deleted later go with it
        folder = str(root.resolve())
        for record in loaded.chunks:
            record.metadata[FOLDER_KEY] = folder  # a row copied from another folder's dump is this folder's now
    return loaded
