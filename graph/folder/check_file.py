"""A run's last check (check.json): whether it still describes the run's records, the collection the dataset
was last compared with, and the drift section it gives report.html."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypedDict, cast

from graph.folder.files import write_atomically
from graph.folder.run_document import Fingerprint, RunDocument, read_run_document
from graph.webpage import esc, table
from state.finished import FinishedSample
from state.threads import ThreadId

FactCheck = TypedDict("FactCheck", {"quote": str, "from": str, "to": list[str], "quotes": list[str], "how": str})
"""Where one quoted fact stands now: the quote, the supporting chunk it was quoted from, the chunks that hold it now
(two where a cut split it) with the part each holds, and how it was found."""


class RecordCheck(TypedDict, total=False):
    """One record's entry of a check: its status and why, its chunks' changes, and, for a record with evidence,
    where its facts stand now."""

    id: str
    status: str
    """fresh, re-pointed, flagged or stale."""
    question_type: str
    checked_by: str
    """`evidence`, or `chunk ids` for a record without it."""
    reason: str
    changed: list[str]
    gone: list[str]
    moved: dict[str, str]
    """Old chunk id -> the id its text is under now."""
    unchecked: list[str]
    """Generated unanswerable: chunks now retrieved for it that its judge never read."""
    unchanged: int
    facts: list[FactCheck]
    supporting: dict[str, list[str]]
    """Each supporting chunk -> the chunks that hold its facts now."""
    shared: list[str]
    judged: bool | None
    collection: str | None


class ChunkCounts(TypedDict):
    unchanged: int
    changed: int
    moved: int
    gone: int


class CheckSummary(TypedDict, total=False):
    records: int
    fresh: int
    re_pointed: int
    flagged: int
    stale: int
    by_evidence: int
    judge_calls: int
    chunks: ChunkCounts
    unanswerable_unchecked: int
    new_sources: list[str] | None
    """Documents of the collection the run did not read; None when the run kept no list of its documents."""


class CheckDocument(TypedDict, total=False):
    """check.json: how a dataset stands against its store (`graph.living.drift.check_records`)."""

    run_id: str
    checked_at: str
    collection: Fingerprint
    summary: CheckSummary
    records: list[RecordCheck]


def read_json(path: Path) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def version_collection(document: RunDocument) -> Fingerprint:
    """The collection the latest dataset version of a run was made on (a refresh may have moved it to another):
    its name and fingerprint, from run.json's latest version entry that names one, else its manifest."""
    for entry in reversed(document.get("versions") or []):
        if isinstance(entry, dict) and isinstance(entry.get("collection"), dict):
            return entry["collection"]
    manifest = document.get("manifest")
    found = manifest.get("collection") if isinstance(manifest, dict) else None
    return found if isinstance(found, dict) else Fingerprint()


def last_fingerprint(folder: Any) -> Fingerprint:
    """The collection as the dataset in `folder` was last compared with it: at its latest check of the collection
    its latest version was made on, else when that version was made."""
    made_on = version_collection(read_run_document(folder))
    check = read_json(folder / "check.json").get("collection")
    if isinstance(check, dict) and check and (check.get("name") in (None, made_on.get("name")) or not made_on):
        return cast(Fingerprint, check)
    return made_on


def current_check(path: Path, run_id: str, finished: Sequence[FinishedSample]) -> CheckDocument | None:
    """The run's last `graph.check` when it checked exactly the records the run has now, else None (a continued
    run has changed them since)."""
    try:
        check = json.loads(path.read_text(encoding="utf-8"))
        checked = {str(r["id"]) for r in check["records"]}
        if not isinstance(check["summary"]["chunks"], dict):
            return None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    accepted = {str(ThreadId(run_id, row["n"])) for row in finished if row["outcome"] == "accepted"}
    return cast(CheckDocument, check) if checked == accepted else None


_DRIFT = re.compile(r'<section id="drift">.*?</section>', re.DOTALL)


def now_in(entry: RecordCheck) -> str:
    """Where a record's chunks are now: each supporting chunk's new chunks (by evidence), else the moved ids."""
    moved = entry.get("supporting") or {old: [new] for old, new in entry.get("moved", {}).items()}
    return "; ".join(f"{old} → {', '.join(new) or '-'}" for old, new in moved.items() if new != [old])


def drift_section(check: CheckDocument) -> str:
    """The drift section of report.html: how the dataset stands against the store (`graph.check`)."""
    summary = check["summary"]
    chunks = summary["chunks"]
    affected = [r for r in check["records"] if r["status"] != "fresh"]
    rows = [
        [r["id"], r["status"], r.get("checked_by", "chunk ids"), r.get("reason", ""),
         now_in(r)]
        for r in affected
    ]  # fmt: skip
    new = summary["new_sources"]
    sources = "unknown (the run kept no list of its documents)" if new is None else (", ".join(new) or "none")
    name = (check.get("collection") or {}).get("name")
    return (
        '<section id="drift"><h2>Drift</h2>'
        f'<p class="note">Checked {esc(check["checked_at"])}' + (f" on {esc(name)}" if name else "") + ": "
        f"{summary['records']} records, {summary['fresh']} fresh, {summary['re_pointed']} re-pointed, "
        f"{summary.get('flagged', 0)} flagged, {summary['stale']} stale; chunks {chunks['unchanged']} unchanged, "
        f"{chunks['changed']} changed, {chunks['moved']} moved, {chunks['gone']} gone. "
        f"New documents no question covers: {esc(sources)}.</p>"
        + (table(["record", "status", "checked by", "why", "now in"], rows) if rows else "")
        + "</section>"
    )


def with_drift(html: str, check: CheckDocument) -> str:
    """A report page with the drift section of `check`, in place of an earlier one, before the page's script."""
    section = drift_section(check)
    if _DRIFT.search(html):
        return _DRIFT.sub(lambda _: section, html, count=1)
    at = next((i for i in (html.rfind("<script>"), html.rfind("</body>")) if i >= 0), len(html))
    return html[:at] + section + html[at:]


def add_drift_section(path: Path, check: CheckDocument) -> None:
    """report.html with the drift section of `check`."""
    write_atomically(path, with_drift(path.read_text(encoding="utf-8"), check))
