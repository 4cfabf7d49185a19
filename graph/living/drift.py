"""How a run's dataset stands against its store as it is now, or against another collection of its documents.

A record that carries its evidence is checked by it (`graph.living.follow`): each quote is followed to the chunk
that holds it now, by the id it was quoted from, by its place in its document, or by its text.

    fresh        every fact where it was, every chunk the record holds unchanged
    re-pointed   every fact found, its text unchanged and its subject still named, in other chunks or beside
                 changed ones (refresh points the record at them and labels its contexts again)
    flagged      re-pointed, and facts of different supporting chunks now share one chunk: the question may no
                 longer need two chunks on this collection
    stale        a quote is gone or changed, or its new chunks no longer answer the question (the sufficiency
                 judge decides that, one call, when a new chunk does not hold the old one's whole text)

A record without evidence (written before records carried it) is checked by its chunk ids, each chunk

    unchanged   the id holds the same text
    changed     the id holds another text                      (the record is stale)
    moved       the id is gone, the same text is under another  (re-pointed: not stale)
    gone        the id is gone and no chunk holds its text     (the record is stale)

A generated unanswerable question's retrieval is run again: a chunk now in its top k that its judge never read is
`unchecked`, and makes the record stale (the corpus may answer it now). Documents of the collection that the run
did not know are `new_sources`; no record covers them.

The terminal shows it as `drift_lines` give it, report.html as `drift_section` renders it.

Reads: the records' chunk ids (an index lookup each), one text lookup for the ids that are gone (a pass over the
collection, only then), the chunks of each document a moved fact lies in, one grouping of the collection by
document (which counts it too), and one retrieval per generated unanswerable question.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from graph.folder.check_file import CheckDocument, ChunkCounts, RecordCheck, last_fingerprint
from graph.folder.manifest import changed_since, collection_fingerprint, named, text_digest
from graph.living.follow import IN_PLACE, CollectionTexts, Follower, Judge, RecordFollow
from graph.store.reader import Chunk
from state.record import DatasetRecord

#: Chunk ids read per query.
ID_BATCH = 500
STALE_STATUSES = ("changed", "gone")
#: A chunk's statuses, least to most severe: a chunk a record holds twice keeps its worst.
SEVERITY = ("unchanged", "moved", "changed", "gone")


@dataclass
class RecordDrift:
    id: str
    question_type: str
    chunks: dict[str, str] = field(default_factory=dict)
    """chunk id -> unchanged | changed | moved | gone"""
    moved_to: dict[str, str] = field(default_factory=dict)
    """old chunk id -> the id its text is under now"""
    unchecked: list[str] = field(default_factory=list)
    """Generated unanswerable: chunks now in its top k that its judge never read."""
    follow: RecordFollow | None = None
    """Where its facts stand now; None for a record without evidence (checked by chunk ids)."""

    @property
    def status(self) -> str:
        """fresh, re-pointed, flagged or stale (the module's table)."""
        if self.unchecked:
            return "stale"
        follow = self.follow
        if follow is not None:
            if follow.problem():
                return "stale"
            if follow.shared():
                return "flagged"
            changed = follow.moved or any(status != "unchanged" for status in self.chunks.values())
            return "re-pointed" if changed else "fresh"
        if any(status in STALE_STATUSES for status in self.chunks.values()):
            return "stale"
        return "re-pointed" if self.moved_to else "fresh"

    def reason(self) -> str:
        """Why the record has its status, in a few words."""
        follow = self.follow
        if self.unchecked:
            return f"{len(self.unchecked)} chunk(s) now retrieved that its judge never read"
        if follow is None:
            named = {s: sorted(i for i, t in self.chunks.items() if t == s) for s in ("changed", "gone")}
            parts = [f"{status} {', '.join(ids)}" for status, ids in named.items() if ids]
            if self.moved_to:
                parts.append(f"{len(self.moved_to)} moved")
            return "; ".join(parts) + (" (no evidence recorded: checked by chunk ids)" if parts else "")
        if problem := follow.problem():
            return problem
        if shared := follow.shared():
            return f"facts of different supporting chunks now share {', '.join(shared)}"
        how = Counter(fact.how for fact in follow.facts)
        found = ", ".join(f"{n} {'' if way == IN_PLACE else 'by '}{way}" for way, n in sorted(how.items()))
        others = sum(status != "unchanged" for status in self.chunks.values())
        return f"facts found: {found}" + (f"; {others} of its chunks not as they were" if others else "")

    def as_json(self) -> RecordCheck:
        counts = Counter(self.chunks.values())
        entry: RecordCheck = {
            "id": self.id,
            "status": self.status,
            "question_type": self.question_type,
            "checked_by": "evidence" if self.follow is not None else "chunk ids",
            "reason": self.reason() if self.status != "fresh" else "",
            "changed": sorted(i for i, s in self.chunks.items() if s == "changed"),
            "gone": sorted(i for i, s in self.chunks.items() if s == "gone"),
            "moved": dict(sorted(self.moved_to.items())),
            "unchecked": self.unchecked,
            "unchanged": counts["unchanged"],
        }
        if self.follow is not None:
            entry["facts"] = [fact.as_json() for fact in self.follow.facts]
            entry["supporting"] = self.follow.supporting_map()
            entry["shared"] = self.follow.shared()
            entry["judged"] = self.follow.judged
        return entry


async def check_records(
    records: Sequence[DatasetRecord],
    corpus: Any,
    known_sources: Sequence[str] | None,
    judge: Judge,
    collection: str | None = None,
) -> CheckDocument:
    """The drift of every record, in sum, and the collection's new sources (`known_sources`: the run's; None
    when the run kept none, and new sources are then not reported). `judge` decides whether a quoted record's new
    chunks still answer it; `collection` is the checked collection's name."""
    used = [chunk for record in records for chunk in record.chunk_texts()]
    ids = list(dict.fromkeys(chunk_id for chunk_id, _ in used))
    now: dict[str, Chunk] = {}
    for start in range(0, len(ids), ID_BATCH):
        for chunk in await corpus.get(ids[start : start + ID_BATCH]):
            now[str(chunk.id)] = chunk
    # Every text an id that is gone held (a resumed run may have read one id before and after an edit).
    missing_texts = list(dict.fromkeys(text for chunk_id, text in used if chunk_id not in now))
    elsewhere = await corpus.reader.ids_of_texts(missing_texts) if missing_texts else {}
    follower = Follower(CollectionTexts(corpus, now), judge)
    drifts = []
    for record in records:
        drift = RecordDrift(record.id, record.question_type)
        for chunk_id, text in record.chunk_texts():
            if chunk_id in now:
                status = "unchanged" if text_digest(now[chunk_id].text) == text_digest(text) else "changed"
            elif text in elsewhere:
                status = "moved"
                drift.moved_to[chunk_id] = elsewhere[text]
            else:
                status = "gone"
            earlier = drift.chunks.get(chunk_id, "unchanged")
            drift.chunks[chunk_id] = max(earlier, status, key=SEVERITY.index)
        if record.evidence_status == "quoted" and record.facts():
            drift.follow = await follower.follow(record)
        if not record.answerable:
            drift.unchecked = await unchecked_chunks(record, corpus)
        drifts.append(drift)
    sources = await corpus.reader.sources()
    fingerprint = await collection_fingerprint(corpus, sources)
    new_sources = sorted(set(fingerprint["sources"]) - set(known_sources)) if known_sources is not None else None
    statuses = Counter(drift.status for drift in drifts)
    chunk_statuses = Counter(status for drift in drifts for status in drift.chunks.values())
    return {
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "collection": named(fingerprint, collection),
        "summary": {
            "records": len(drifts),
            "fresh": statuses["fresh"],
            "re_pointed": statuses["re-pointed"],
            "flagged": statuses["flagged"],
            "stale": statuses["stale"],
            "by_evidence": sum(drift.follow is not None for drift in drifts),
            "judge_calls": follower.judge_calls,
            "chunks": ChunkCounts(
                unchanged=chunk_statuses["unchanged"],
                changed=chunk_statuses["changed"],
                moved=chunk_statuses["moved"],
                gone=chunk_statuses["gone"],
            ),
            "unanswerable_unchecked": sum(1 for drift in drifts if drift.unchecked),
            "new_sources": new_sources,
        },
        "records": [
            with_collection(drift.as_json(), collection) if drift.follow else drift.as_json() for drift in drifts
        ],
    }


def with_collection(entry: RecordCheck, collection: str | None) -> RecordCheck:
    """A followed record's entry, naming the collection its facts were followed into (None where the check was
    given no name)."""
    entry["collection"] = collection
    return entry


async def unchecked_chunks(record: DatasetRecord, corpus: Any) -> list[str]:
    """The chunks a generated unanswerable question retrieves now that its judge never read (a chunk whose text
    it read, under another id now, was read)."""
    check = record.retrieval_check
    checked = set(check.chunk_ids) if check is not None else set()
    read = {text_digest(c.text) for c in record.contexts}
    hits = await corpus.search(record.canonical_question, check.k if check is not None else 5)
    return [
        str(hit.chunk.id)
        for hit in hits
        if str(hit.chunk.id) not in checked and text_digest(hit.chunk.text) not in read
    ]


def drift_lines(report: CheckDocument) -> list[str]:
    """The check as the terminal shows it: the records that are not fresh, then the sums."""
    summary = report["summary"]
    lines = []
    affected = [r for r in report["records"] if r["status"] != "fresh"]
    if affected:
        lines.append(f"{'record':<28}{'status':<12}{'checked by':<12}why")
        for r in affected:
            lines.append(f"{r['id']:<28}{r['status']:<12}{r.get('checked_by', 'chunk ids'):<12}{r.get('reason', '')}")
        lines.append("")
    chunks = summary["chunks"]
    lines.append(
        f"{summary['records']} records: {summary['fresh']} fresh, {summary['re_pointed']} re-pointed, "
        f"{summary.get('flagged', 0)} flagged, {summary['stale']} stale"
        + (f" (checked on {report['collection']['name']!r})" if report.get("collection", {}).get("name") else "")
    )
    by_evidence = summary.get("by_evidence", 0)
    if by_evidence < summary["records"]:
        lines.append(
            f"{summary['records'] - by_evidence} record(s) carry no evidence (an older run, or generated unanswerable "
            "questions): checked by chunk ids"
        )
    if summary.get("judge_calls"):
        lines.append(f"sufficiency judge calls: {summary['judge_calls']} (records whose new chunks cut their old ones)")
    lines.append(
        f"chunks: {chunks['unchanged']} unchanged, {chunks['changed']} changed, {chunks['moved']} moved, "
        f"{chunks['gone']} gone"
    )
    if summary["unanswerable_unchecked"]:
        lines.append(
            f"{summary['unanswerable_unchecked']} generated unanswerable question(s) now retrieve chunks their judge "
            "never read"
        )
    new = summary["new_sources"]
    if new is None:
        lines.append("new documents: unknown (the run kept no list of its collection's documents)")
    elif new:
        shown = ", ".join(new[:10]) + (f" and {len(new) - 10} more" if len(new) > 10 else "")
        lines.append(f"{len(new)} new document(s) no question covers: {shown}")
    else:
        lines.append("no new documents")
    return lines


async def store_changed_since_check(corpus: Any, folder: Any) -> bool:
    """Whether the store changed after the dataset in `folder` was last checked (or made)."""
    then = last_fingerprint(folder)
    if then.get("name") and then["name"] != getattr(corpus, "collection", then["name"]):
        return False  # another collection than the dataset's: no change of its own to compare
    return bool(then) and changed_since(then, await corpus.reader.modifications())
