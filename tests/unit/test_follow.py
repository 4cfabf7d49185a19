"""graph.living.follow on collections held in memory: a record's quotes followed into another cutting of the same
document (by offsets, by text, split over two chunks, without a document), and the statuses the check gives."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

from graph.living.drift import check_records
from graph.living.follow import BY_OFFSETS, BY_TEXT, CHANGED, GONE, IN_PLACE, CollectionTexts, follow_fact
from graph.store.reader import Chunk
from state.evidence import Evidence, locate
from state.record import DatasetRecord
from tests.support.records import answerable_record

#: One document: sentences of the demo manual, one after the other.
SENTENCES = [
    "PostgreSQL databases require periodic maintenance known as vacuuming.",
    "For many installations, it is sufficient to let vacuuming be performed by the autovacuum daemon.",
    "You might need to adjust the autovacuuming parameters described there to obtain best results.",
    "Some database administrators will want to supplement the daemon's activities with manual VACUUM commands.",
    "VACUUM creates a substantial amount of I/O traffic, which can cause poor performance for other sessions.",
    "There are configuration parameters that can be adjusted to reduce the performance impact of vacuuming.",
]
DOCUMENT = " ".join(SENTENCES)


def cut(
    spans: list[tuple[int, int]], source: str | None = "guide.md", placed: bool = True, tag: str = "new"
) -> list[Chunk]:
    """Chunks of DOCUMENT at these spans (ids tagged `tag`), with their place in it where `placed`."""
    chunks = []
    for number, (start, end) in enumerate(spans):
        metadata: dict[str, Any] = {"source": source} if source else {}
        if placed:
            metadata["start_index"] = start
        chunks.append(Chunk(f"{tag}-{start}-{end}-{number}", DOCUMENT[start:end], metadata))
    return chunks


def at(sentence: int) -> tuple[int, int]:
    start = DOCUMENT.index(SENTENCES[sentence])
    return start, start + len(SENTENCES[sentence])


def quoted(chunks: list[Chunk], quotes: dict[str, list[str]], record_id: str = "run/1", **fields: Any) -> DatasetRecord:
    """A comparison record on `chunks`, each quoting `quotes[chunk.id]`, located as finalize locates them."""
    record = answerable_record(record_id, {c.id: c.text for c in chunks}, **fields)
    for supporting, chunk in zip(record.supporting, chunks, strict=True):
        supporting.metadata = chunk.metadata
        for quote in quotes[chunk.id]:
            span = locate(quote, chunk.text)
            assert span is not None
            start = chunk.metadata.get("start_index")
            location = {"chunk_id": chunk.id, "chunk_start": span[0], "chunk_end": span[1],
                        "source": chunk.metadata.get("source"),
                        "document_start": None if start is None else start + span[0],
                        "document_end": None if start is None else start + span[1]}  # fmt: skip
            supporting.evidence.append(Evidence.model_validate({"quote": quote, "location": location}))
    return record.model_copy(update={"evidence_status": "quoted"})


@dataclass
class Collection:
    """A collection in memory with what the check reads."""

    chunks: list[Chunk]
    searched: list[str] = field(default_factory=list)

    @property
    def reader(self) -> Any:  # what `Corpus.reader` answers, held here too
        return self

    async def get(self, ids: list[str]) -> list[Chunk]:
        by_id = {c.id: c for c in self.chunks}
        return [by_id[i] for i in ids if i in by_id]

    async def chunks_of_sources(self, sources: list[str]) -> list[Chunk]:
        return [c for c in self.chunks if c.metadata.get("source") in sources]

    async def chunks_holding(self, fragment: str, limit: int) -> list[Chunk]:
        self.searched.append(fragment)
        return [c for c in self.chunks if fragment in c.text][:limit]

    async def ids_of_texts(self, texts: list[str]) -> dict[str, str]:
        return {c.text: c.id for c in self.chunks if c.text in texts}

    async def sources(self) -> dict[str | None, int]:
        return {c.metadata.get("source"): 1 for c in self.chunks}

    async def modifications(self) -> int | None:
        return None


OLD = cut([(0, at(2)[1]), (at(3)[0], len(DOCUMENT))], tag="old")
OLD_QUOTES = {OLD[0].id: [SENTENCES[1]], OLD[1].id: [SENTENCES[4]]}


def follow(record: DatasetRecord, collection: Collection) -> list[Any]:
    held = {c.id: c for c in collection.chunks}
    texts = CollectionTexts(collection, {c.id: held[c.id] for c in record.supporting if c.id in held})
    return [asyncio.run(follow_fact(c, fact, texts)) for c in record.supporting for fact in c.evidence]


def test_a_quote_is_found_by_its_place_in_the_document_in_a_smaller_cutting() -> None:
    record = quoted(OLD, OLD_QUOTES)
    small = cut([(0, at(1)[0]), (at(1)[0], at(3)[0]), (at(3)[0], at(5)[0]), (at(5)[0], len(DOCUMENT))])
    first, second = follow(record, Collection(small))
    assert (first.how, [p.chunk.id for p in first.parts]) == (BY_OFFSETS, [small[1].id])
    assert (second.how, [p.chunk.id for p in second.parts]) == (BY_OFFSETS, [small[2].id])
    assert first.parts[0].quote == SENTENCES[1] and second.parts[0].quote == SENTENCES[4]


def test_a_quote_a_new_cut_splits_is_found_in_both_chunks_each_holding_its_part() -> None:
    record = quoted(OLD, OLD_QUOTES)
    middle = at(4)[0] + 30
    for placed in (True, False):  # by the chunks' places, then by their texts alone
        halves = cut([(0, middle), (middle - (10 if placed else 0), len(DOCUMENT))], placed=placed)
        _, split = follow(record, Collection(halves))
        assert split.how == (BY_OFFSETS if placed else BY_TEXT)
        assert [p.chunk.id for p in split.parts] == [halves[0].id, halves[1].id]
        head, tail = (p.quote for p in split.parts)
        assert (
            SENTENCES[4].startswith(head) and SENTENCES[4].endswith(tail) and len(head) + len(tail) >= len(SENTENCES[4])
        )


def test_unplaced_chunks_are_searched_by_text_and_a_quote_without_a_document_across_the_collection() -> None:
    record = quoted(OLD, OLD_QUOTES)
    unplaced = cut([(0, at(3)[0]), (at(3)[0], len(DOCUMENT))], placed=False)
    assert {fact.how for fact in follow(record, Collection(unplaced))} == {BY_TEXT}
    nameless = quoted(cut([(0, at(2)[1])], source=None, tag="old"), {f"old-0-{at(2)[1]}-0": [SENTENCES[1]]})
    elsewhere = Collection(cut([(0, at(3)[0])], source="other.md"))
    (fact,) = follow(nameless, elsewhere)
    assert fact.how == BY_TEXT and elsewhere.searched  # found by a word of it, in a chunk of any document


def test_a_fact_in_its_own_chunk_edited_elsewhere_stays_in_place_and_a_gone_document_loses_it() -> None:
    record = quoted(OLD, OLD_QUOTES)
    edited = Chunk(OLD[0].id, OLD[0].text + " Edited later.", OLD[0].metadata)
    first, second = follow(record, Collection([edited]))
    assert first.how == IN_PLACE and second.how == CHANGED and not second.parts  # its document holds it no more
    assert {fact.how for fact in follow(record, Collection(cut([(0, 40)], source="other.md")))} == {GONE}


def statuses(records: list[DatasetRecord], collection: Collection, sufficient: bool = True) -> dict[str, Any]:
    asked: list[str] = []

    async def judge(record: DatasetRecord, chunks: list[Chunk], quotes: list[tuple[str, str]]) -> tuple[bool, str]:
        asked.append(record.id)
        assert all(quote in {c.id: c.text for c in chunks}[i] for i, quote in quotes)
        return sufficient, "" if sufficient else "the daemon's name is cut off"

    report = asyncio.run(check_records(records, collection, None, judge, "second"))
    return {"by_id": {r["id"]: r for r in report["records"]}, "asked": asked, "summary": report["summary"]}


@pytest.mark.parametrize("sufficient", [True, False])
def test_statuses_by_evidence(sufficient: bool) -> None:
    record = quoted(OLD, OLD_QUOTES)
    same = Collection(list(OLD))
    fresh = statuses([record], same)
    assert fresh["by_id"]["run/1"]["status"] == "fresh" and not fresh["asked"]

    # One chunk holding both old ones: flagged, without a judge (it holds both old texts whole).
    whole = cut([(0, len(DOCUMENT))])
    merged = statuses([record], Collection(whole))
    entry = merged["by_id"]["run/1"]
    assert entry["status"] == "flagged" and entry["shared"] == [whole[0].id] and not merged["asked"]
    assert entry["checked_by"] == "evidence" and "share" in entry["reason"]

    # A smaller cutting: the new chunks no longer hold the old texts whole, so the judge decides, once.
    small = cut([(0, at(1)[0]), (at(1)[0], at(3)[0]), (at(3)[0], at(5)[0]), (at(5)[0], len(DOCUMENT))])
    judged = statuses([record], Collection(small), sufficient)
    entry = judged["by_id"]["run/1"]
    assert judged["asked"] == ["run/1"] and judged["summary"]["judge_calls"] == 1
    assert entry["status"] == ("re-pointed" if sufficient else "stale") and entry["judged"] is sufficient
    assert entry["supporting"] == {OLD[0].id: [small[1].id], OLD[1].id: [small[2].id]}
    if not sufficient:
        assert "no longer answer it" in entry["reason"]

    # A quote changed where it lies: stale, with the quote named.
    changed = [Chunk(c.id + "-new", c.text.replace("autovacuum daemon", "background worker"), c.metadata) for c in OLD]
    entry = statuses([record], Collection(changed))["by_id"]["run/1"]
    assert entry["status"] == "stale" and "no chunk holds it as written now" in entry["reason"]


def test_a_record_without_evidence_is_checked_by_chunk_ids_and_says_so() -> None:
    plain = answerable_record("run/2", {c.id: c.text for c in OLD})
    entry = statuses([plain], Collection(cut([(0, len(DOCUMENT))])))["by_id"]["run/2"]
    assert entry["checked_by"] == "chunk ids" and entry["status"] == "stale" and "facts" not in entry


def test_a_single_hop_question_whose_quote_a_cut_splits_is_stale_not_a_record_it_cannot_be() -> None:
    factual = quoted([OLD[1]], {OLD[1].id: [SENTENCES[4]]}, "run/3")
    middle = at(4)[0] + 30
    entry = statuses([factual], Collection(cut([(0, middle), (middle - 10, len(DOCUMENT))])))["by_id"]["run/3"]
    assert entry["status"] == "stale" and "more than its question type rests on" in entry["reason"]
