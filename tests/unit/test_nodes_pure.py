"""Pure pieces of the nodes: word-boundary matching, difficulty, distractor candidates (lint: test_lint.py)."""

from __future__ import annotations

import pytest

from nodes.common import mentions
from nodes.steps.bridge import entity_spans
from nodes.steps.extract import difficulty_for, distinct_candidates


@pytest.mark.parametrize(
    ("text", "entity", "found"),
    [
        ("The bus stops here.", "US", False),
        ("Made in the US.", "US", True),
        ("autovacuum_naptime controls", "autovacuum", False),
        ("the autovacuum launcher", "Autovacuum", True),
        ("E! network airs", "E!", True),
        ("pg_stat_activity.", "pg_stat_activity", True),
        ("anything", "  ", False),
    ],
)
def test_mentions_matches_whole_words_case_folded(text: str, entity: str, found: bool) -> None:
    assert mentions(text, entity) is found


def test_entity_spans_find_identifiers_acronyms_and_names() -> None:
    spans = entity_spans("Set autovacuum_naptime before VACUUM FULL runs; see Write Ahead Log and pg_ctl() docs.")
    assert {"autovacuum_naptime", "VACUUM FULL", "Write Ahead Log", "pg_ctl()"} <= set(spans)


@pytest.mark.parametrize(
    ("n", "hops", "expected"),
    [
        (2, 2, "hard"),
        (3, 2, "medium"),
        (4, 2, "medium"),
        (5, 2, "easy"),
        (3, 3, "hard"),
        (5, 3, "medium"),
        (6, 3, "easy"),
    ],
)
def test_difficulty_thresholds(n: int, hops: int, expected: str) -> None:
    assert difficulty_for(n, hops, hard_extra=0, medium_extra=2) == expected


def test_distinct_candidates_drop_supporting_chunks_and_repeated_texts() -> None:
    def chunk(i: str, text: str) -> dict:
        return {"id": i, "text": text, "metadata": {}}

    supporting = [chunk("a", "Alpha text"), chunk("b", "Beta text")]
    lists = [
        [chunk("b", "Beta text"), chunk("c", "Gamma"), chunk("d", "alpha  TEXT")],
        [chunk("c", "Gamma"), chunk("e", "gamma"), chunk("f", "Delta")],
    ]
    assert [c["id"] for c in distinct_candidates(supporting, lists)] == ["c", "f"]


def test_a_fact_is_placed_in_its_chunk_and_document_and_found_again_in_relevant_contexts_by_text() -> None:
    from nodes.steps.finalize import chunk_evidence

    chunk = {"id": "a", "text": "Intro.\nThe launcher sleeps  for “naptime” seconds.",
             "metadata": {"source": "guide.html", "start_index": 100}}  # fmt: skip
    draft = {"evidence": [{"chunk_id": "a", "quote": 'The launcher sleeps for "naptime" seconds.'}]}
    contexts = [
        {"id": "a", "text": chunk["text"], "relevant": True, "origin": "supporting"},
        {"id": "b", "text": "Note: the launcher sleeps for “naptime” seconds.", "relevant": True,
         "origin": "distractor"},
        {"id": "c", "text": "The launcher sleeps for “naptime” seconds.", "relevant": False, "origin": "distractor",
         "source": "other.html", "start_index": 5},
        {"id": "d", "text": "It sleeps, The launcher sleeps for 'naptime' seconds.", "relevant": True,
         "origin": "distractor", "source": "faq.html", "start_index": 40},
    ]  # fmt: skip
    (fact,) = chunk_evidence(chunk, draft, contexts)  # type: ignore[arg-type]
    assert fact.location.model_dump() == {"chunk_id": "a", "chunk_start": 7, "chunk_end": 50, "source": "guide.html",
                                "document_start": 107, "document_end": 150}  # fmt: skip
    # b differs by case (not the same words), c is not relevant: d alone is another location, placed in its document
    assert [place.model_dump() for place in fact.also_in] == [
        {"chunk_id": "d", "chunk_start": 11, "chunk_end": 53, "source": "faq.html", "document_start": 51,
         "document_end": 93}
    ]  # fmt: skip
    assert chunk_evidence(chunk, {}, contexts) == []  # type: ignore[arg-type]  # a draft written without quotes


def test_a_ready_cut_chunk_is_placed_in_its_plain_text_source_when_the_file_is_at_hand(tmp_path) -> None:  # noqa: ANN001
    from nodes.steps.finalize import chunk_evidence, start_in_source

    source = tmp_path / "guide.md"
    source.write_text("# Guide\n\nIntro.\n\nThe launcher sleeps for naptime seconds. More.\n", encoding="utf-8")
    text = "The launcher sleeps for naptime seconds."
    chunk = {"id": "a", "text": text, "metadata": {"source": str(source)}}
    start = start_in_source(chunk)  # type: ignore[arg-type]
    assert start == source.read_text().index(text)
    draft = {"evidence": [{"chunk_id": "a", "quote": "sleeps for naptime seconds"}]}
    (fact,) = chunk_evidence(chunk, draft, [], start)  # type: ignore[arg-type]
    assert fact.location.document_start == start + 13 and fact.location.source == str(source)
    assert start_in_source({"id": "b", "text": text, "metadata": {"source": str(tmp_path / "gone.md")}}) is None  # type: ignore[arg-type]
    assert start_in_source({"id": "c", "text": text, "metadata": {"source": "guide.pdf"}}) is None  # type: ignore[arg-type]
