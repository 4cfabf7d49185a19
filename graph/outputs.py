"""The files of a run folder: dataset.jsonl, rejected.jsonl, run.json.

Lines are appended as samples finish, each whole, flushed and synced under a file lock (several
workers may share a folder); a worker writes them in the background, in batches when samples
finish faster than a disk syncs. The state database is the source of truth: on resume and at the end
the two JSONL files are rewritten from it (temporary file, then an atomic rename), so a crash can
never leave a partial or duplicated line behind.
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def append_lines(path: Path, entries: list[dict[str, Any]]) -> None:
    """Append JSON lines, each whole: locked, flushed and synced once for all of them."""
    if not entries:
        return
    text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    with path.open("a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so readers see the old file or the new one, never a mix."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with temporary.open("w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def write_jsonl(path: Path, entries: Iterable[dict[str, Any]]) -> None:
    write_atomically(path, "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries))


class RunFolder:
    """runs/<run_id>/ and its files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    @property
    def dataset(self) -> Path:
        return self.folder / "dataset.jsonl"

    @property
    def rejected(self) -> Path:
        return self.folder / "rejected.jsonl"

    @property
    def run_json(self) -> Path:
        return self.folder / "run.json"

    @property
    def report(self) -> Path:
        return self.folder / "report.html"

    def append(self, finished: list[tuple[dict[str, Any] | None, dict[str, Any] | None]]) -> None:
        """Append finished samples, each a (record, rejection) pair: records to the dataset, rejections apart."""
        append_lines(self.dataset, [record for record, _ in finished if record is not None])
        append_lines(self.rejected, [rejection for record, rejection in finished if record is None and rejection])

    def rebuild(self, finished: list[dict[str, Any]]) -> None:
        """Rewrite both JSONL files from the finished samples in the state database."""
        write_jsonl(self.dataset, (row["record"] for row in finished if row["record"]))
        write_jsonl(self.rejected, (row["rejection"] for row in finished if not row["record"] and row["rejection"]))

    def write_run_json(self, document: dict[str, Any]) -> None:
        write_atomically(self.run_json, json.dumps(document, indent=2) + "\n")
