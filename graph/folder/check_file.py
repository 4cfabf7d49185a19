"""A run's last check (check.json): whether it still describes the run's records, the collection the dataset
was last compared with, and the drift section it gives report.html."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from graph.folder.files import write_atomically
from graph.folder.run_document import Fingerprint, RunDocument, read_run_document
from graph.webpage import esc, table
from state.finished import FinishedSample
from state.threads import ThreadId


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


def current_check(path: Path, run_id: str, finished: Sequence[FinishedSample]) -> dict[str, Any] | None:
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
    return check if checked == accepted else None


_DRIFT = re.compile(r'<section id="drift">.*?</section>', re.DOTALL)


def now_in(entry: Mapping[str, Any]) -> str:
    """Where a record's chunks are now: each supporting chunk's new chunks (by evidence), else the moved ids."""
    moved = entry.get("supporting") or {old: [new] for old, new in entry["moved"].items()}
    return "; ".join(f"{old} → {', '.join(new) or '-'}" for old, new in moved.items() if new != [old])


def drift_section(check: Mapping[str, Any]) -> str:
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
