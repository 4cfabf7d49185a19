"""Where a record's facts stand in a collection now: each quote of its evidence followed to the chunk that holds it.

A fact (a quote of a supporting chunk, `state.evidence.Evidence`) is looked for, in this order:

    in place    the chunk it was quoted from still holds it (unchanged, or edited elsewhere)
    offsets     a chunk of its document whose place (`start_index`) covers the fact's span of the document holds
                the same characters there: both collections count in the same document text
    text        a chunk of its document holds the quote (white space and quote marks folded); any chunk of the
                collection, when the chunk it was quoted from named no document

A quote that a new cutting splits over two neighbouring chunks is found in both, each holding its part. A fact
not found is `gone` (its document is gone) or `changed` (its document is there, the quote is not).

Its subject: a supporting chunk's facts found in new chunks that together hold the supporting chunk's whole text
keep everything the judges read. Otherwise the sufficiency judge reads the record's new chunks, once for the record,
and decides whether they still answer the question (a cut may have left "it" without what it names).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from graph.folder.check_file import FactCheck
from graph.store.reader import Chunk
from nodes.question_types import TYPES
from state.evidence import Evidence, contains, document_place, laid_out, locate
from state.record import DatasetRecord, SupportingChunk
from state.sample import MAX_HOPS

#: How a fact was found, or why it was not.
IN_PLACE, BY_OFFSETS, BY_TEXT, GONE, CHANGED = "in place", "offsets", "text", "gone", "changed"
#: Chunks read per quote when the collection is searched for it as a whole (its chunk named no document).
CANDIDATES = 50


@dataclass(frozen=True)
class Part:
    """A chunk's share of a fact: the characters `start:end` of its text."""

    chunk: Chunk
    start: int
    end: int

    @property
    def quote(self) -> str:
        return self.chunk.text[self.start : self.end]


@dataclass
class FactFollow:
    """One fact of a record followed into the collection: the chunk(s) holding it now, and how it was found."""

    quote: str
    old_chunk: str
    """The supporting chunk it was quoted from."""
    parts: list[Part]
    """The chunk holding it, or the two holding its halves; none when it is not found."""
    how: str

    @property
    def found(self) -> bool:
        return bool(self.parts)

    def as_json(self) -> FactCheck:
        return {
            "quote": self.quote,
            "from": self.old_chunk,
            "to": [p.chunk.id for p in self.parts],
            "quotes": [p.quote for p in self.parts],
            "how": self.how,
        }


@dataclass
class RecordFollow:
    """Where a quoted record's facts stand now, and what the sufficiency judge said when it was asked."""

    facts: list[FactFollow]
    kept_whole: bool
    """Every supporting chunk's text is held whole by the chunks that hold its facts now."""
    judged: bool | None = None
    """The judge's verdict on the new chunks (None: not asked; it is asked only when `kept_whole` is false)."""
    judge_reason: str = ""
    most_chunks: int = MAX_HOPS
    """The most supporting chunks a record of its type holds."""

    @property
    def found(self) -> bool:
        return all(fact.found for fact in self.facts)

    def new_supporting(self) -> list[Chunk]:
        """The chunks that hold the facts now, in the order of the facts, each once."""
        chunks: dict[str, Chunk] = {}
        for fact in self.facts:
            for part in fact.parts:
                chunks.setdefault(part.chunk.id, part.chunk)
        return list(chunks.values())

    def supporting_map(self) -> dict[str, list[str]]:
        """Old supporting chunk id -> the chunk ids that hold its facts now."""
        mapping: dict[str, list[str]] = {}
        for fact in self.facts:
            ids = mapping.setdefault(fact.old_chunk, [])
            ids.extend(p.chunk.id for p in fact.parts if p.chunk.id not in ids)
        return mapping

    def shared(self) -> list[str]:
        """The chunks that now hold the facts of more than one supporting chunk (the question may need fewer)."""
        holders: dict[str, set[str]] = {}
        for old, new in self.supporting_map().items():
            for chunk_id in new:
                holders.setdefault(chunk_id, set()).add(old)
        return sorted(chunk_id for chunk_id, olds in holders.items() if len(olds) > 1)

    @property
    def moved(self) -> bool:
        """Some fact stands in another chunk than the one it was quoted from."""
        return any(p.chunk.id != fact.old_chunk for fact in self.facts for p in fact.parts)

    def problem(self) -> str:
        """Why the record is stale by its evidence ("" when it is not)."""
        lost = [fact for fact in self.facts if not fact.found]
        if lost:
            fact = lost[0]
            what = "its document is gone" if fact.how == GONE else "no chunk holds it as written now"
            more = f" (and {len(lost) - 1} more)" if len(lost) > 1 else ""
            return f"quote {short(fact.quote)!r} of {fact.old_chunk}: {what}{more}"
        if len(self.new_supporting()) > self.most_chunks:
            return (
                f"its facts now lie in {len(self.new_supporting())} chunks, more than its question type rests on "
                f"({self.most_chunks})"
            )
        if self.judged is False:
            return f"its new chunks no longer answer it: {self.judge_reason or 'the sufficiency judge says so'}"
        return ""


def short(text: str, length: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1] + "…"


class CollectionTexts:
    """The chunks of the collection a check reads: by id, each document's chunks (read once), and a search."""

    def __init__(self, corpus: Any, by_id: dict[str, Chunk]) -> None:
        self.corpus = corpus
        self.by_id = by_id
        self._documents: dict[str, list[Chunk]] = {}

    async def document(self, source: str) -> list[Chunk]:
        """The chunks of `source`, in their order in the document (chunks without a place last)."""
        if source not in self._documents:
            chunks = await self.corpus.reader.chunks_of_sources([source])
            self._documents[source] = sorted(chunks, key=lambda c: (start_of(c) is None, start_of(c) or 0, c.id))
        return self._documents[source]

    async def holding(self, quote: str) -> list[Chunk]:
        """Chunks of the whole collection that may hold `quote` (they hold its longest word as written)."""
        words = sorted(re.findall(r"\w+", quote), key=len, reverse=True)
        if not words:
            return []
        return list(await self.corpus.reader.chunks_holding(words[0], CANDIDATES))


def start_of(chunk: Chunk) -> int | None:
    return document_place(chunk.metadata).get("start_index")


def source_of_chunk(chunk: Chunk) -> str | None:
    return document_place(chunk.metadata).get("source")


def source_of(chunk: SupportingChunk, fact: Evidence) -> str | None:
    return fact.location.source or document_place(chunk.metadata).get("source")


def _pick(found: list[tuple[Chunk, tuple[int, int]]], old: SupportingChunk, fact: Evidence) -> Part:
    """Of the chunks holding a quote, the one where the fact was: nearest its place in the document, else the
    one that holds the old chunk's text too, else the first."""
    place = fact.location.document_start

    def rank(item: tuple[Chunk, tuple[int, int]]) -> tuple[float, int]:
        chunk, (start, _) = item
        begins = start_of(chunk)
        distance = abs(begins + start - place) if place is not None and begins is not None else float("inf")
        return distance, 0 if contains(chunk.text, old.text) else 1

    chunk, (start, end) = min(found, key=rank)
    return Part(chunk, start, end)


def _by_offsets(chunks: Sequence[Chunk], fact: Evidence, written: str) -> list[Part]:
    """The chunk(s) whose place covers the fact's span of the document and hold there what it held."""
    first, last = fact.location.document_start, fact.location.document_end
    if first is None or last is None:
        return []
    placed = [(c, s) for c in chunks if (s := start_of(c)) is not None]
    for chunk, start in placed:
        if start <= first and last <= start + len(chunk.text) and chunk.text[first - start : last - start] == written:
            return [Part(chunk, first - start, last - start)]
    for head, head_start in placed:
        head_end = head_start + len(head.text)
        if not head_start <= first < head_end < last:
            continue
        for tail, tail_start in placed:
            if tail is head or not first < tail_start <= head_end or last > tail_start + len(tail.text):
                continue
            if head.text[first - head_start :] + tail.text[head_end - tail_start : last - tail_start] == written:
                return [Part(head, first - head_start, len(head.text)), Part(tail, 0, last - tail_start)]
    return []


def _split_by_text(chunks: Sequence[Chunk], quote: str) -> list[Part]:
    """The two neighbouring chunks of a document whose texts, laid one after the other, hold the quote across their
    border: their overlap once, where their places say it; else with a line break between them (a cut at white
    space) or nothing (a cut inside a word)."""
    for head, tail in zip(chunks, chunks[1:], strict=False):
        head_start, tail_start = start_of(head), start_of(tail)
        if head_start is not None and tail_start is not None and head_start < tail_start <= head_start + len(head.text):
            shift = tail_start - head_start  # where the tail starts in the joined text
            joins = [(head.text + tail.text[head_start + len(head.text) - tail_start :], shift)]
        else:
            joins = [(head.text + gap + tail.text, len(head.text) + len(gap)) for gap in ("\n", "")]
        for joined, shift in joins:
            span = locate(quote, joined)
            if span is None or span[1] <= len(head.text) or span[0] >= shift:
                continue  # held by one of the two alone, or not at all
            return [Part(head, span[0], len(head.text)), Part(tail, max(0, span[0] - shift), span[1] - shift)]
    return []


async def follow_fact(old: SupportingChunk, fact: Evidence, texts: CollectionTexts) -> FactFollow:
    """Where one fact of `old` stands in the collection now (`IN_PLACE`, `BY_OFFSETS`, `BY_TEXT`), or why not."""
    quote = fact.quote
    here = texts.by_id.get(old.id)
    if here is not None:
        span = locate(quote, here.text)
        if span is not None:
            return FactFollow(quote, old.id, [Part(here, *span)], IN_PLACE)
    written = old.text[fact.location.chunk_start : fact.location.chunk_end]
    source = source_of(old, fact)
    if source is not None:
        chunks = await texts.document(source)
        if not chunks:
            return FactFollow(quote, old.id, [], GONE)
        if parts := _by_offsets(chunks, fact, written):
            return FactFollow(quote, old.id, parts, BY_OFFSETS)
    else:
        chunks = await texts.holding(quote)
    found = [(chunk, span) for chunk in chunks if (span := locate(quote, chunk.text)) is not None]
    if found:
        return FactFollow(quote, old.id, [_pick(found, old, fact)], BY_TEXT)
    if source is not None and (parts := _split_by_text(chunks, quote)):
        return FactFollow(quote, old.id, parts, BY_TEXT)
    return FactFollow(quote, old.id, [], CHANGED if source is not None or here is not None or chunks else GONE)


def joined_text(chunks: Sequence[Chunk]) -> str:
    """Chunks' texts laid at their places in their document where each has one (overlaps once), else one after
    the other."""
    placed = [(start, c.text) for c in chunks if (start := start_of(c)) is not None]
    if len(chunks) > 1 and len(placed) == len(chunks) and len({source_of_chunk(c) for c in chunks}) == 1:
        return laid_out(placed)
    return "\n".join(c.text for c in chunks)


#: The judge asked about a record's new chunks: (record, chunks, quotes by chunk id) -> (sufficient, reason).
Judge = Callable[[DatasetRecord, list[Chunk], list[tuple[str, str]]], Awaitable[tuple[bool, str]]]


@dataclass
class Follower:
    """Follows records' facts into one collection, asking `judge` where a cut may have lost a subject."""

    texts: CollectionTexts
    judge: Judge
    judge_calls: int = 0

    async def follow(self, record: DatasetRecord) -> RecordFollow:
        facts = [await follow_fact(chunk, fact, self.texts) for chunk in record.supporting for fact in chunk.evidence]
        most = TYPES[record.question_type].hops[1] if record.question_type in TYPES else MAX_HOPS
        follow = RecordFollow(facts, kept_whole=True, most_chunks=most)
        if not follow.found or follow.problem():
            return follow
        for chunk in record.supporting:
            holders = [p.chunk for fact in facts if fact.old_chunk == chunk.id for p in fact.parts]
            unique = list({c.id: c for c in holders}.values())
            if not contains(joined_text(unique), chunk.text):
                follow.kept_whole = False
        if follow.kept_whole:
            return follow
        quotes = [(p.chunk.id, p.quote) for fact in facts for p in fact.parts]
        self.judge_calls += 1
        follow.judged, follow.judge_reason = await self.judge(record, follow.new_supporting(), quotes)
        return follow
