"""A run's dataset versions: `dataset.jsonl` is the latest; each version is kept in `versions/<n>/`.

    runs/<run_id>/dataset.jsonl                 the latest version (what evaluate, review and export read)
    runs/<run_id>/versions/<n>/dataset.jsonl    version n as it was written (version 1: the run's)
    runs/<run_id>/versions/<n>/changes.jsonl    how version n differs from version n - 1 (n >= 2)

run.json says which version is the latest (`dataset_version`, 1 when absent) and lists the refreshes
(`versions`).
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import TypedDict

from graph.config.errors import UserError
from graph.folder.files import make_folder, write_atomically
from graph.folder.run_document import RunDocument, read_run_document
from state.record import DatasetRecord


def dataset_version(document: RunDocument) -> int:
    """The latest dataset version of a run, from its run.json document."""
    version = document.get("dataset_version", 1)
    return version if isinstance(version, int) and version >= 1 else 1


def version_folder(folder: Path, version: int) -> Path:
    return folder / "versions" / str(version)


def keep_version(folder: Path, version: int) -> Path:
    """Version `version`'s dataset, copied from dataset.jsonl into its folder unless it is there already."""
    kept = version_folder(folder, version) / "dataset.jsonl"
    if not kept.is_file():
        make_folder(kept.parent)
        partial = kept.with_name(".dataset.jsonl.partial")
        shutil.copyfile(folder / "dataset.jsonl", partial)
        partial.replace(kept)
    return kept


def version_dataset(folder: Path, version: int | None) -> Path:
    """The dataset.jsonl of version `version` of the run in `folder` (None: the latest)."""
    latest = dataset_version(read_run_document(folder))
    if version is None or version == latest:
        return folder / "dataset.jsonl"
    kept = version_folder(folder, version) / "dataset.jsonl"
    if not 1 <= version < latest or not kept.is_file():
        raise UserError(f"run {folder.name} has no dataset version {version}; its versions are 1 to {latest}")
    return kept


class Decided(TypedDict):
    """What a refresh decided of one record of the earlier version, as its change entry says it."""

    id: str
    reason: str
    chunks: list[str]
    status: str
    """Its check's status: fresh, re-pointed, flagged or stale."""
    thread_id: str | None
    """The thread that judged it again, where one did."""


class Change(TypedDict, total=False):
    """A line of changes.jsonl: what happened to one record between two versions, and why."""

    change: str
    """kept, updated, replaced, dropped or added."""
    id: str
    question_type: str
    binary: bool
    status: str
    reason: str
    chunks: list[str]
    thread_id: str
    replaced_by: str
    replaces: str | None
    sources: list[str]


def changes(decisions: Iterable[Decided], before: list[DatasetRecord], after: list[DatasetRecord]) -> list[Change]:
    """changes.jsonl: every record of the version `before` (kept, updated, replaced or dropped) and every record
    `after` adds, from the refresh's `decisions` (per record: id, its check's status (fresh, re-pointed, flagged,
    stale), reason, chunks, thread_id)."""
    why: dict[str, Decided] = {decision["id"]: decision for decision in decisions}
    now = {record.id: record for record in after}
    earlier = {record.id for record in before}
    added = [record for record in after if record.id not in earlier]
    free: dict[tuple[str, bool], list[DatasetRecord]] = defaultdict(list)
    for record in added:
        free[(record.question_type, record.binary)].append(record)
    replaced_by: dict[str, str] = {}
    entries = []
    for record in before:
        decision = why.get(record.id) or Decided(
            id=record.id, reason="unchanged", chunks=[], status="fresh", thread_id=None
        )
        if record.id in now:
            change = "kept" if now[record.id] == record else "updated"
        elif free[(record.question_type, record.binary)]:
            change = "replaced"
        else:
            change = "dropped"
        entry = Change(
            change=change,
            id=record.id,
            question_type=record.question_type,
            binary=record.binary,
            status=decision["status"],
            reason=decision["reason"],
            chunks=decision["chunks"],
        )
        if change == "updated" and (thread_id := decision["thread_id"]):
            entry["thread_id"] = thread_id
        if change == "replaced":
            entry["replaced_by"] = replaced_by[record.id] = free[(record.question_type, record.binary)].pop(0).id
        entries.append(entry)
    replaces = {new: old for old, new in replaced_by.items()}
    for record in added:
        sources = sorted({str(c.metadata.get("source")) for c in record.supporting} - {"None"})
        entries.append(
            Change(
                change="added",
                id=record.id,
                question_type=record.question_type,
                binary=record.binary,
                reason="fills its cell back to its quota",
                chunks=[c.id for c in record.supporting] or [c.id for c in record.contexts],
                replaces=replaces.get(record.id),
                sources=sources,
            )
        )
    return entries


def write_version(folder: Path, version: int, entries: list[Change]) -> Path:
    """Version `version`: the latest dataset.jsonl copied into its folder, beside its changes.jsonl."""
    target = version_folder(folder, version)
    make_folder(target)
    write_atomically(target / "dataset.jsonl", (folder / "dataset.jsonl").read_text(encoding="utf-8"))
    text = "".join(json.dumps(entry, ensure_ascii=False) + "\n" for entry in entries)
    write_atomically(target / "changes.jsonl", text)
    return target / "changes.jsonl"
