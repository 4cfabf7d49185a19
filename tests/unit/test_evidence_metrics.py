"""Evaluation by evidence on hand-computed cases: characters covered in one document text, whatever the chunking;
chunk ids where no document place is known; quotes found by text where neither is; facts found by rank."""

from __future__ import annotations

import math

import pytest

from graph.evaluation.scoring.evidence import fact_metrics, merged, score_evidence
from state.evidence import Evidence, folded, locate

DOCUMENT = "".join(f"{n:03d}" for n in range(34))[:100]  # guide.md: 100 characters, no 10 of them twice


def fact(start: int, end: int, chunk_id: str = "s1", chunk_start: int = 0, **more: object) -> Evidence:
    return Evidence.model_validate(
        {
            "quote": DOCUMENT[start:end],
            "location": {"chunk_id": chunk_id, "chunk_start": chunk_start, "chunk_end": chunk_start + end - start,
                         "source": "guide.md", "document_start": start, "document_end": end},
            **more,
        }
    )  # fmt: skip


def chunk(start: int, end: int, chunk_id: str = "x") -> dict[str, object]:
    return {"id": chunk_id, "text": DOCUMENT[start:end], "source": "guide.md", "start_index": start}


def test_covered_characters_of_one_document_give_recall_precision_and_iou() -> None:
    # evidence [10, 30) and [50, 60): 30 characters; retrieved [0, 20) and [55, 75): 40 characters; covered 10 + 5
    scored = score_evidence([fact(10, 30), fact(50, 60)], [chunk(0, 20, "n1"), chunk(55, 75, "n2")])
    assert scored.metrics["evidence_recall"] == pytest.approx(15 / 30)
    assert scored.metrics["evidence_precision"] == pytest.approx(15 / 40)
    assert scored.metrics["evidence_iou"] == pytest.approx(15 / (40 + 30 - 15))
    assert scored.metrics["all_evidence_found"] is False and scored.metrics["hit@k"] is False
    assert scored.unplaced == 0


def test_overlapping_retrieved_chunks_are_merged_before_counting() -> None:
    scored = score_evidence([fact(10, 20)], [chunk(0, 30, "a"), chunk(20, 40, "b"), chunk(0, 30, "a")])
    # retrieved [0, 40): 40 characters, not 30 + 20 + 30
    assert scored.metrics["evidence_precision"] == pytest.approx(10 / 40)
    assert scored.metrics["evidence_recall"] == 1.0 and scored.metrics["mrr"] == 1.0


def test_a_fact_with_two_locations_counts_once_at_the_one_covered_best() -> None:
    other = {"chunk_id": "o", "chunk_start": 0, "chunk_end": 10, "source": "guide.md", "document_start": 70,
             "document_end": 80}  # fmt: skip
    twice = fact(10, 20, also_in=[other])
    scored = score_evidence([twice], [chunk(65, 85)])
    assert scored.metrics["evidence_recall"] == 1.0 and scored.metrics["evidence_precision"] == pytest.approx(10 / 20)
    assert scored.metrics["all_evidence_found"] is True


def test_facts_found_by_rank_give_hit_mrr_and_ndcg() -> None:
    facts = [fact(10, 20), fact(50, 60)]
    contexts = [chunk(80, 90, "a"), chunk(50, 60, "b"), chunk(5, 15, "c"), chunk(10, 20, "d")]
    scored = score_evidence(facts, contexts)
    # fact 2 is found at rank 2, fact 1 at rank 4 (rank 3 covers only half of it)
    assert scored.metrics["mrr"] == pytest.approx(1 / 2)
    assert scored.metrics["ndcg@k"] == pytest.approx((1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3)))
    assert scored.metrics["all_evidence_found"] is True and scored.metrics["hit@k"] is True
    assert fact_metrics([None, None], 5) == {"all_evidence_found": False, "hit@k": False, "mrr": 0.0, "ndcg@k": 0.0}


def test_without_a_document_place_chunks_match_by_id_and_quotes_are_found_by_text() -> None:
    quoted = Evidence.model_validate(
        {"quote": "the launcher sleeps", "location": {"chunk_id": "s1", "chunk_start": 4, "chunk_end": 23}}
    )
    same_chunk = {"id": "s1", "text": "Yes, the launcher sleeps a minute."}
    elsewhere = {"id": "z9", "text": "In short: the  launcher sleeps."}  # another collection: the quote is in it
    unrelated = {"text": "Nothing about it."}
    assert score_evidence([quoted], [same_chunk]).metrics["evidence_recall"] == 1.0
    by_text = score_evidence([quoted], [unrelated, elsewhere])
    assert by_text.metrics["evidence_recall"] == 1.0 and by_text.metrics["mrr"] == pytest.approx(1 / 2)
    assert by_text.unplaced == 1  # the unrelated text covers nothing and counts as retrieved characters
    # counted where it stands in the retrieved text: "the  launcher sleeps", 20 characters with its double space
    retrieved = len(unrelated["text"]) + len(elsewhere["text"])
    assert by_text.metrics["evidence_precision"] == pytest.approx(20 / retrieved)
    assert by_text.found_by_text == [[], [0]]


def test_a_context_without_offsets_is_placed_by_finding_its_text_in_its_document() -> None:
    loose = {"text": DOCUMENT[40:70], "source": "guide.md"}
    placed = score_evidence([fact(50, 60)], [loose], documents={"guide.md": DOCUMENT})
    assert placed.metrics["evidence_recall"] == 1.0 and placed.metrics["evidence_precision"] == pytest.approx(1 / 3)


def test_spans_merge_and_quotes_fold_white_space_and_quote_marks() -> None:
    assert merged([("d", 5, 9), ("d", 0, 5), ("d", 20, 22), ("e", 1, 2)]) == {"d": [(0, 9), (20, 22)], "e": [(1, 2)]}
    assert folded("  «\u00a0x\u00a0»  y  ") == '"x"y' and locate("a “b”", 'a "b" c') == (0, 5)


def test_a_fact_of_a_chunk_without_a_document_place_is_placed_by_its_quote_where_the_document_is_at_hand() -> None:
    ready_cut = Evidence.model_validate(
        {
            "quote": DOCUMENT[30:45],
            "location": {"chunk_id": "s1", "chunk_start": 3, "chunk_end": 18, "source": "docs/guide.md"},
        }  # fmt: skip
    )
    retrieved = [{"id": "other", "text": DOCUMENT[25:50], "source": "guide.md"}]
    placed = score_evidence([ready_cut], retrieved, documents={"guide": DOCUMENT}, by_offsets=False)
    assert placed.metrics["evidence_recall"] == 1.0 and placed.metrics["evidence_precision"] == pytest.approx(15 / 25)
    unplaced = score_evidence([ready_cut], [{"id": "other", "text": "nothing of it"}])
    assert unplaced.metrics["evidence_recall"] == 0.0 and unplaced.unplaced == 1


def test_facts_found_together_and_quoted_twice_stay_within_bounds() -> None:
    # one context finds both facts at rank 1: as good as two contexts finding one each
    assert fact_metrics([1, 1], 5)["ndcg@k"] == pytest.approx(1.0)
    assert fact_metrics([2, 2], 5)["ndcg@k"] == pytest.approx(1 / math.log2(3))
    assert fact_metrics([1, None], 5)["ndcg@k"] == pytest.approx(1 / (1 + 1 / math.log2(3)))
    # two supporting chunks quoting the same sentence, retrieved from another collection: counted once there
    same = "The sky is blue."
    first = Evidence.model_validate({"quote": same, "location": {"chunk_id": "a", "chunk_start": 0, "chunk_end": 16}})
    second = Evidence.model_validate({"quote": same, "location": {"chunk_id": "b", "chunk_start": 0, "chunk_end": 16}})
    longer = Evidence.model_validate(
        {"quote": same + " Grass is green.", "location": {"chunk_id": "c", "chunk_start": 0, "chunk_end": 32}}
    )
    scored = score_evidence([first, second, longer], [{"id": None, "text": same + " Grass is green."}])
    assert scored.metrics["evidence_precision"] == pytest.approx(1.0) and scored.metrics["evidence_recall"] == 1.0
    assert scored.metrics["evidence_iou"] == pytest.approx(1.0) and scored.metrics["ndcg@k"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("quote", "text"),
    [
        ("Le café est fermé.", "Le cafe\u0301 est ferme\u0301."),  # composed against decomposed accents
        ("a cross-reference to it", "a cross-\nreference to it"),  # a word split over two lines
        ("wait... then", "wait… then"),
        ("pages 2-3 only", "pages 2–3 only"),
        ("the file system", "the ﬁle system"),
        ("a hyphenated word", "a hy\u00adphen\u00adated word"),
        ('it\'s "on"', "it’s «\u00a0on\u00a0»"),
    ],
)
def test_a_quote_that_differs_only_in_how_its_characters_are_written_is_found(quote: str, text: str) -> None:
    found = locate(quote, text)
    assert found is not None and folded(text[found[0] : found[1]]) == folded(quote)


def test_a_quote_with_other_words_is_not_found() -> None:
    assert locate("Le café est ouvert.", "Le cafe\u0301 est ferme\u0301.") is None
    assert locate("a cross reference", "a cross-\nreference") is None
