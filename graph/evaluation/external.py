"""Datasets made elsewhere, read as records the evaluation scores (`graph.evaluate PATH`):

- `spans`: a CSV with `question`, `references` (a JSON list of `{content, start_index, end_index}`, spans of the
  raw document file) and `corpus_id` (the document: a file's stem under `--documents`), as published chunking
  evaluations lay it out. It has no answers: only retrieval is scored.
- `ragas`: a RAGAS testset as JSONL or CSV (`user_input`, `reference`, `reference_contexts`); triad's own `ragas`
  and `csv` exports read the same way, their `reference_evidence` taken as the facts where they carry it.
- `triad`: a triad dataset.jsonl.

Each line becomes a record with a stable id (the file's stem, its line number and a hash of its question). A line
that cannot be read or located is named with its line number and reason and skipped; every other line is scored.
The facts of a line are its spans (or reference contexts), placed in their document where the document is at
hand, else found by their text in what a setup retrieves.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from graph.config.errors import UserError
from state.evidence import locate
from state.record import ContextPassage, DatasetRecord, Evidence, SupportingChunk

InputFormat = Literal["spans", "ragas", "triad"]
INPUT_FORMATS: tuple[InputFormat, ...] = ("spans", "ragas", "triad")

#: The fields every record made from another tool's line takes; the evaluation reads them as groups.
_NEUTRAL: dict[str, Any] = {
    "canonical_question": "",
    "query_style": "natural",
    "restyle": None,
    "turns": None,
    "binary": False,
    "language": None,
    "temporal": None,
    "role": "",
    "persona": None,
    "bridge_topic": "",
    "construction": {"compared_entities": [], "hidden_entities": [], "unanswerable_kind": "", "missing": ""},
    "n_relevant": 0,
    "difficulty": None,
    "unanswerable": None,
    "answerable": True,
    "expected": "answer",
    "retrieval_check": None,
    "seed_query": None,
    "validation": None,
    "version": 1,
    "validated_at": None,
    "provenance": None,
}


@dataclass
class ExternalDataset:
    """The records read from a file, the lines skipped with why, and whether the lines carry answers."""

    records: list[DatasetRecord]
    skipped: list[str] = field(default_factory=list)
    answers: bool = True
    input_format: InputFormat = "triad"


def line_id(stem: str, number: int, question: str) -> str:
    """A line's stable id: the file's stem, its line number and a hash of its question."""
    return f"{stem}:{number}:{hashlib.sha256(question.encode()).hexdigest()[:8]}"


def read_documents(folder: Path | None) -> dict[str, str]:
    """The text of every file of `folder` (raw, as spans count in it), by file stem (the first of two files with one
    stem); a retrieved chunk's `source` names its document by that stem too."""
    if folder is None:
        return {}
    if not folder.is_dir():
        raise UserError(f"--documents {folder} is not a folder; give the folder that holds the documents")
    documents: dict[str, str] = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # a binary file (a PDF) holds no raw text a span could count in
        documents.setdefault(path.stem, text)
    return documents


def detect_format(path: Path, rows: list[tuple[int, dict[str, Any]]]) -> InputFormat:
    """The format of a file, from the keys its first readable line holds."""
    keys = set(rows[0][1]) if rows else set()
    if {"references", "corpus_id", "question"} <= keys:
        return "spans"
    if {"user_input", "reference_contexts"} <= keys:
        return "ragas"
    if {"question", "supporting", "contexts"} <= keys:
        return "triad"
    raise UserError(
        f"{path} is neither a span CSV (question, references, corpus_id), a RAGAS testset (user_input, reference, "
        "reference_contexts) nor a triad dataset; name its layout with --input-format"
    )


def _lines(path: Path, skipped: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of a JSONL or CSV file; a JSONL line that is not an object is skipped, named."""
    text = path.read_text(encoding="utf-8")
    if path.suffix.lower() == ".csv":
        reader = csv.DictReader(io.StringIO(text))
        return [(number, dict(row)) for number, row in enumerate(reader, start=2)]
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except ValueError:
            skipped.append(f"line {number}: not JSON")
            continue
        if not isinstance(row, dict):
            skipped.append(f"line {number}: not an object")
            continue
        rows.append((number, row))
    return rows


def read_external(path: Path, documents: Mapping[str, str], input_format: InputFormat | None = None) -> ExternalDataset:
    """The records of a file made elsewhere (or a triad dataset), its bad lines named and counted."""
    if not path.is_file():
        raise UserError(f"{path} not found; give a run id under --runs-dir or a path to a dataset file")
    skipped: list[str] = []
    rows = _lines(path, skipped)
    fmt = input_format or detect_format(path, rows)
    read: Callable[[str, int, dict[str, Any], Mapping[str, str]], DatasetRecord] = READERS[fmt]
    records = []
    for number, row in rows:
        try:
            records.append(read(path.stem, number, row, documents))
        except (ValueError, KeyError, TypeError, ValidationError) as problem:
            skipped.append(f"line {number}: {_reason(problem)}")
    if not records:
        first = skipped[0] if skipped else "no line"
        raise UserError(f"{path} holds no line that can be scored ({first}); fix the file or name --input-format")
    return ExternalDataset(records, skipped, answers=fmt != "spans", input_format=fmt)


def _reason(problem: Exception) -> str:
    if isinstance(problem, ValidationError):
        error = problem.errors()[0]
        return f"{'.'.join(map(str, error['loc']))}: {error['msg']}"
    if isinstance(problem, KeyError):
        return f"it has no {problem.args[0]!r}"
    return str(problem)


def _listed(value: Any, what: str) -> list[Any]:
    """A list a line holds as JSON (a CSV cell) or as it is."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            raise ValueError(f"{what} is not a JSON list") from None
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a list")
    return value


def _fact(quote: str, chunk_id: str, source: str | None, start: int | None) -> Evidence:
    return Evidence.model_validate(
        {
            "quote": quote,
            "location": {
                "chunk_id": chunk_id,
                "chunk_start": 0,
                "chunk_end": len(quote),
                "source": source,
                "document_start": start,
                "document_end": None if start is None else start + len(quote),
            },
        }
    )


def _record(record_id: str, question: str, answer: str, facts: list[Evidence]) -> DatasetRecord:
    """A record of a line made elsewhere: its question, answer and facts, the rest neutral (never validated as a
    triad record: it has no bridge, hops or judges' history)."""
    if not question.strip():
        raise ValueError("its question is empty")
    if not facts:
        raise ValueError("it names no evidence to find")
    supporting = [{"id": f.location.chunk_id, "text": f.quote, "metadata": {}, "evidence": [f]} for f in facts]
    contexts = [{"id": f.location.chunk_id, "text": f.quote, "relevant": True, "origin": "supporting"} for f in facts]
    fields = _NEUTRAL | {
        "id": record_id,
        "question": question,
        "canonical_question": question,
        "answer": answer,
        "question_type": "external",
        "hops": len(facts),
        "supporting": [SupportingChunk.model_validate(s) for s in supporting],
        "evidence_status": "quoted",
        "contexts": [ContextPassage.model_validate(c) for c in contexts],
        "n_relevant": len(facts),
    }
    return DatasetRecord.model_construct(**fields)


def read_span_line(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    """A line of a span CSV: its references are spans of the raw file `corpus_id`."""
    question, corpus = str(row["question"]), str(row["corpus_id"])
    document = documents.get(corpus)
    facts = []
    for index, span in enumerate(_listed(row["references"], "references")):
        if not isinstance(span, dict):
            raise ValueError(f"reference {index + 1} is not an object")
        content, start, end = str(span["content"]), span.get("start_index"), span.get("end_index")
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
            raise ValueError(f"reference {index + 1} has no offsets start_index < end_index")
        if document is not None and document[start:end] != content:
            found = locate(content, document)  # offsets of another copy of the file: found by its text instead
            if found is None:
                raise ValueError(f"reference {index + 1} is not in {corpus} at {start}-{end}, nor elsewhere in it")
            start = found[0]
        facts.append(_fact(content, f"{corpus}#{start}", corpus, start))
    return _record(line_id(stem, number, question), question, "", facts)


def read_ragas_line(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    """A line of a RAGAS testset (or of triad's ragas or csv export): its reference contexts are its facts,
    placed in a document where one at hand holds them; an export's `reference_evidence` is taken as it is."""
    question, answer = str(row["user_input"]), str(row.get("reference") or "")
    if row.get("reference_evidence"):
        facts = [_exported_fact(item) for item in _listed(row["reference_evidence"], "reference_evidence")]
    else:
        facts = [_placed(str(text), f"{stem}:{number}#{index}", documents)
                 for index, text in enumerate(_listed(row["reference_contexts"], "reference_contexts"))]  # fmt: skip
    record = _record(line_id(stem, number, question), question, answer, facts)
    return record.model_copy(update={"id": str(row["id"])}) if row.get("id") else record


def _exported_fact(item: Any) -> Evidence:
    if not isinstance(item, dict):
        raise ValueError("reference_evidence holds an entry that is not an object")
    location = {key: item.get(key) for key in ("chunk_id", "chunk_start", "chunk_end", "source", "document_start",
                                                "document_end")}  # fmt: skip
    return Evidence.model_validate({"quote": item.get("quote"), "location": location, "also_in": item.get("also_in")})


def _placed(text: str, chunk_id: str, documents: Mapping[str, str]) -> Evidence:
    """A reference context as a fact, placed in the first document that holds it (none at hand: found by text)."""
    for source, document in documents.items():
        if (found := locate(text, document)) is not None:
            return _fact(document[found[0] : found[1]], chunk_id, source, found[0])
    return _fact(text, chunk_id, None, None)


def read_triad_line(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    return DatasetRecord.model_validate(row)


READERS: dict[InputFormat, Callable[[str, int, dict[str, Any], Mapping[str, str]], DatasetRecord]] = {
    "spans": read_span_line,
    "ragas": read_ragas_line,
    "triad": read_triad_line,
}
