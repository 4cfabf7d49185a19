"""Seeds weighted by what matters to the team: heavier documents seed proportionally more questions.

    --weight-by metadata.KEY            a chunk's weight is its metadata KEY, a positive number
    --weights FILE                      a source (or, with --weight-by, a KEY value) per line, then its weight
    --weight-by metadata.tier --weights tiers.txt   the file maps the KEY's values to weights

A chunk without a weight (no value, a value the file does not list, or no positive number) weighs 1;
a weight of 0 keeps a document's chunks from seeding questions. Seeds are drawn with a probability
proportional to their weight; with `--queries`, a chunk's weight multiplies the number of queries
that retrieved it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from graph.config.errors import UserError
from graph.folder.run_document import WeightCoverage

#: The metadata key weights are read from without --weight-by: the chunk's document.
SOURCE_KEY = "source"
DEFAULT_WEIGHT = 1.0


def weight_key(given: str | None) -> str:
    """The metadata key of `--weight-by metadata.KEY` (the document's `source` when not given)."""
    if given is None:
        return SOURCE_KEY
    prefix, _, key = given.partition(".")
    if prefix != "metadata" or not key:
        raise UserError(f"--weight-by takes metadata.KEY (e.g. metadata.priority), not {given!r}")
    return key


def read_weights(path: Path) -> dict[str, float]:
    """A weights file: per line a value (a source, or a metadata value), whitespace, its weight; # comments."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise UserError(f"cannot read --weights {path} ({error.strerror}); check the path") from None
    table: dict[str, float] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        value, _, weight = line.rpartition(" ") if "\t" not in line else line.rpartition("\t")
        try:
            table[value.strip()] = parsed = float(weight)
        except ValueError:
            parsed = -1.0
        if not value.strip() or not math.isfinite(parsed) or parsed < 0:
            raise UserError(
                f"line {number} of {path} is not a value followed by a weight of 0 or more: {line!r}; "
                'write e.g. "docs/refund-policy.md 5"'
            )
    if not table:
        raise UserError(f"{path} lists no weight; write a value and its weight per line")
    return table


def weight_of(value: Any, table: Mapping[str, float] | None) -> float:
    """A chunk's weight from its metadata value: the file's weight for it, else the value itself as a number."""
    if table is not None:
        return table.get(str(value), DEFAULT_WEIGHT) if value is not None else DEFAULT_WEIGHT
    try:
        number = float(value)
    except (TypeError, ValueError):
        return DEFAULT_WEIGHT
    return number if math.isfinite(number) and number >= 0 else DEFAULT_WEIGHT


def chunk_weights(values: Iterable[tuple[str, Any]], table: Mapping[str, float] | None) -> dict[str, float]:
    """Every usable chunk's weight, from (chunk id, its metadata value) pairs."""
    return {chunk_id: weight_of(value, table) for chunk_id, value in values}


def combined(documents: Mapping[str, float] | None, queries: Mapping[str, int] | None) -> dict[str, float] | None:
    """Seed weights: documents' alone, queries' alone, or, with both, each retrieved chunk's query count times
    its document weight."""
    if queries is None:
        return dict(documents) if documents is not None else None
    if documents is None:
        return {chunk_id: float(count) for chunk_id, count in queries.items()}
    return {chunk_id: count * documents.get(chunk_id, DEFAULT_WEIGHT) for chunk_id, count in queries.items()}


async def document_weights(corpus: Any, key: str | None, table: Mapping[str, float] | None, min_chars: int) -> (
    tuple[dict[str, float], list[tuple[str | None, float]]]
):  # fmt: skip
    """Every usable chunk's weight, and (source, weight) per chunk for the coverage by weight."""
    rows = await corpus.usable.metadata_values(key or SOURCE_KEY, min_chars)
    weights = chunk_weights(((chunk_id, value) for chunk_id, _, value in rows), table)
    return weights, [(source, weights[chunk_id]) for chunk_id, source, _ in rows]


async def seed_weights(
    corpus: Any, options: Any, query_weights: Mapping[str, int] | None, min_chars: int
) -> dict[str, float] | None:
    """A run's seed weights (`RunOptions`): its documents' and its queries', combined; None: uniform."""
    documents = None
    if options.weighted:
        documents, _ = await document_weights(corpus, options.weight_by, options.weights, min_chars)
    return combined(documents, query_weights)


def coverage_by_weight(chunks: Iterable[tuple[str | None, float]], used: set[str]) -> list[WeightCoverage]:
    """Per weight, heaviest first: the documents whose chunks carry it and how many supplied a supporting chunk
    (`chunks`: (source, weight) of every chunk)."""
    documents: dict[float, set[str]] = {}
    for source, weight in chunks:
        if source is not None:
            documents.setdefault(weight, set()).add(source)
    return [
        WeightCoverage(
            weight=weight, documents=len(sources), covered=len(sources & used), share=len(sources & used) / len(sources)
        )
        for weight, sources in sorted(documents.items(), reverse=True)
    ]
