from __future__ import annotations

import pytest

from state.threads import ThreadId, slot_number


@pytest.mark.parametrize(
    ("text", "thread"),
    [
        ("docs-v1/7", ThreadId("docs-v1", 7)),
        ("run.2026_12/0", ThreadId("run.2026_12", 0)),
        ("docs/12@v2", ThreadId("docs", 12, 2)),
        ("docs/12@v3.2", ThreadId("docs", 12, 3, 2)),
    ],
)
def test_a_thread_id_reads_back_as_it_was_written(text: str, thread: ThreadId) -> None:
    assert ThreadId.parse(text) == thread
    assert str(thread) == text
    assert slot_number(text) == thread.n


def test_a_refresh_thread_and_its_sample() -> None:
    sample = ThreadId("docs", 4)
    again = sample.refreshed(2, attempt=3)
    assert str(again) == "docs/4@v2.3"
    assert again.sample == sample
    assert str(sample.refreshed(2)) == "docs/4@v2"  # a first attempt has no suffix


@pytest.mark.parametrize("text", ["", "docs", "docs/", "docs/x", "/3", "a/b/3", "docs/3@2", "docs/3@v", "docs/3 "])
def test_what_is_no_thread_id_is_named(text: str) -> None:
    assert slot_number(text) is None
    with pytest.raises(ValueError, match="not a thread id"):
        ThreadId.parse(text)
