"""Finished samples reach the run folder's files in the background, in order, and a failed write is not swallowed."""

from __future__ import annotations

import asyncio
import errno
import fcntl
import json
import os
import threading
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import pytest

from graph.config.errors import UserError
from graph.folder import files as files_module
from graph.folder.files import FileLines, RunFolder, as_written, write_atomically
from graph.running.worker import LineWriter
from state.record import Rejection
from tests.support.records import answerable_record


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def rebuild(folder: RunFolder, *batches: list[FileLines]) -> None:
    """`RunFolder.rebuild` fed as the state database feeds it: batches of (record, rejection) pairs."""

    async def feed() -> AsyncGenerator[list[FileLines], None]:
        for batch in batches:
            yield batch

    asyncio.run(folder.rebuild(feed()))


def test_lines_are_written_in_order_and_batched_while_a_write_is_under_way(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    batches: list[int] = []
    append = folder.append

    def counting_append(finished: list[Any]) -> None:
        batches.append(len(finished))
        append(finished)

    folder.append = counting_append  # type: ignore[method-assign]

    async def main() -> None:
        writer = LineWriter(folder)
        writer.add({"id": "a"}, None)
        await asyncio.sleep(0)  # its write is under way
        writer.add(None, {"reason": "r"})  # these two wait for it and go out together
        writer.add({"id": "b"}, None)
        await writer.close()

    asyncio.run(main())
    assert lines(folder.dataset) == [{"id": "a"}, {"id": "b"}]
    assert lines(folder.rejected) == [{"reason": "r"}]
    assert batches == [1, 2]


def test_a_failed_write_is_raised_by_the_next_add_or_by_close(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)

    def full_disk(finished: list[Any]) -> None:
        raise OSError(28, "No space left on device")

    folder.append = full_disk  # type: ignore[method-assign]

    async def main() -> None:
        writer = LineWriter(folder)
        writer.add({"id": "a"}, None)
        with pytest.raises(OSError, match="No space"):
            await writer.close()
        writer.add({"id": "b"}, None)
        await asyncio.sleep(0.1)  # the second write fails too
        with pytest.raises(OSError, match="No space"):
            writer.add({"id": "c"}, None)

    asyncio.run(main())


def test_one_line_per_entry_with_text_kept_as_written(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    record = {
        "id": "r/0",
        "question": "Wie groß ist «shared_buffers»?",
        "contexts": [{"text": "a\nb", "relevant": True}],
    }
    folder.append([(record, None)])
    rebuild(folder, [(record, None)], [(None, {"reason": "lint"})])
    text = folder.dataset.read_text(encoding="utf-8")
    assert text.count("\n") == 1 and "«shared_buffers»" in text  # one line, no \\u escapes
    assert lines(folder.dataset) == [record] and lines(folder.rejected) == [{"reason": "lint"}]


def test_a_file_that_cannot_be_written_is_one_line_naming_the_fix_and_leaves_no_partial_copy(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "run-1")
    rebuild(folder, [({"id": "kept"}, None)])
    # The rewrite's temporary file leads to /dev/full, which answers every write as a full disk does.
    temporary = folder.dataset.with_name(f".dataset.jsonl.{os.getpid()}.tmp")
    temporary.symlink_to("/dev/full")
    with pytest.raises(UserError, match=r"No space left on device.*--resume run-1"):
        rebuild(folder, [({"id": "new"}, None)])
    assert not temporary.exists() and not temporary.is_symlink()
    assert lines(folder.dataset) == [{"id": "kept"}]  # the old file stays whole
    (folder.dataset).unlink()
    folder.dataset.symlink_to("/dev/full")
    with pytest.raises(UserError, match="cannot write .*dataset.jsonl: No space left on device"):
        folder.append([({"id": "appended"}, None)])


def test_a_rewrite_that_fails_midway_stops_reading_and_leaves_both_files_whole(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path / "run-2")
    rebuild(folder, [({"id": "kept"}, None), (None, {"reason": "kept"})])
    folder.dataset.with_name(f".dataset.jsonl.{os.getpid()}.tmp").symlink_to("/dev/full")
    served: list[int] = []
    closed: list[bool] = []

    async def feed() -> AsyncGenerator[list[FileLines], None]:
        try:
            for n in range(5):
                served.append(n)
                yield [({"id": f"r{n}", "text": "x" * 100_000}, None)]  # more than a write buffer: fails at once
        finally:
            closed.append(True)  # the query behind it would hand its connection back here

    async def main() -> list[bool]:
        with pytest.raises(UserError, match="dataset.jsonl: No space left on device"):
            await folder.rebuild(feed())
        return list(closed)  # closed by now, not only when the event loop ends

    assert asyncio.run(main()) == [True]
    assert served == [0]
    assert lines(folder.dataset) == [{"id": "kept"}] and lines(folder.rejected) == [{"reason": "kept"}]
    assert sorted(path.name for path in folder.folder.iterdir()) == ["dataset.jsonl", "rejected.jsonl"]


def test_a_replacement_whose_rename_fails_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "report.html").mkdir()  # a folder where the file should go: the rename fails
    with pytest.raises(IsADirectoryError):
        write_atomically(tmp_path / "report.html", "<html></html>")
    assert [path.name for path in tmp_path.iterdir()] == ["report.html"]


def jsonb_order(value: Any) -> Any:
    """`value` with every object's keys as PostgreSQL's jsonb gives them back: shortest first."""
    if isinstance(value, dict):
        return {key: jsonb_order(value[key]) for key in sorted(value, key=lambda key: (len(key), key))}
    return [jsonb_order(item) for item in value] if isinstance(value, list) else value


def test_a_record_read_back_from_the_state_database_is_written_in_the_order_finalize_wrote_it() -> None:
    construction = {"compared_entities": ["a", "b"], "hidden_entities": [{"entity": "x", "chunk_id": "s1"}]}
    turns = [{"role": "user", "content": "About vacuuming."}, {"role": "assistant", "content": "Sure."}]
    turns.append({"role": "user", "content": "Which comes first?"})
    written = answerable_record(construction=construction, turns=turns).model_dump(mode="json")
    record, _ = as_written(jsonb_order(written), None)
    assert record is not None
    assert list(record) == list(written)
    assert list(record["construction"]) == ["compared_entities", "hidden_entities", "unanswerable_kind", "missing"]
    assert list(record["construction"]["hidden_entities"][0]) == ["entity", "chunk_id"]
    assert [list(c) for c in record["contexts"]] == [list(c) for c in written["contexts"]]
    assert [list(turn) for turn in record["turns"]] == [["role", "content"]] * 3


def test_a_rejection_line_is_written_in_the_order_of_its_type_and_a_null_outcome_reads_as_failed() -> None:
    line = {"id": "run/3", "outcome": None, "end_reason": "", "hops": 2, "provenance": None, "drafts": []}
    _, rejection = as_written(None, jsonb_order(line))
    assert rejection is not None and list(rejection) == ["id", "outcome", "end_reason", "hops", "drafts", "provenance"]
    read = Rejection.model_validate(rejection)
    assert (read.outcome, read.restarts, read.provenance) == ("failed", 0, None)


def test_an_append_waits_for_another_writer_holding_the_file_and_leaves_every_line_whole(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    big = {"id": "big", "text": "x" * 300_000}
    folder.append([(big, None)])
    other_worker = os.open(folder.dataset, os.O_WRONLY | os.O_APPEND)
    fcntl.flock(other_worker, fcntl.LOCK_EX)
    appending = threading.Thread(target=folder.append, args=([({"id": "after"}, None), (big, None)],))
    appending.start()
    appending.join(timeout=0.3)
    assert appending.is_alive(), "the append did not wait for the lock"
    assert [line["id"] for line in lines(folder.dataset)] == ["big"]
    os.write(other_worker, b'{"id": "other"}\n')
    os.close(other_worker)
    appending.join(timeout=10)
    assert [line["id"] for line in lines(folder.dataset)] == ["big", "other", "after", "big"]
    assert lines(folder.dataset)[-1] == big


def test_an_append_that_waited_while_the_file_was_replaced_writes_to_the_new_file(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    folder.append([({"id": "old"}, None)])
    other_worker = os.open(folder.dataset, os.O_WRONLY | os.O_APPEND)
    fcntl.flock(other_worker, fcntl.LOCK_EX)
    appending = threading.Thread(target=folder.append, args=([({"id": "appended"}, None)],))
    appending.start()
    appending.join(timeout=0.3)
    assert appending.is_alive(), "the append did not wait for the lock"
    rebuilt = tmp_path / "rebuilt.jsonl"
    rebuilt.write_text('{"id": "rebuilt"}\n')
    os.replace(rebuilt, folder.dataset)  # renamed over the file the append is waiting for
    os.close(other_worker)
    appending.join(timeout=10)
    assert [line["id"] for line in lines(folder.dataset)] == ["rebuilt", "appended"]


def test_a_rewrite_waits_for_an_append_under_way(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    folder.append([({"id": "old"}, None)])
    appending = os.open(folder.dataset, os.O_WRONLY | os.O_APPEND)
    fcntl.flock(appending, fcntl.LOCK_EX)
    rewriting = threading.Thread(target=write_atomically, args=(folder.dataset, '{"id": "rebuilt"}\n'))
    rewriting.start()
    rewriting.join(timeout=0.3)
    assert rewriting.is_alive(), "the rewrite did not wait for the append"
    assert [line["id"] for line in lines(folder.dataset)] == ["old"]
    os.close(appending)
    rewriting.join(timeout=10)
    assert [line["id"] for line in lines(folder.dataset)] == ["rebuilt"]


def test_files_are_appended_and_rewritten_unlocked_where_the_file_system_takes_no_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(descriptor: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refused)
    folder = RunFolder(tmp_path)
    folder.append([({"id": "a"}, None)])
    folder.append([({"id": "b"}, None)])
    assert [line["id"] for line in lines(folder.dataset)] == ["a", "b"]
    write_atomically(folder.dataset, '{"id": "rebuilt"}\n')
    assert [line["id"] for line in lines(folder.dataset)] == ["rebuilt"]


def test_an_append_whose_file_keeps_changing_name_stops_reopening_it_and_writes_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[int] = []
    locked: list[int] = []
    open_file, flock = os.open, fcntl.flock

    def counting_open(*args: Any) -> int:
        opened.append(descriptor := open_file(*args))
        return descriptor

    def counting_flock(descriptor: int, operation: int) -> None:
        locked.append(descriptor)
        flock(descriptor, operation)

    monkeypatch.setattr(os, "open", counting_open)
    monkeypatch.setattr(fcntl, "flock", counting_flock)
    monkeypatch.setattr(files_module, "_same_file", lambda descriptor, path: False)  # a name cache never in step
    folder = RunFolder(tmp_path)
    folder.append([({"id": "a"}, None)])
    assert len(opened) == files_module.REOPENINGS + 1 and locked == opened
    assert [line["id"] for line in lines(folder.dataset)] == ["a"]
