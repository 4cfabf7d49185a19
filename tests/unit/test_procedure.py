"""Procedure detection (`state.procedure`) on its table of chunks (tests/unit/procedure_table.py), in the four
languages, and its patterns as PostgreSQL applies them."""

from __future__ import annotations

from state.procedure import looks_procedural, procedure_form
from tests.unit.procedure_table import PROCEDURE_CHUNKS


def test_the_table_has_30_chunks_of_each_kind_and_5_per_language() -> None:
    assert sum(label for _, _, label in PROCEDURE_CHUNKS) >= 30
    assert sum(not label for _, _, label in PROCEDURE_CHUNKS) >= 30
    for language in ("en", "de", "fr", "es"):
        labels = [label for lang, _, label in PROCEDURE_CHUNKS if lang == language]
        assert labels.count(True) >= 5 and labels.count(False) >= 5, language


def test_a_chunk_is_a_procedure_exactly_when_labelled_so() -> None:
    wrong = [
        (lang, text[:60], procedure_form(text))
        for lang, text, label in PROCEDURE_CHUNKS
        if looks_procedural(text) != label
    ]
    assert wrong == []


def test_each_form_is_found_in_each_language() -> None:
    forms = {(lang, procedure_form(text)) for lang, text, label in PROCEDURE_CHUNKS if label}
    for language in ("en", "de", "fr", "es"):
        assert {form for lang, form in forms if lang == language} == {"numbered", "bulleted", "sequence"}, language


def test_the_patterns_run_in_postgresql_as_in_python(pg_url: str) -> None:
    import psycopg
    from psycopg import sql

    from graph.store.usable import procedural_condition

    texts = [text for _, text, _ in PROCEDURE_CHUNKS]
    query = sql.SQL("SELECT {} FROM unnest(%s::text[]) AS t").format(procedural_condition(sql.Identifier("t")))
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(query, (texts,)).fetchall()
    in_database = [bool(row[0]) for row in rows]
    assert in_database == [looks_procedural(text) for text in texts]
