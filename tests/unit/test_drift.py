"""graph.living.drift on a store held in memory: each chunk's status, a record's, and a generated unanswerable
question whose retrieval now returns a chunk its judge never read."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from graph.living.drift import check_records, drift_lines
from state.record import DatasetRecord
from tests.support.records import answerable_record, unanswerable_record


@dataclass
class Chunk:
    id: str
    text: str
    metadata: dict[str, Any]


@dataclass
class Hit:
    chunk: Chunk


class MemoryStore:
    def __init__(self, chunks: list[Chunk], retrieved: list[str]) -> None:
        self.chunks = {chunk.id: chunk for chunk in chunks}
        self.retrieved = retrieved

    @property
    def reader(self) -> Any:  # what `Corpus.reader` answers, held here too
        return self

    async def get(self, ids: list[str]) -> list[Chunk]:
        return [self.chunks[i] for i in ids if i in self.chunks]

    async def ids_of_texts(self, texts: list[str]) -> dict[str, str]:
        return {c.text: c.id for c in self.chunks.values() if c.text in texts}

    async def search(self, text: str, n: int) -> list[Hit]:
        return [Hit(self.chunks[i]) for i in self.retrieved[:n]]

    async def sources(self) -> dict[str | None, int]:
        return {c.metadata.get("source"): 1 for c in self.chunks.values()}

    async def count(self) -> int:
        return len(self.chunks)

    async def modifications(self) -> int | None:
        return None


async def no_judge(*_: Any) -> tuple[bool, str]:
    raise AssertionError("a record without evidence is checked by its chunk ids, without a judge")


def record(record_id: str, chunk_ids: list[str], texts: dict[str, str]) -> DatasetRecord:
    return answerable_record(record_id, {i: texts[i] for i in chunk_ids})


def test_each_chunk_and_record_gets_its_status() -> None:
    before = {"a": "alpha", "b": "beta", "c": "gamma", "d": "delta", "r1": "rho", "r2": "sigma"}
    store = MemoryStore(
        [Chunk("a", "alpha", {"source": "one"}), Chunk("b", "beta, edited", {"source": "one"}),
         Chunk("c2", "gamma", {"source": "two"}), Chunk("r1", "rho", {"source": "two"}),
         Chunk("r2", "sigma", {"source": "two"}), Chunk("n", "new", {"source": "three"})],
        retrieved=["r1", "r2", "n"],
    )  # fmt: skip
    records = [
        record("fresh", ["a"], before),
        record("changed", ["a", "b"], before),
        record("moved", ["a", "c"], before),
        record("gone", ["d"], before),
        unanswerable_record("unanswerable", {"r1": "rho", "r2": "sigma"}, k=3),
    ]  # fmt: skip
    report = asyncio.run(check_records(records, store, known_sources=["one", "two"], judge=no_judge))
    statuses = {r["id"]: r["status"] for r in report["records"]}
    assert statuses == {"fresh": "fresh", "changed": "stale", "moved": "re-pointed", "gone": "stale",
                        "unanswerable": "stale"}  # fmt: skip
    by_id = {r["id"]: r for r in report["records"]}
    assert by_id["changed"]["changed"] == ["b"] and by_id["gone"]["gone"] == ["d"]
    assert by_id["moved"]["moved"] == {"c": "c2"} and by_id["unanswerable"]["unchecked"] == ["n"]
    assert report["summary"]["chunks"] == {"unchanged": 5, "changed": 1, "moved": 1, "gone": 1}
    assert report["summary"]["new_sources"] == ["three"]
    lines = drift_lines(report)
    assert "5 records: 1 fresh, 1 re-pointed, 0 flagged, 3 stale" in lines
    assert "1 new document(s) no question covers: three" in lines


def test_a_run_without_a_list_of_its_documents_reports_no_new_ones() -> None:
    store = MemoryStore([Chunk("a", "alpha", {"source": "one"})], retrieved=[])
    report = asyncio.run(check_records([record("r", ["a"], {"a": "alpha"})], store, known_sources=None, judge=no_judge))
    assert report["summary"]["new_sources"] is None
    assert "new documents: unknown (the run kept no list of its collection's documents)" in drift_lines(report)


def test_a_retrieved_chunk_whose_text_was_read_under_another_id_is_no_new_chunk() -> None:
    before = {"r1": "rho", "r2": "sigma"}
    store = MemoryStore([Chunk("r1", "rho", {}), Chunk("r2-new", "sigma", {})], retrieved=["r1", "r2-new"])
    unanswerable = unanswerable_record("u", {i: before[i] for i in ("r1", "r2")}, k=2)
    (drift,) = asyncio.run(check_records([unanswerable], store, known_sources=None, judge=no_judge))["records"]
    assert drift["status"] == "re-pointed" and drift["unchecked"] == [] and drift["moved"] == {"r2": "r2-new"}


def test_a_chunk_held_twice_keeps_its_worst_status() -> None:
    store = MemoryStore([Chunk("a", "alpha, edited", {})], retrieved=[])
    held_twice = answerable_record("r", {"a": "alpha, edited"})
    held_twice.contexts[0].text = "alpha"
    (drift,) = asyncio.run(check_records([held_twice], store, known_sources=None, judge=no_judge))["records"]
    assert drift["status"] == "stale" and drift["changed"] == ["a"]
