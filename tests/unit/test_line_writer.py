"""Finished samples reach the run folder's files in the background, in order, and a failed write is not swallowed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from graph.outputs import RunFolder
from graph.runner import LineWriter


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


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
