"""A run's dataset file as commands read it: the records of dataset.jsonl, validated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graph.config.cli import tell
from graph.config.errors import UserError
from state.record import DatasetRecord


def read_dataset(path: Path) -> list[dict[str, Any]]:
    """Validated records of a dataset.jsonl, as any version of triad wrote them (a field added since takes its
    default). A line that does not validate (edited by hand, cut short) is named with its number and skipped;
    a file without any valid record is a `UserError` naming its first bad line."""
    if not path.is_file():
        raise UserError(f"{path} not found; give a run id under --runs-dir or a path to dataset.jsonl")
    records, skipped = [], []
    for number, line in enumerate(path.read_bytes().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(DatasetRecord.model_validate_json(line).model_dump(mode="json"))
        except ValidationError as invalid:
            problem = invalid.errors()[0]["msg"]  # also names bytes that are not UTF-8
            skipped.append(f"{path} line {number} is not a valid record ({problem}); fix or remove that line")
    if not records:
        # Nothing to export or evaluate: say so rather than write empty files.
        raise UserError(
            skipped[0]
            if skipped
            else f"{path} holds no accepted sample, so there is nothing to use; for a run's dataset, rejected.jsonl "
            "and report.html in its folder say why its samples were rejected"
        )
    for problem_line in skipped:
        tell(f"note: {problem_line}; it is skipped")
    return records
