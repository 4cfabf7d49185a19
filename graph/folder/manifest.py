"""A run's manifest: what it was made with and what it read, so that it can be reproduced, audited and checked.

Kept in run.json (`manifest`) and in the state database (`triad_runs.manifest`):

    triad_version, prompt_version, seed, models, thinking, structured_output, options, settings
                 what the run was made with (structured_output: the mode each model's server answered in)
    collection   rows (an exact count), modifications (the table's insert/update/delete counter in the
                 server's statistics: it moves whenever the table changes), sources (the documents)
    chunks       every chunk a record uses (supporting, contexts, retrieved): id -> digest of its text
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from graph.folder.run_document import Fingerprint, Manifest, RunDocument
from nodes.versions import PROMPT_VERSION
from state.record import DatasetRecord, text_digest


def record_chunks(record: DatasetRecord) -> dict[str, str]:
    """Every chunk a record uses (its supporting chunks and its contexts, which hold the retrieved ones of a
    generated unanswerable question): id -> text digest."""
    return {chunk_id: text_digest(text) for chunk_id, text in record.chunk_texts()}


def triad_version() -> str:
    try:
        return importlib.metadata.version("triad")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


async def collection_fingerprint(corpus: Any, sources: Mapping[str | None, int]) -> Fingerprint:
    """The collection as it is now, from `sources` (chunks per document: one pass gives the rows too) and its
    table's change counter."""
    return Fingerprint(
        rows=sum(sources.values()),
        modifications=await corpus.reader.modifications(),
        sources=sorted(source for source in sources if source is not None),
    )


def named(fingerprint: Fingerprint, name: str | None) -> Fingerprint:
    """A fingerprint as a check or a dataset version keeps it: the collection's name, its rows and change counter,
    without the list of its documents."""
    return Fingerprint(name=name, rows=fingerprint["rows"], modifications=fingerprint["modifications"])


def changed_since(then: Fingerprint, modifications: int | None) -> bool:
    """Whether the collection's table changed since a fingerprint was taken (its change counter moved)."""
    earlier = then.get("modifications")
    return earlier is not None and modifications is not None and modifications != earlier


def build_manifest(run_document: RunDocument, records: Iterable[DatasetRecord], collection: Fingerprint) -> Manifest:
    """The manifest of a finished run, from its run.json document, its records and its collection's fingerprint."""
    chunks: dict[str, str] = {}
    for record in records:
        chunks.update(record_chunks(record))
    options = run_document["options"]
    return {
        "triad_version": triad_version(),
        "prompt_version": PROMPT_VERSION,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": options.get("seed"),
        "models": run_document["models"],
        "thinking": run_document["settings"].get("thinking", {}),
        "structured_output": run_document.get("structured_output", {}),
        "options": options,
        "settings": run_document["settings"],
        "collection": Fingerprint(name=run_document["settings"].get("collection"), **collection),
        "chunks": dict(sorted(chunks.items())),
    }
