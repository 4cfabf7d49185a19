"""run.json is one typed document: what runs wrote keeps to `RunDocument`, and it is read leniently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_type_hints

import pytest

from graph.folder.run_document import RunDocument, VersionEntry, load_run_document, read_run_document
from graph.folder.versions import dataset_version

EARLIER_RUN = Path(__file__).parents[1] / "data" / "run_before_split" / "pre-split"


def test_a_run_json_an_earlier_version_wrote_holds_only_keys_the_document_types() -> None:
    document = load_run_document(EARLIER_RUN / "run.json")
    assert set(document) <= set(get_type_hints(RunDocument))
    assert document["run_id"] == "pre-split" and document["funnel"]["accepted"] >= 1
    assert dataset_version(document) == 1  # no refresh: version 1


def test_an_absent_or_broken_run_json_reads_as_an_empty_document(tmp_path: Path) -> None:
    assert read_run_document(tmp_path) == {}
    (tmp_path / "run.json").write_text("[1, 2]", encoding="utf-8")
    assert read_run_document(tmp_path) == {}
    with pytest.raises(ValueError, match="no JSON object"):
        load_run_document(tmp_path / "run.json")
    (tmp_path / "run.json").write_text("{not json", encoding="utf-8")
    assert read_run_document(tmp_path) == {}


def test_a_refreshed_runs_versions_are_typed_entries(tmp_path: Path) -> None:
    entry: VersionEntry = {"version": 2, "written_at": "2026-12-07T10:00:00+00:00", "changes": {"kept": 3}}
    (tmp_path / "run.json").write_text(json.dumps({"dataset_version": 2, "versions": [entry]}), encoding="utf-8")
    document = read_run_document(tmp_path)
    assert dataset_version(document) == 2 and document["versions"] == [entry]
    assert set(entry) <= set(get_type_hints(VersionEntry))
