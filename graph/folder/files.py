"""The files of a run folder: dataset.jsonl, rejected.jsonl, run.json.

Lines are appended as samples finish, each whole, written under a lock on the file (several
workers may share a folder); a worker writes them in the background, in batches when samples
finish faster than a disk writes. The state database is the source of truth: on resume and at the end
the two JSONL files are rewritten from it (temporary file, then an atomic rename), so a crash can
never leave a partial or duplicated line behind. A file that cannot be written (a full disk, a
folder without write access) ends the command with one line: the samples are in the database, and
a resume writes the files again.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import os
import re
from collections.abc import AsyncGenerator, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, get_args

import orjson
from pydantic import BaseModel
from typing_extensions import get_type_hints, is_typeddict

from graph.config.errors import UserError, reason, writing
from graph.folder.run_document import RunDocument, dump_run_document
from state.record import DatasetRecord, Rejection

LINE = orjson.OPT_NON_STR_KEYS | orjson.OPT_APPEND_NEWLINE

#: A finished sample as the run's files take it: (its dataset record, its rejected.jsonl entry), either
#: None. One with a record is a dataset line (a replayed sample that passed keeps its old rejection too).
FileLines = tuple[dict[str, Any] | None, dict[str, Any] | None]

#: A run id names a folder under the runs folder and prefixes its samples' thread ids (`<run_id>/<n>`).
RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def check_run_id(run_id: str) -> str:
    """`run_id` when it is one folder name: letters, digits, '.', '_' and '-'; else one line naming the rule."""
    if not RUN_ID.fullmatch(run_id):
        raise UserError(
            f"run id {run_id!r} cannot be used: give 1 to 100 letters, digits, '.', '_' or '-', starting with a "
            "letter or digit (it names the run's folder)"
        )
    return run_id


def json_lines(entries: Iterable[Mapping[str, object]]) -> str:
    """One compact JSON object per line, UTF-8 as is.

    orjson: a dataset record carries its contexts' texts, and the rewrite of a large run's files at
    its end encodes every record; orjson does that many times faster than `json.dumps`.
    """
    return json_line_bytes(entries).decode()


def json_line_bytes(entries: Iterable[Mapping[str, object]]) -> bytes:
    """`json_lines` encoded in UTF-8."""
    return b"".join(orjson.dumps(entry, option=LINE) for entry in entries)


def append_lines(path: Path, entries: Sequence[Mapping[str, object]]) -> None:
    """Append JSON lines, each whole: the file locked once for all of them, written without a buffer.

    Not synced: the state database is what a run keeps, and the end of a run and every resume rewrite
    both files from it, synced, so a line the operating system lost in a crash is written again."""
    if not entries:
        return
    data = memoryview(json_line_bytes(entries))
    # Workers of one run append to the same files: a lock on the file keeps their lines whole, however many
    # writes the lines take.
    descriptor = _locked_for_appending(path)
    try:
        while data:
            data = data[os.write(descriptor, data) :]
    finally:
        os.close(descriptor)  # closing releases the lock


#: Times an append opens its file again when a rewrite replaced it while the lock was awaited.
REOPENINGS = 3
#: What flock raises on a file system that takes no such lock: the file is used unlocked, as a local one
#: takes each O_APPEND write whole.
LOCKS_UNSUPPORTED = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EINVAL, errno.EBADF})


def _locked_for_appending(path: Path) -> int:
    """`path` open for appending and locked. A file renamed over `path` while the lock was awaited (a
    `Replacement`, which takes the lock first) is the one opened, not the file it replaced."""
    for reopenings in range(REOPENINGS + 1):
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            if not _lock(descriptor) or reopenings == REOPENINGS or _same_file(descriptor, path):
                return descriptor
        except BaseException:
            os.close(descriptor)
            raise
        os.close(descriptor)
    raise AssertionError("unreachable: the last opening is returned")


def _lock(descriptor: int) -> bool:
    """Wait for the exclusive lock on the open file; False where the file system takes none."""
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
    except OSError as error:
        if error.errno in LOCKS_UNSUPPORTED:
            return False
        raise
    return True


def _same_file(descriptor: int, path: Path) -> bool:
    """Whether `path` still names the file open as `descriptor`."""
    opened = os.fstat(descriptor)
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    return (opened.st_dev, opened.st_ino) == (named.st_dev, named.st_ino)


@contextlib.contextmanager
def _appends_held(path: Path) -> Iterator[None]:
    """Within the block, no append to the file at `path` is under way or starts (see `append_lines`). Where
    the file cannot be opened for writing or locked (none yet, a FIFO, a file system without locks), the
    block runs unlocked: a rewrite does not need the lock to go ahead."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NONBLOCK)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


class Replacement:
    """A new version of `path`, written beside it and renamed over it by `commit`.

    Readers see the old file or the new one, never a mix. Unless `commit` got as far as the rename,
    `discard` removes what was written: a full disk keeps no half-written copy.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        self._handle = self.temporary.open("w", encoding="utf-8")
        self._renamed = False

    def write(self, text: str) -> None:
        self._handle.write(text)

    def commit(self) -> None:
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        # An append under way ends in the file replaced; one waiting for it opens the new file.
        with _appends_held(self.path):
            os.replace(self.temporary, self.path)
        self._renamed = True

    def discard(self) -> None:
        if self._renamed:
            return
        with contextlib.suppress(OSError):  # a full disk may refuse the buffered rest: it is thrown away
            self._handle.close()
        with contextlib.suppress(OSError):  # the error that brought us here is the one to report
            self.temporary.unlink(missing_ok=True)


def write_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` so readers see the old file or the new one, never a mix."""
    replacement = Replacement(path)
    try:
        replacement.write(text)
        replacement.commit()
    finally:
        replacement.discard()


def write_jsonl(path: Path, entries: Iterable[Mapping[str, object]]) -> None:
    write_atomically(path, json_lines(entries))


def make_folder(folder: Path) -> None:
    """Create `folder` (and its parents) unless it exists; one line naming the fix when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot create {folder}: {reason(error)}; fix --runs-dir / TRIAD_RUNS_DIR") from None


class RunFolder:
    """runs/<run_id>/ and its files."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        make_folder(folder)

    def writing(self, path: Path) -> AbstractContextManager[None]:
        """Turns a failed write of `path` into one line naming the fix."""
        return writing(
            path,
            "finished samples are kept in the state database: once the folder can be written (free space, "
            f"access rights, --runs-dir), go on with --resume {self.folder.name}",
        )

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

    def append(self, finished: list[FileLines]) -> None:
        """Append finished samples, each a (record, rejection) pair: records to the dataset, rejections apart."""
        with self.writing(self.dataset):
            append_lines(self.dataset, [record for record, _ in finished if record is not None])
        with self.writing(self.rejected):
            append_lines(self.rejected, [rejection for record, rejection in finished if record is None and rejection])

    async def rebuild(self, finished: AsyncGenerator[list[FileLines], None]) -> None:
        """Rewrite both JSONL files from the finished samples in the state database, batch by batch.

        A large run's records (each with its contexts' texts) are never all in memory at once. Writes and syncs
        happen in a worker thread, off the event loop.
        """
        files: dict[Path, Replacement] = {}
        try:
            async with contextlib.aclosing(finished):  # a failed write hands the query's connection back at once
                for path in (self.dataset, self.rejected):
                    with self.writing(path):
                        files[path] = await asyncio.to_thread(Replacement, path)
                async for batch in finished:
                    records = [record for record, _ in batch if record]
                    rejections = [rejection for record, rejection in batch if not record and rejection]
                    for path, entries in ((self.dataset, records), (self.rejected, rejections)):
                        with self.writing(path):
                            await asyncio.to_thread(files[path].write, json_lines(entries))
            for path, replacement in files.items():
                with self.writing(path):
                    await asyncio.to_thread(replacement.commit)
        finally:
            for replacement in files.values():
                replacement.discard()

    def write(self, path: Path, text: str) -> None:
        """Replace one of the folder's files (run.json, report.html) atomically."""
        with self.writing(path):
            write_atomically(path, text)

    def write_run_json(self, document: RunDocument) -> None:
        self.write(self.run_json, dump_run_document(document))


def as_written(record: dict[str, Any] | None, rejection: dict[str, Any] | None) -> FileLines:
    """A finished sample's record and rejection with their keys in the order the lanes wrote them.

    jsonb keeps keys in an order of its own (shortest first), which would put a record's long
    contexts before its question.
    """
    if record is not None:
        record = in_field_order(record, DatasetRecord)
    if rejection is not None:
        rejection = in_field_order(rejection, Rejection)
    return record, rejection


def in_field_order(value: Any, model: Any) -> Any:
    """`value` (JSON as read back) with each object's keys in the order `model` (a pydantic model or a TypedDict)
    declares its fields, nested ones and lists of them too; keys the model does not declare follow, as they are."""
    if isinstance(value, list):
        return [in_field_order(item, model) for item in value]
    fields = declared_fields(model)
    if not (isinstance(value, dict) and fields):
        return value
    ordered = {
        name: value[name] if nested is None else in_field_order(value[name], nested)
        for name, nested in fields.items()
        if name in value
    }
    return ordered | {key: item for key, item in value.items() if key not in ordered}


@functools.cache
def declared_fields(model: Any) -> dict[str, Any]:
    """The fields a pydantic model or a TypedDict declares, in order, each with the model or TypedDict its type
    holds (`held_model`); none for any other type."""
    if isinstance(model, type) and issubclass(model, BaseModel):
        types = {name: field.annotation for name, field in model.model_fields.items()}
    elif is_typeddict(model):
        types = get_type_hints(model)
    else:
        return {}
    return {name: held_model(hint) for name, hint in types.items()}


def held_model(hint: Any) -> Any:
    """The pydantic model or TypedDict a type holds, however deep (`X`, `X | None`, `list[X] | None`); else None."""
    if declared_fields(hint):
        return hint
    return next((found for arg in get_args(hint) if (found := held_model(arg)) is not None), None)
