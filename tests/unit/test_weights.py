"""Document weights: the file, the weight of each chunk, and seeds drawn in proportion (counted)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from graph.config.errors import UserError
from graph.seeding.seeds import RunSeeds
from graph.seeding.weights import combined, coverage_by_weight, read_weights, weight_key, weight_of


def test_the_weights_file_takes_a_value_and_a_weight_per_line(tmp_path: Path) -> None:
    path = tmp_path / "weights.txt"
    path.write_text("# what matters most\nrefund policy.md 5\nblog/2019.md\t0\n\nenterprise 2.5\n")
    assert read_weights(path) == {"refund policy.md": 5.0, "blog/2019.md": 0.0, "enterprise": 2.5}
    path.write_text("refund.md five\n")
    with pytest.raises(UserError, match="line 1 of .* is not a value followed by a weight"):
        read_weights(path)
    path.write_text("refund.md -2\n")
    with pytest.raises(UserError, match="weight of 0 or more"):
        read_weights(path)
    with pytest.raises(UserError, match="cannot read --weights"):
        read_weights(tmp_path / "missing.txt")


def test_each_chunk_weighs_what_its_value_says_or_one() -> None:
    assert weight_key(None) == "source" and weight_key("metadata.priority") == "priority"
    with pytest.raises(UserError, match="metadata.KEY"):
        weight_key("priority")
    table = {"gold": 4.0}
    assert weight_of("gold", table) == 4.0 and weight_of("silver", table) == 1.0 and weight_of(None, table) == 1.0
    assert weight_of("3", None) == 3.0 and weight_of("high", None) == 1.0 and weight_of(None, None) == 1.0
    assert combined({"a": 2.0, "b": 1.0}, {"a": 3, "c": 1}) == {"a": 6.0, "c": 1.0}
    assert combined(None, {"a": 3}) == {"a": 3.0} and combined({"a": 2.0}, None) == {"a": 2.0}
    assert combined(None, None) is None


def test_coverage_counts_documents_per_weight() -> None:
    chunks = [("a", 5.0), ("a", 5.0), ("b", 1.0), ("c", 1.0), (None, 1.0)]
    assert coverage_by_weight(chunks, {"a", "c"}) == [
        {"weight": 5.0, "documents": 1, "covered": 1, "share": 1.0},
        {"weight": 1.0, "documents": 2, "covered": 1, "share": 0.5},
    ]


def draws(weights: dict[str, float], count: int, random_seed: int) -> list[str]:
    seeds = RunSeeds(None, weights=weights, random_seed=random_seed)  # type: ignore[arg-type]  # weighted draws read no store

    async def draw_all() -> list[str]:
        return [drawn for _ in range(count) if (drawn := await seeds.draw(min_chars=0)) is not None]

    return asyncio.run(draw_all())


def test_heavier_documents_seed_proportionally_more_questions() -> None:
    """100 chunks of a document of weight 3 and 100 of weight 1: of the first 40 seeds about three in four come
    from the heavy one (fewer as its chunks are used); with equal weights about half. A weight of 0 never seeds."""
    heavy = {f"heavy-{i}": 3.0 for i in range(100)}
    light = {f"light-{i}": 1.0 for i in range(100)}
    silent = {f"silent-{i}": 0.0 for i in range(100)}
    weighted = [d for random_seed in range(10) for d in draws(heavy | light | silent, 40, random_seed)]
    uniform = [d for random_seed in range(10) for d in draws(dict.fromkeys([*heavy, *light], 1.0), 40, random_seed)]
    share = sum(d.startswith("heavy") for d in weighted) / len(weighted)
    assert 0.68 <= share <= 0.8, share
    assert 0.42 <= sum(d.startswith("heavy") for d in uniform) / len(uniform) <= 0.58
    assert not any(d.startswith("silent") for d in weighted)
    assert len(set(draws(heavy, 100, 0))) == 100  # each chunk is drawn once
