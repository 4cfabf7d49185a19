"""Runs over real text in other languages: the Debian Reference in German, French, Spanish and Japanese.

The scripted model writes its questions in the language each request asks for, and its quality judge
refuses a question in another one; the collections are sections of the translated manuals
(tests/data/manuals), embedded with the default English-only model as a team would at first (its vectors
shipped beside the slices).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.exporting.formats import answerable_rows
from graph.ingestion.writer import ingest_chunks
from graph.reviewing.pages import list_page, sample_page
from graph.reviewing.samples import load_samples
from nodes.language import detect_language
from state.record import DatasetRecord
from tests.support.commands import run_cli
from tests.support.manuals import manual_chunks, shipped_vectors

SCRIPTED = "offline:plausible"


@pytest.fixture(scope="module")
def manuals(pg_url: str) -> dict[str, str]:
    """A collection per language, and one mixing German and Spanish chunks; their table names."""
    vectors = shipped_vectors()
    tables = {}
    for language in ("de", "fr", "ja"):
        tables[language] = f"manual_{language}"
        ingest_chunks(pg_url, tables[language], manual_chunks(language), "minilm", embeddings=vectors)
    tables["mixed"] = "manual_mixed"
    mixed = manual_chunks("de", 20) + manual_chunks("es", 20)
    ingest_chunks(pg_url, tables["mixed"], mixed, "minilm", embeddings=vectors)
    return tables


def run(pg_url: str, collection: str, runs: Path, *extra: str) -> tuple[list[dict], dict, str]:
    """A scripted run over `collection`: its records, run.json and stderr."""
    result = run_cli(
        "graph.run", "--collection", collection, "--llm", SCRIPTED, "--seed", "5", "--database-url", pg_url,
        "--runs-dir", str(runs), "--run-id", runs.name, *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    folder = runs / runs.name
    records = [json.loads(line) for line in (folder / "dataset.jsonl").read_text().splitlines()]
    return records, json.loads((folder / "run.json").read_text()), result.stderr


@pytest.mark.parametrize(("language", "yes_no", "dedup"), [("de", {"Ja", "Nein"}, "0.95"), ("fr", {"Oui", "Non"}, "0")])
def test_a_collection_in_another_language_gives_questions_in_that_language(
    pg_url: str, manuals: dict[str, str], tmp_path: Path, language: str, yes_no: set[str], dedup: str
) -> None:
    records, document, stderr = run(
        pg_url, manuals[language], tmp_path, "--count", "2", "--types", "intersection", "--dedup-threshold", dedup
    )
    assert len(records) == 2 and {r["language"] for r in records} == {language}
    binary = [r for r in records if r["binary"]]
    assert binary and {r["answer"] for r in binary} <= yes_no  # the language's own words, never Yes/No
    assert [r for r in records if not r["binary"]]
    assert all(detect_language(r["question"]) == language for r in records)
    # Before the run: the collection's languages, and what the English-only embedding model means here (the
    # duplicate check embeds German questions; with it off, nothing is embedded again).
    assert f"languages of {manuals[language]!r}" in stderr
    assert ("knows English only" in stderr and "--embedding" in stderr) == (dedup != "0")
    assert (
        max(document["languages"]["collection"]["shares"], key=document["languages"]["collection"]["shares"].get)
        == language
    )
    assert document["funnel"]["languages"][language]["accepted"] == 2
    folder = tmp_path / tmp_path.name
    report = (folder / "report.html").read_text()
    assert 'id="languages"' in report and f"({language})" in report
    # The exports keep the language; the review app shows it and filters by it.
    assert {row["language"] for row in answerable_rows([DatasetRecord.model_validate(r) for r in records])} == {
        language
    }
    samples = load_samples(folder)
    listing = list_page("r", samples, sorted(samples), set(), {}, {"language": language}, "me")
    assert f'<option value="{language}" selected>{language} (' in listing
    drafted = sum(sample.language == language for sample in samples.values())
    assert f"({language}): {drafted} samples, 2 accepted, 0 reviewed" in listing
    accepted = next(s for s in samples.values() if s.accepted)
    assert f"({language})" in sample_page("r", accepted, {}, None, None)


def test_question_language_writes_english_questions_about_german_text(
    pg_url: str, manuals: dict[str, str], tmp_path: Path
) -> None:
    records, _, _ = run(
        pg_url, manuals["de"], tmp_path, "--count", "2", "--types", "comparison", "--question-language", "en",
        "--dedup-threshold", "0",
    )  # fmt: skip
    assert len(records) == 2 and {r["language"] for r in records} == {"en"}
    assert {r["answer"] for r in records if r["binary"]} <= {"Yes", "No"}
    assert all(detect_language(r["supporting"][0]["text"]) == "de" for r in records)
    generated = [json.loads(line) for line in (tmp_path / tmp_path.name / "rejected.jsonl").read_text().splitlines()]
    assert all(line["language"] in (None, "en") for line in generated)


def test_a_mixed_collection_gives_each_sample_its_seeds_language(
    pg_url: str, manuals: dict[str, str], tmp_path: Path
) -> None:
    records, document, stderr = run(
        pg_url, manuals["mixed"], tmp_path, "--count", "3", "--binary", "no", "--dedup-threshold", "0"
    )
    # The seed leads the supporting chunks the proposer names (the scripted proposer always names it).
    assert records and all(r["language"] == detect_language(r["supporting"][0]["text"]) for r in records)
    shares = document["languages"]["collection"]["shares"]
    assert {"de", "es"} <= set(shares) and "German" in stderr and "Spanish" in stderr


def test_japanese_text_runs_with_the_language_neutral_lint(
    pg_url: str, manuals: dict[str, str], tmp_path: Path
) -> None:
    records, _, stderr = run(
        pg_url, manuals["ja"], tmp_path, "--count", "2", "--binary", "no", "--dedup-threshold", "0"
    )
    assert len(records) == 2 and {r["language"] for r in records} == {"ja"}
    assert all(detect_language(r["question"]) == "ja" for r in records)
    assert stderr.count("lint has wording rules for") == 1 and "Japanese (ja)" in stderr
    assert "knows English only" not in stderr  # nothing is embedded again: no duplicate check, no queries
