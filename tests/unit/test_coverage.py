"""Coverage arithmetic on hand-made data: documents by source, and query clusters near a question."""

from __future__ import annotations

import numpy as np

from graph.figures.coverage import cluster_count, document_coverage, kmeans, query_coverage
from graph.planning.cells import cell_quotas


def test_documents_are_counted_by_source_and_the_largest_uncovered_named() -> None:
    sources = {"a.html": 5, "b.html": 2, "c.html": 9, "d.html": 2, None: 3}
    coverage = document_coverage(sources, {"b.html", "zzz-not-in-the-collection"})
    assert (coverage["documents"], coverage["covered"], coverage["chunks_without_source"]) == (4, 1, 3)
    assert coverage["share"] == 0.25
    assert coverage["largest_uncovered"] == [
        {"source": "c.html", "chunks": 9},
        {"source": "a.html", "chunks": 5},
        {"source": "d.html", "chunks": 2},
    ]
    assert document_coverage({None: 4}, set())["share"] is None


def test_k_grows_with_the_square_root_of_the_query_count() -> None:
    assert [cluster_count(n) for n in (1, 2, 8, 50, 200, 10**6)] == [1, 1, 2, 5, 10, 50]


def test_kmeans_separates_two_groups_the_same_way_for_the_same_seed() -> None:
    rng = np.random.default_rng(1)
    east = np.array([1.0, 0.0, 0.0]) + rng.normal(0, 0.05, (6, 3))
    north = np.array([0.0, 1.0, 0.0]) + rng.normal(0, 0.05, (4, 3))
    _, assignment = kmeans(np.vstack([east, north]), 2, random_seed=3)
    assert len(set(assignment[:6])) == 1 and len(set(assignment[6:])) == 1 and assignment[0] != assignment[6]
    again = kmeans(np.vstack([east, north]), 2, random_seed=3)[1]
    assert (assignment == again).all()


def test_a_cluster_is_covered_only_with_a_question_inside_its_reach() -> None:
    queries = np.array(
        [[1, 0.05, 0], [1, -0.05, 0], [1, 0, 0.05], [1, 0, -0.05], [0, 1, 0.1], [0, 1, -0.1], [0.05, 1, 0], [0, 1, 0]],
        dtype=np.float32,
    )  # fmt: skip
    names = [f"q{i}" for i in range(len(queries))]
    none = np.zeros((0, 3), dtype=np.float32)
    near_east, near_north = np.array([[1, 0.01, 0]], dtype=np.float32), np.array([[0.01, 1, 0]], dtype=np.float32)
    coverage = query_coverage(queries, near_east, none, names, random_seed=0)
    assert (coverage["queries"], coverage["clusters"], coverage["covered"], coverage["share"]) == (8, 2, 1, 0.5)
    (uncovered,) = coverage["largest_uncovered"]
    assert uncovered["queries"] == 4 and uncovered["typical_query"] in {"q4", "q5", "q6", "q7"}
    assert coverage["only_unanswerable_near"] == 0
    # An unanswerable question near the other group does not cover it: it is counted apart.
    apart = query_coverage(queries, near_east, near_north, names, random_seed=0)
    assert (apart["covered"], apart["only_unanswerable_near"]) == (1, 1)
    assert apart["largest_uncovered"][0]["unanswerable_near"] == 1
    # A question between the two groups is inside neither's reach.
    between = np.array([[1, 1, 0]], dtype=np.float32)
    assert query_coverage(queries, between, none, names, random_seed=0)["covered"] == 0
    assert query_coverage(queries, none, none, names)["covered"] == 0


def test_the_unanswerable_share_takes_its_cell_first() -> None:
    cells = cell_quotas(10, ("comparison", "composition"), (False,), unanswerable_share=0.2)
    assert [(c.question_type, c.quota, c.cap) for c in cells] == [
        ("unanswerable", 2, 6),
        ("comparison", 4, 12),
        ("composition", 4, 12),
    ]
    assert cell_quotas(3, ("comparison",), (False,), unanswerable_share=0.05)[0].quota == 1  # above 0: at least one
    assert [c.question_type for c in cell_quotas(2, ("comparison",), (False,), unanswerable_share=1)] == [
        "unanswerable"
    ]
    assert all(c.question_type != "unanswerable" for c in cell_quotas(6, ("comparison",), (False, True)))
