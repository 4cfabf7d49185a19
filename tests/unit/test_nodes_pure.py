"""Pure pieces of the nodes: word-boundary matching, lint, difficulty, distractor candidates."""

from __future__ import annotations

import pytest

from nodes.bridge import entity_spans
from nodes.common import mentions
from nodes.extract import difficulty_for, distinct_candidates
from nodes.lint import lint_problems


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


def draft(question: str, answer: str) -> dict:
    return {"question": question, "answer": answer, "origin": "generate", "revision": 0}


def problems(
    question: str, answer: str, *, question_type: str = "comparison", binary: bool = False, bridge: str = "WAL"
) -> list[str]:
    return lint_problems(
        draft(question, answer),
        question_type=question_type,
        binary=binary,
        bridge_topic=bridge,
        max_question_words=40,
        max_answer_words=20,
    )


def test_a_clean_question_passes_lint() -> None:
    assert (
        problems("Which is larger by default, max_wal_size or min_wal_size?", "max_wal_size") != []
    )  # answer in question
    assert (
        problems(
            "Which default is larger, the WAL segment limit or the checkpoint timeout in seconds?", "the WAL limit"
        )
        == []
    )


@pytest.mark.parametrize(
    ("question", "answer", "kwargs", "fragment"),
    [
        ("", "x", {}, "question is empty"),
        ("Which is it?", "", {}, "answer is empty"),
        (" ".join(["word"] * 41) + "?", "x", {}, "41 words"),
        ("Which setting does x?", " ".join(["long"] * 21), {}, "answer has 21 words"),
        ("According to the text, which setting wakes the launcher?", "naptime", {}, "refers to the context"),
        ("In the provided context, which view shows locks?", "pg_locks", {}, "refers to the context"),
        ("It controls what in PostgreSQL?", "vacuum", {}, "starts with the pronoun 'it'"),
        ("Is checkpoint_timeout longer than 1 minute by default?", "yes", {"binary": True}, "exactly Yes or No"),
        ("Which parameter sets the naptime of autovacuum?", "autovacuum", {}, "contains its own answer"),
        (
            "What default has the setting that WAL writer uses?",
            "200ms",
            {"question_type": "composition"},
            "hidden bridge entity 'WAL'",
        ),
    ],
)
def test_each_lint_check(question: str, answer: str, kwargs: dict, fragment: str) -> None:
    found = problems(question, answer, **kwargs)
    assert any(fragment in problem for problem in found), found


def test_binary_answers_may_appear_in_the_question() -> None:
    assert problems("Is the answer Yes when WAL is on?", "Yes", binary=True) == []


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
