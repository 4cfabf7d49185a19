"""The pooled checkpointer relies on names langgraph-checkpoint-postgres does not publish: each is still there."""

from __future__ import annotations

import pytest

from graph.store import checkpoints
from graph.store.checkpoints import UPSTREAM_NAMES, PooledPostgresSaver, missing_upstream_names


def test_the_installed_saver_has_every_name_the_pooled_saver_uses() -> None:
    missing = missing_upstream_names()
    assert not missing, (
        f"langgraph-checkpoint-postgres no longer has {missing}: update graph/store/checkpoints.py for it, "
        "or keep the pin in pyproject.toml"
    )


def test_a_saver_class_without_them_is_named_as_such() -> None:
    assert missing_upstream_names(type("Bare", (), {})) == list(UPSTREAM_NAMES)


def test_a_missing_name_stops_the_checkpointer_with_one_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(checkpoints, "missing_upstream_names", lambda: ["_dump_blobs"])
    with pytest.raises(RuntimeError, match="no _dump_blobs, which triad's checkpointer relies on; install the version"):
        PooledPostgresSaver(None)
