"""Datasets made elsewhere, read as records the evaluation scores (`graph.evaluate PATH`):

- `spans`: a CSV with `question`, `references` (a JSON list of `{content, start_index, end_index}`, spans of the
  raw document file) and `corpus_id` (the document: a file's stem under `--documents`), as published chunking
  evaluations lay it out. It has no answers: only retrieval is scored.
- `ragas`: a RAGAS testset as JSONL or CSV (`user_input`, `reference`, `reference_contexts`); triad's own `ragas`
  and `csv` exports read the same way, their `reference_evidence` taken as the facts where they carry it.
- `hotpotqa`: a JSON list in HotpotQA's layout (`question`, `answer`, `supporting_facts` as [title, sentence
  number], `context` as [title, sentences]), as HotpotQA ships it and triad's `hotpotqa` export writes it: each
  supporting sentence is a fact;
- `hf`: a folder a Hugging Face `datasets` saved (triad's `hf` export), its rows read as `ragas` lines;
- `triad`: a triad dataset.jsonl.

Each line becomes a record with a stable id (the file's stem, its line number and a hash of its question). A line
that cannot be read or located is named with its line number and reason and skipped; every other line is scored.
The facts of a line are its spans (or reference contexts), placed in their document where the document is at
hand, else found by their text in what a setup retrieves.
"""

from __future__ import annotations

import ast
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
from graph.evaluation.scoring.evidence import document_name
from state.evidence import Evidence, locate
from state.record import ContextPassage, DatasetRecord, SupportingChunk

InputFormat = Literal["spans", "ragas", "hotpotqa", "hf", "triad"]
INPUT_FORMATS: tuple[InputFormat, ...] = ("spans", "ragas", "hotpotqa", "hf", "triad")

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
    if {"question", "supporting_facts", "context"} <= keys:
        return "hotpotqa"
    if {"user_input", "reference_contexts"} <= keys:
        return "ragas"
    if {"question", "supporting", "contexts"} <= keys:
        return "triad"
    raise UserError(
        f"{path} is neither a span CSV (question, references, corpus_id), a RAGAS testset (user_input, reference, "
        "reference_contexts) nor a triad dataset; name its layout with --input-format"
    )


def _lines(path: Path, skipped: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of a JSONL, CSV or JSON-list file, or of a saved Hugging Face dataset's rows (their
    numbers counted from 1); an entry that is not an object is skipped, named."""
    if path.is_dir():
        return list(enumerate(_hf_rows(path), start=1))
    text = path.read_text(encoding="utf-8-sig")  # a CSV saved by a spreadsheet starts with a byte-order mark
    if text.lstrip().startswith("["):
        try:
            entries = json.loads(text)
        except ValueError:
            raise UserError(f"{path} starts as a JSON list but is not one; fix the file") from None
        rows = [(number, entry) for number, entry in enumerate(entries, start=1) if isinstance(entry, dict)]
        skipped += [f"entry {n}: not an object" for n, e in enumerate(entries, start=1) if not isinstance(e, dict)]
        return rows
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


def _hf_rows(folder: Path) -> list[dict[str, Any]]:
    """The rows of a dataset that Hugging Face `datasets` saved in `folder` (the first split of a dict of them)."""
    try:
        import datasets  # type: ignore[import-not-found]
    except ImportError:
        raise UserError(f"{folder} is a saved Hugging Face dataset; read it after `pip install datasets`") from None
    loaded = datasets.load_from_disk(str(folder))
    if isinstance(loaded, datasets.DatasetDict):
        loaded = loaded[next(iter(loaded))]
    return [dict(row) for row in loaded]


def is_saved_dataset(path: Path) -> bool:
    """Whether `path` is a folder a Hugging Face `datasets` saved."""
    return path.is_dir() and any((path / name).is_file() for name in ("dataset_info.json", "dataset_dict.json"))


def read_external(path: Path, documents: Mapping[str, str], input_format: InputFormat | None = None) -> ExternalDataset:
    """The records of a file made elsewhere (or a triad dataset), its bad lines named and counted."""
    if not path.is_file() and not is_saved_dataset(path):
        raise UserError(f"{path} not found; give a run id under --runs-dir or a path to a dataset file")
    if input_format is None and path.is_dir():
        input_format = "hf"
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


def _listed(value: Any, what: str, joined: bool = False) -> list[Any]:
    """A list a line holds: as it is, or in a CSV cell as JSON or as Python writes a list (RAGAS's own CSV, saved
    from pandas: `['a', 'b']`); with `joined`, also as triad's csv export joins texts (`a|b`)."""
    if isinstance(value, str):
        text = value.strip()
        try:
            value = json.loads(text)
        except ValueError:
            try:
                value = ast.literal_eval(text) if text.startswith("[") else None
            except (ValueError, SyntaxError):
                value = None
            if value is None and joined:
                value = text.split("|") if text else []
            if value is None:
                raise ValueError(f"{what} is not a list (JSON, or Python's [...])") from None
    if not isinstance(value, list):
        raise ValueError(f"{what} is not a list")
    return value


def _fact(quote: str, chunk_id: str, source: str | None, span: tuple[int, int] | None) -> Evidence:
    """A fact of a line made elsewhere: its quote, known by a made-up chunk id, and its span of its document where
    that is at hand."""
    return Evidence.model_validate(
        {
            "quote": quote,
            "location": {
                "chunk_id": chunk_id,
                "chunk_start": 0,
                "chunk_end": len(quote),
                "source": source,
                "document_start": None if span is None else span[0],
                "document_end": None if span is None else span[1],
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
    name = document_name(corpus, documents) if documents else None
    document = documents[name] if name is not None else None
    facts = []
    for index, reference in enumerate(_listed(row["references"], "references")):
        if not isinstance(reference, dict):
            raise ValueError(f"reference {index + 1} is not an object")
        content, start, end = str(reference["content"]), reference.get("start_index"), reference.get("end_index")
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
            raise ValueError(f"reference {index + 1} has no offsets start_index < end_index")
        span: tuple[int, int] | None = None
        if document is not None:
            found = (start, end) if document[start:end] == content else locate(content, document)
            if found is None:  # offsets of another copy of the file are found by the text instead
                raise ValueError(f"reference {index + 1} is not in {corpus} at {start}-{end}, nor elsewhere in it")
            span = found
        # Offsets in the raw file count only where the file is at hand: else the span is found by its text.
        facts.append(_fact(content, f"{corpus}#{start}", name or corpus, span))
    return _record(line_id(stem, number, question), question, "", facts)


def read_ragas_line(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    """A line of a RAGAS testset (or of triad's ragas or csv export): its reference contexts are its facts,
    placed in a document where one at hand holds them; an export's `reference_evidence` is taken as it is."""
    question, answer = str(row["user_input"]), str(row.get("reference") or "")
    if row.get("reference_evidence"):
        facts = [_exported_fact(item) for item in _listed(row["reference_evidence"], "reference_evidence")]
    else:
        # triad's csv export (it has reference_context_ids) joins a row's texts with "|"
        contexts = _listed(row["reference_contexts"], "reference_contexts", joined="reference_context_ids" in row)
        facts = [_placed(str(text), f"{stem}:{number}#{index}", documents) for index, text in enumerate(contexts)]
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
            return _fact(document[found[0] : found[1]], chunk_id, source, found)
    return _fact(text, chunk_id, None, None)


def read_hotpotqa_entry(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    """An entry in HotpotQA's layout: each supporting fact [title, sentence number] is that sentence of the
    context titled so."""
    question, answer = str(row["question"]), str(row.get("answer") or "")
    sentences: dict[str, list[Any]] = {}
    for item in _listed(row["context"], "context"):
        if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], list):
            raise ValueError("context holds an entry that is not [title, sentences]")
        sentences[str(item[0])] = item[1]
    facts = []
    for fact in _listed(row["supporting_facts"], "supporting_facts"):
        if not isinstance(fact, list) or len(fact) != 2 or not isinstance(fact[1], int):
            raise ValueError("supporting_facts holds an entry that is not [title, sentence number]")
        title, index = str(fact[0]), fact[1]
        if title not in sentences or not 0 <= index < len(sentences[title]):
            raise ValueError(f"supporting fact [{title!r}, {index}] names no sentence of the context")
        facts.append(_placed(str(sentences[title][index]), title, documents))
    record = _record(line_id(stem, number, question), question, answer, facts)
    return record.model_copy(update={"id": str(row["_id"])}) if row.get("_id") else record


def read_triad_line(stem: str, number: int, row: dict[str, Any], documents: Mapping[str, str]) -> DatasetRecord:
    return DatasetRecord.model_validate(row)


READERS: dict[InputFormat, Callable[[str, int, dict[str, Any], Mapping[str, str]], DatasetRecord]] = {
    "spans": read_span_line,
    "ragas": read_ragas_line,
    "hotpotqa": read_hotpotqa_entry,
    "hf": read_ragas_line,
    "triad": read_triad_line,
}
