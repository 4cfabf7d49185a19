"""Slot claims in the state database: which cell opens, when none does, and reclaiming abandoned slots."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from graph.ledger.ledger import Ledger
from graph.ledger.slots import CellQuota, Completion, Slot
from graph.seeding.seeds import RunSeeds
from tests.support.records import answerable_record

COMPARISON = CellQuota("comparison", False, quota=2, cap=3)
INTERSECTION = CellQuota("intersection", True, quota=4, cap=12)


def with_ledger(url: str, body: Callable[[Ledger, str], Awaitable[Any]], **connect: Any) -> Any:
    async def main() -> Any:
        async with AsyncConnectionPool(url, min_size=1, max_size=4, kwargs={"autocommit": True, **connect}) as pool:
            ledger = Ledger(pool, lease_seconds=30)
            await ledger.setup()
            run_id = f"claims-{uuid.uuid4().hex[:8]}"
            await ledger.run(run_id).create({})
            return await body(ledger, run_id)

    return asyncio.run(main())


def test_new_slots_go_to_the_cell_furthest_from_its_quota(pg_url: str) -> None:
    cells = [COMPARISON, INTERSECTION]

    async def body(ledger: Ledger, run_id: str) -> list[Slot | None]:
        slots = [await ledger.run(run_id).claim(cells, "w") for _ in range(3)]
        assert slots[0] is not None and slots[1] is not None
        await ledger.run(run_id).complete(Completion(slots[0], "accepted", {"id": "a"}, None, {}))
        await ledger.run(run_id).complete(Completion(slots[1], "rejected", None, {"reason": "r"}, {}))
        return [*slots, await ledger.run(run_id).claim(cells, "w")]

    slots = with_ledger(pg_url, body)
    assert all(slot is not None and slot.fresh for slot in slots)
    # Nothing accepted yet: both cells are as far from their quota, and the first listed wins the tie
    # until it has as many running as it needs.
    assert [(s.n, s.question_type, s.binary) for s in slots[:3]] == [  # type: ignore[union-attr]
        (0, "comparison", False),
        (1, "comparison", False),
        (2, "intersection", True),
    ]
    # comparison has 1 of 2 accepted, intersection 0 of 4 (running samples do not count as progress).
    assert (slots[3].n, slots[3].question_type) == (3, "intersection")  # type: ignore[union-attr]


def test_no_more_in_flight_than_a_cell_needs_and_none_past_the_attempt_cap(pg_url: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> list[Any]:
        cells = [COMPARISON]
        opened = [await ledger.run(run_id).claim(cells, "w") for _ in range(3)]
        first, second = opened[0], opened[1]
        assert first is not None and second is not None
        await ledger.run(run_id).complete(Completion(first, "rejected", None, {"reason": "r"}, {}))  # reopens one place
        reopened = await ledger.run(run_id).claim(cells, "w")
        assert reopened is not None
        await ledger.run(run_id).complete(Completion(second, "rejected", None, {"reason": "r"}, {}))
        return [opened[2], reopened, await ledger.run(run_id).claim(cells, "w")]

    full, reopened, capped = with_ledger(pg_url, body)
    assert full is None  # two running for a quota of two
    assert reopened is not None and reopened.n == 2
    assert capped is None  # three started: the cap, though the cell is short


def test_an_abandoned_slot_is_reclaimed_before_a_new_one_opens(pg_url: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> tuple[Slot | None, Slot | None]:
        slot = await ledger.run(run_id).claim([INTERSECTION], "dead-worker")
        assert slot is not None and slot.fresh
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute(
                "UPDATE triad_samples SET lease_until = now() - interval '1 second' WHERE run_id = %s", (run_id,)
            )
        live = ledger.run(run_id)
        return await live.claim([INTERSECTION], "live-worker"), await live.claim([INTERSECTION], "live-worker")

    reclaimed, opened = with_ledger(pg_url, body)
    assert reclaimed is not None and (reclaimed.n, reclaimed.fresh) == (0, False)  # continues from checkpoints
    assert opened is not None and (opened.n, opened.fresh) == (1, True)


def test_a_yes_no_slot_asks_for_the_answer_its_cell_has_fewer_of(pg_url: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> dict[str, Any]:
        cells = [COMPARISON, INTERSECTION]
        opened = [await ledger.run(run_id).claim(cells, "w") for _ in range(5)]
        binary = [slot for slot in opened if slot is not None and slot.binary]
        first_yes = next(slot for slot in binary if slot.wanted == "yes")
        # A wanted "Yes" is rejected: its place reopens, and it asks for a "Yes" again.
        await ledger.run(run_id).complete(Completion(first_yes, "rejected", None, {"reason": "r"}, {}))
        again = await ledger.run(run_id).claim(cells, "w")
        return {"opened": opened, "again": again}

    claimed = with_ledger(pg_url, body)
    assert [(s.question_type, s.wanted) for s in claimed["opened"]] == [  # open cells want nothing
        ("comparison", None),
        ("comparison", None),
        ("intersection", "yes"),
        ("intersection", "no"),
        ("intersection", "yes"),
    ]
    assert claimed["again"] is not None and claimed["again"].wanted == "yes"  # running: 1 Yes, 1 No


@pytest.mark.parametrize("isolation", ["read committed", "repeatable read"])
def test_concurrent_claims_never_open_more_than_the_quota(pg_url: str, isolation: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> list[Slot | None]:
        return list(await asyncio.gather(*(ledger.run(run_id).claim([INTERSECTION], f"w{i}") for i in range(10))))

    # A server whose default isolation is stricter than READ COMMITTED changes nothing.
    level = isolation.replace(" ", "\\ ")  # a space in a libpq option is escaped
    slots = with_ledger(pg_url, body, options=f"-c default_transaction_isolation={level}")
    opened = [slot for slot in slots if slot is not None]
    assert len(opened) == INTERSECTION.quota
    assert sorted(slot.n for slot in opened) == [0, 1, 2, 3]


def test_a_lane_records_its_sample_done_in_the_claim_of_the_next(pg_url: str) -> None:
    cells = [COMPARISON]

    async def body(ledger: Ledger, run_id: str) -> tuple[Any, ...]:
        first, second = await ledger.run(run_id).claim(cells, "w"), await ledger.run(run_id).claim(cells, "w")
        assert first is not None and second is not None
        full = await ledger.run(run_id).claim(cells, "w")  # two running for a quota of two
        rejected = Completion(first, "rejected", None, {"reason": "r"}, {"outcome": "rejected"})
        reopened = await ledger.run(run_id).claim(cells, "w", completing=rejected)
        record = {"id": "b", "question": "Q?", "answer": "Yes", "language": "en", "difficulty": "hard",
                  "n_relevant": 2, "temporal": False, "contexts": [],
                  "supporting": [{"id": "s", "text": "t", "metadata": {"source": "a.html"}}]}  # fmt: skip
        accepted = Completion(second, "accepted", record, None, {"outcome": "accepted"})
        after_accepted = await ledger.run(run_id).claim(cells, "w", completing=accepted)
        finished = await ledger.finished(run_id)
        lines = [
            pair async for batch in ledger.run(run_id).file_lines([row["n"] for row in finished]) for pair in batch
        ]
        return full, reopened, after_accepted, finished, lines

    full, reopened, after_accepted, finished, lines = with_ledger(pg_url, body)
    assert full is None
    # The rejection is counted by the claim it rode with: the place it gave back opens at once.
    assert reopened is not None and reopened.n == 2
    assert after_accepted is None  # one accepted, one running: the cell has what it needs
    # What the report, the coverage and the duplicate check read of a record; answerable unless it says otherwise.
    brief = {"question": "Q?", "answer": "Yes", "language": "en", "difficulty": "hard", "n_relevant": 2,
             "temporal": False, "answerable": True, "sources": ["a.html"]}  # fmt: skip
    assert [(row["n"], row["outcome"], row["brief"], row["summary"]) for row in finished] == [
        (0, "rejected", None, {"outcome": "rejected"}),
        (1, "accepted", brief, {"outcome": "accepted"}),
    ]
    stored = {"id": "b", "question": "Q?", "answer": "Yes", "language": "en", "difficulty": "hard", "n_relevant": 2,
              "temporal": False, "contexts": [],
              "supporting": [{"id": "s", "text": "t", "metadata": {"source": "a.html"}}]}  # fmt: skip
    assert lines == [(None, {"reason": "r"}), (stored, None)]


def test_a_runs_file_lines_come_in_batches_in_slot_order_for_the_slots_asked(pg_url: str) -> None:
    cells = [CellQuota("comparison", False, 7, 21)]

    async def body(ledger: Ledger, run_id: str) -> tuple[list[int], list[str]]:
        for _ in range(7):
            slot = await ledger.run(run_id).claim(cells, "w")
            assert slot is not None
            record = answerable_record(f"r{slot.n}").model_dump(mode="json")
            if slot.n == 4:  # edited in the database into no record: the report's examples pass it over
                record = record | {"answer": ""}
            await ledger.run(run_id).complete(Completion(slot, "accepted", record, None, {}))
        sizes, ids = [], []
        async for batch in ledger.run(run_id).file_lines(list(range(7)), batch=3):
            sizes.append(len(batch))
            ids.extend(record["id"] for record, _ in batch)
        # Only the slots asked for: a sample another worker finishes meanwhile waits for the next rewrite.
        some = [record["id"] async for batch in ledger.run(run_id).file_lines([5, 1, 3]) for record, _ in batch]
        examples = [record.id for record in await ledger.run(run_id).accepted_records([6, 2, 4], 2)]
        assert [r.id for r in await ledger.run(run_id).accepted_records([2, 4], 5)] == ["r2"]
        return sizes, ids, some, examples

    sizes, ids, some, examples = with_ledger(pg_url, body)
    assert sizes == [3, 3, 1]
    assert ids == [f"r{n}" for n in range(7)]
    assert some == ["r1", "r3", "r5"] and examples == ["r2", "r6"]


class ListCorpus:
    """The one corpus call seed draws make, over a fixed id list."""

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids

    async def sample_ids(self, k: int, *, exclude: Any, min_chars: int, rng: Any) -> list[str]:
        candidates = [i for i in self.ids if i not in set(exclude)]
        return rng.sample(candidates, min(k, len(candidates)))


def test_seeds_drawn_in_batches_come_in_the_order_of_single_draws_and_skip_other_workers(pg_url: str) -> None:
    ids = [f"c{i:02}" for i in range(30)]

    async def draws(ledger: Ledger, run_id: str, batch: int, taken: list[str]) -> tuple[list[Any], set[str]]:
        if taken:
            await ledger.run(run_id).claim_seeds(taken)  # another worker's
        pool = RunSeeds(ListCorpus(ids), ledger=ledger.run(run_id), random_seed=5, batch=batch)
        drawn = [await pool.draw(min_chars=0) for _ in range(12)]
        return drawn, await ledger.run(run_id).used_seeds()

    single, _ = with_ledger(pg_url, lambda ledger, run_id: draws(ledger, run_id, 1, []))
    batched, recorded = with_ledger(pg_url, lambda ledger, run_id: draws(ledger, run_id, 8, []))
    assert batched == single and len(set(single)) == 12
    assert set(batched) <= recorded and len(recorded) == 16  # two batches of eight recorded
    # A seed another worker of the run holds already is passed over.
    others = [single[2], single[5]]
    shared, _ = with_ledger(pg_url, lambda ledger, run_id: draws(ledger, run_id, 8, others))
    assert not set(shared) & set(others)
    assert shared[:4] == [single[0], single[1], single[3], single[4]]
    assert len(set(shared)) == 12


def test_seeds_run_out_with_the_corpus(pg_url: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> list[str | None]:
        pool = RunSeeds(ListCorpus(["a", "b", "c"]), ledger=ledger.run(run_id), used={"b"}, random_seed=1, batch=8)
        return [await pool.draw(min_chars=0) for _ in range(3)]

    drawn = with_ledger(pg_url, body)
    assert sorted(drawn[:2]) == ["a", "c"] and drawn[2] is None  # type: ignore[type-var]


def test_a_retired_slot_leaves_its_cell_and_its_question(pg_url: str) -> None:
    """graph.refresh retires the slot of a dropped record: its cell opens again, its question may be asked again,
    and the run's finished samples no longer list it."""
    cells = [COMPARISON]

    async def body(ledger: Ledger, run_id: str) -> tuple[Any, ...]:
        slots = [await ledger.run(run_id).claim(cells, "w") for _ in range(2)]
        for slot in slots:
            assert slot is not None
            await ledger.run(run_id).complete(Completion(slot, "accepted", {"id": f"{run_id}/{slot.n}"}, None, {}))
        assert await ledger.run(run_id).claim_question(0, "Which came first?") is None
        full = await ledger.run(run_id).claim(cells, "w")
        await ledger.run(run_id).retire([0], version=2)
        await ledger.run(run_id).retire([0], version=3)  # a repeated retirement keeps the first version
        await ledger.run(run_id).update_records({1: answerable_record(f"{run_id}/1", version=2)})
        reopened = await ledger.run(run_id).claim([CellQuota("comparison", False, quota=2, cap=3)], "w")
        again = await ledger.run(run_id).claim_question(5, "Which came first?")
        finished = [row["n"] for row in await ledger.finished(run_id)]
        async with ledger.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT n, retired, record FROM triad_samples WHERE run_id = %s AND n < 2 ORDER BY n", (run_id,)
            )
            rows = await cursor.fetchall()
        return full, reopened, again, finished, rows, await ledger.run(run_id).retired_per_cell()

    full, reopened, again, finished, rows, retired = with_ledger(pg_url, body)
    assert full is None  # both accepted: the cell was full
    assert reopened is not None and reopened.n == 2 and reopened.fresh
    assert again is None  # the retired record's question is free again
    assert finished == [1]
    assert rows[0][1] == 2 and rows[1][1] is None and rows[1][2]["version"] == 2
    assert retired == {("comparison", False): 1}


def test_a_claim_sent_again_under_its_id_returns_the_slot_the_first_took(pg_url: str) -> None:
    async def body(ledger: Ledger, run_id: str) -> list[Slot | None]:
        first = await ledger.run(run_id).claim([COMPARISON], "w", claim_id="c1")
        again = await ledger.run(run_id).claim([COMPARISON], "w", claim_id="c1")  # the first reply was lost
        other = await ledger.run(run_id).claim([COMPARISON], "w", claim_id="c2")
        elsewhere = await ledger.run(run_id).claim([COMPARISON], "w2", claim_id="c1")  # another worker's claim
        return [first, again, other, elsewhere]

    first, again, other, elsewhere = with_ledger(pg_url, body)
    assert first is not None and first.fresh
    assert again is not None and (again.n, again.fresh) == (first.n, False)  # its thread is looked up, not assumed new
    assert other is not None and other.n == first.n + 1
    assert elsewhere is None  # the quota of two is running


def test_query_styles_fill_their_quotas_exactly_across_workers_and_keyword_skips_yes_no_cells(pg_url: str) -> None:
    cells = [CellQuota("comparison", False, quota=4, cap=12), CellQuota("comparison", True, quota=4, cap=12)]
    styles = {"natural": 3, "keyword": 3, "misspelled": 2}

    async def body(ledger: Ledger, run_id: str) -> dict[str, Any]:
        first = list(await asyncio.gather(*(ledger.run(run_id).claim(cells, f"w{i}", styles=styles) for i in range(8))))
        assert await ledger.run(run_id).claim(cells, "w9", styles=styles) is None  # every place is taken
        slots = [slot for slot in first if slot is not None]
        keyword = next(slot for slot in slots if slot.query_style == "keyword")
        # A keyword rewrite fell back: its record is natural, and the keyword place opens again.
        for slot in slots:
            styled = "natural" if slot is keyword else slot.query_style
            accepted = slot is keyword or slot.binary  # the open cell's others fail and reopen
            record = {"id": slot.n, "query_style": styled} if accepted else None
            await ledger.run(run_id).complete(
                Completion(slot, "accepted" if accepted else "rejected", record, None, {})
            )
        again = [await ledger.run(run_id).claim(cells, "w", styles=styles) for _ in range(4)]
        return {"first": slots, "again": again}

    claimed = with_ledger(pg_url, body)
    first = claimed["first"]
    assert Counter(slot.query_style for slot in first) == Counter(styles)
    assert all(slot.query_style != "keyword" for slot in first if slot.binary)
    # The open cell reopened three places: keyword's three (the fallen-back one among them), none for natural,
    # whose places the fallen-back record and the accepted yes/no ones hold.
    again = [slot for slot in claimed["again"] if slot is not None]
    assert sorted((slot.binary, slot.query_style) for slot in again) == [(False, "keyword")] * 3


def test_run_options_are_kept_as_written_whatever_json_they_hold(pg_url: str) -> None:
    options = {"seed": 2**70, "question_language": "de", "note": "Größe «quoted»", "shares": {1: 0.5}}

    async def body(ledger: Ledger, run_id: str) -> dict[str, Any]:
        kept = f"{run_id}-options"
        await ledger.run(kept).create(options)
        return await ledger.options(kept)

    assert with_ledger(pg_url, body) == {**options, "shares": {"1": 0.5}}
