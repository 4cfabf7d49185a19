"""How a run's dataset stands against its store as it is now.

Each chunk a record uses (supporting chunks and contexts) is looked up by its id:

    unchanged   the id holds the same text
    changed     the id holds another text                      (the record is stale)
    moved       the id is gone, the same text is under another  (re-pointed: not stale)
    gone        the id is gone and no chunk holds its text     (the record is stale)

A generated unanswerable question's retrieval is run again: a chunk now in its top k that its judge
never read is `unchecked`, and makes the record stale (the corpus may answer it now). Documents of the
collection that the run did not know are `new_sources`; no record covers them.

The terminal shows it as `drift_lines` give it, report.html as `drift_section` renders it.

Reads: the records' chunk ids (an index lookup each), one text lookup for the ids that are gone (a
pass over the collection, only then), one grouping of the collection by document (which counts it
too), and one retrieval per generated unanswerable question.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graph.living.manifest import changed_since, collection_fingerprint, text_digest
from graph.running.files import write_atomically
from graph.webpage import esc, table
from state.record import DatasetRecord
from state.threads import ThreadId

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

    @property
    def status(self) -> str:
        """stale (a chunk changed or gone, or unchecked chunks), re-pointed (a chunk moved), or fresh."""
        if self.unchecked or any(status in STALE_STATUSES for status in self.chunks.values()):
            return "stale"
        return "re-pointed" if self.moved_to else "fresh"

    def as_json(self) -> dict[str, Any]:
        counts = Counter(self.chunks.values())
        return {
            "id": self.id,
            "status": self.status,
            "question_type": self.question_type,
            "changed": sorted(i for i, s in self.chunks.items() if s == "changed"),
            "gone": sorted(i for i, s in self.chunks.items() if s == "gone"),
            "moved": dict(sorted(self.moved_to.items())),
            "unchecked": self.unchecked,
            "unchanged": counts["unchanged"],
        }


async def check_records(
    records: Sequence[DatasetRecord], corpus: Any, known_sources: Sequence[str] | None
) -> dict[str, Any]:
    """The drift of every record, in sum, and the collection's new sources (`known_sources`: the run's; None
    when the run kept none, and new sources are then not reported)."""
    used = [chunk for record in records for chunk in record.chunk_texts()]
    ids = list(dict.fromkeys(chunk_id for chunk_id, _ in used))
    now: dict[str, str] = {}
    for start in range(0, len(ids), ID_BATCH):
        for chunk in await corpus.get(ids[start : start + ID_BATCH]):
            now[str(chunk.id)] = chunk.text
    # Every text an id that is gone held (a resumed run may have read one id before and after an edit).
    missing_texts = list(dict.fromkeys(text for chunk_id, text in used if chunk_id not in now))
    elsewhere = await corpus.ids_of_texts(missing_texts) if missing_texts else {}
    drifts = []
    for record in records:
        drift = RecordDrift(record.id, record.question_type)
        for chunk_id, text in record.chunk_texts():
            if chunk_id in now:
                status = "unchanged" if text_digest(now[chunk_id]) == text_digest(text) else "changed"
            elif text in elsewhere:
                status = "moved"
                drift.moved_to[chunk_id] = elsewhere[text]
            else:
                status = "gone"
            earlier = drift.chunks.get(chunk_id, "unchanged")
            drift.chunks[chunk_id] = max(earlier, status, key=SEVERITY.index)
        if not record.answerable:
            drift.unchecked = await unchecked_chunks(record, corpus)
        drifts.append(drift)
    sources = await corpus.sources()
    collection = await collection_fingerprint(corpus, sources)
    new_sources = sorted(set(collection["sources"]) - set(known_sources)) if known_sources is not None else None
    statuses = Counter(drift.status for drift in drifts)
    chunk_statuses = Counter(status for drift in drifts for status in drift.chunks.values())
    return {
        "checked_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "collection": {k: v for k, v in collection.items() if k != "sources"},
        "summary": {
            "records": len(drifts),
            "fresh": statuses["fresh"],
            "re_pointed": statuses["re-pointed"],
            "stale": statuses["stale"],
            "chunks": {status: chunk_statuses[status] for status in ("unchanged", "changed", "moved", "gone")},
            "unanswerable_unchecked": sum(1 for drift in drifts if drift.unchecked),
            "new_sources": new_sources,
        },
        "records": [drift.as_json() for drift in drifts],
    }


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


def drift_lines(report: dict[str, Any]) -> list[str]:
    """The check as the terminal shows it: the records that are not fresh, then the sums."""
    summary = report["summary"]
    lines = []
    affected = [r for r in report["records"] if r["status"] != "fresh"]
    if affected:
        lines.append(f"{'record':<28}{'status':<12}{'changed':>8}{'gone':>6}{'moved':>7}{'unchecked':>10}")
        for r in affected:
            lines.append(
                f"{r['id']:<28}{r['status']:<12}{len(r['changed']):>8}{len(r['gone']):>6}{len(r['moved']):>7}"
                f"{len(r['unchecked']):>10}"
            )
        lines.append("")
    chunks = summary["chunks"]
    lines.append(
        f"{summary['records']} records: {summary['fresh']} fresh, {summary['re_pointed']} re-pointed, "
        f"{summary['stale']} stale"
    )
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


def last_fingerprint(folder: Any) -> dict[str, Any]:
    """The collection as the dataset in `folder` was last compared with it: at its latest check, else at its run."""
    for name, path in (("check.json", ("collection",)), ("run.json", ("manifest", "collection"))):
        try:
            found: Any = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for key in path:
            found = found.get(key) if isinstance(found, dict) else None
        if isinstance(found, dict) and found:
            return found
    return {}


async def store_changed_since_check(corpus: Any, folder: Any) -> bool:
    """Whether the store changed after the dataset in `folder` was last checked (or made)."""
    then = last_fingerprint(folder)
    return bool(then) and changed_since(then, await corpus.modifications())


def current_check(path: Path, run_id: str, finished: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The run's last `graph.check` when it checked exactly the records the run has now, else None (a continued
    run has changed them since)."""
    try:
        check = json.loads(path.read_text(encoding="utf-8"))
        checked = {str(r["id"]) for r in check["records"]}
        if not isinstance(check["summary"]["chunks"], dict):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    accepted = {str(ThreadId(run_id, row["n"])) for row in finished if row.get("outcome") == "accepted"}
    return check if checked == accepted else None


_DRIFT = re.compile(r'<section id="drift">.*?</section>', re.DOTALL)


def drift_section(check: Mapping[str, Any]) -> str:
    """The drift section of report.html: how the dataset stands against the store (`graph.check`)."""
    summary = check["summary"]
    chunks = summary["chunks"]
    affected = [r for r in check["records"] if r["status"] != "fresh"]
    rows = [
        [r["id"], r["status"], ", ".join(r["changed"]), ", ".join(r["gone"]),
         ", ".join(f"{old} → {new}" for old, new in r["moved"].items()), ", ".join(r["unchecked"])]
        for r in affected
    ]  # fmt: skip
    new = summary["new_sources"]
    sources = "unknown (the run kept no list of its documents)" if new is None else (", ".join(new) or "none")
    return (
        '<section id="drift"><h2>Drift</h2>'
        f'<p class="note">Checked {esc(check["checked_at"])}: {summary["records"]} records, {summary["fresh"]} fresh, '
        f"{summary['re_pointed']} re-pointed, {summary['stale']} stale; chunks {chunks['unchanged']} unchanged, "
        f"{chunks['changed']} changed, {chunks['moved']} moved, {chunks['gone']} gone. "
        f"New documents no question covers: {esc(sources)}.</p>"
        + (table(["record", "status", "changed", "gone", "moved", "unchecked"], rows) if rows else "")
        + "</section>"
    )


def with_drift(html: str, check: Mapping[str, Any]) -> str:
    """A report page with the drift section of `check`, in place of an earlier one, before the page's script."""
    section = drift_section(check)
    if _DRIFT.search(html):
        return _DRIFT.sub(lambda _: section, html, count=1)
    at = next((i for i in (html.rfind("<script>"), html.rfind("</body>")) if i >= 0), len(html))
    return html[:at] + section + html[at:]


def add_drift_section(path: Path, check: Mapping[str, Any]) -> None:
    """report.html with the drift section of `check`."""
    write_atomically(path, with_drift(path.read_text(encoding="utf-8"), check))
