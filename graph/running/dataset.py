"""A run's files as commands read them: the records of dataset.jsonl and the lines of rejected.jsonl, validated."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from graph.config.cli import tell
from graph.config.errors import UserError
from state.record import DatasetRecord

Line = TypeVar("Line", bound=BaseModel)


def read_lines(path: Path, model: type[Line], skipped: list[str]) -> Iterator[tuple[int, Line]]:
    """Each line of a JSONL file as `model`, with its line number, as any version of triad wrote it (a field
    added since takes its default). A line that does not validate (edited by hand, cut short) is left out, and
    named in `skipped` with its number."""
    kind = "record" if model is DatasetRecord else "line"
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield number, model.model_validate_json(line)
            except ValidationError as invalid:
                problem = invalid.errors()[0]["msg"]  # also names bytes that are not UTF-8
                skipped.append(f"{path} line {number} is not a valid {kind} ({problem}); fix or remove that line")


def tell_skipped(skipped: list[str]) -> None:
    for problem in skipped:
        tell(f"note: {problem}; it is skipped")


def dataset_records(path: Path) -> Iterator[DatasetRecord]:
    """The records of a dataset.jsonl a run has just written, one at a time (a large run's are never all in
    memory); none when there is no such file."""
    skipped: list[str] = []
    if path.is_file():
        yield from (record for _, record in read_lines(path, DatasetRecord, skipped))
    tell_skipped(skipped)


def read_dataset(path: Path) -> list[DatasetRecord]:
    """The valid records of a dataset.jsonl (see `read_lines`), the lines skipped named on stderr; a file without
    any valid record is a `UserError` naming its first bad line."""
    if not path.is_file():
        raise UserError(f"{path} not found; give a run id under --runs-dir or a path to dataset.jsonl")
    skipped: list[str] = []
    records = [record for _, record in read_lines(path, DatasetRecord, skipped)]
    if not records:
        # Nothing to export or evaluate: say so rather than write empty files.
        raise UserError(
            skipped[0]
            if skipped
            else f"{path} holds no accepted sample, so there is nothing to use; for a run's dataset, rejected.jsonl "
            "and report.html in its folder say why its samples were rejected"
        )
    tell_skipped(skipped)
    return records
