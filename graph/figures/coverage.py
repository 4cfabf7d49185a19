"""How much of the collection, and of real users' topics, a run's questions cover (run.json and report.html).

Documents: the share of the collection's documents (its chunks' `source` metadata) that supplied a
supporting chunk to an accepted question. Queries (with `--queries`): the queries' embeddings fall
into k-means clusters, k chosen from their count; a cluster is covered when an accepted answerable
question's embedding lies nearer its centroid than nine in ten of the cluster's queries do (or than
the median query lies to its own centroid, when that reaches further: a cluster of one query reaches
nowhere). Clusters only generated unanswerable questions are near are counted apart. The largest uncovered
clusters are named by their most typical query (the one nearest the centroid), as a hash unless the
run keeps query texts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from graph.folder.run_document import Coverage, DocumentCoverage, QueryCoverage, UncoveredCluster, UncoveredDocument

#: Uncovered clusters the report names.
UNCOVERED_SHOWN = 5
#: A cluster's reach: the cosine to its centre that this percentile of its queries exceed.
REACH_PERCENTILE = 10
#: Rounds of k-means after a k-means++ start, and starts tried.
KMEANS_ROUNDS, KMEANS_STARTS = 50, 10


def document_coverage(sources: Mapping[str | None, int], used: set[str]) -> DocumentCoverage:
    """Which share of the collection's documents supplied a supporting chunk: `sources` is chunks per document."""
    documents = {source: count for source, count in sources.items() if source is not None}
    covered = sorted(source for source in documents if source in used)
    uncovered = sorted((s for s in documents if s not in used), key=lambda s: (-documents[s], s))
    return {
        "documents": len(documents),
        "covered": len(covered),
        "share": len(covered) / len(documents) if documents else None,
        "chunks_without_source": sources.get(None, 0),
        "largest_uncovered": [UncoveredDocument(source=s, chunks=documents[s]) for s in uncovered[:UNCOVERED_SHOWN]],
    }


def cluster_count(n: int) -> int:
    """k for n queries: about the square root of n/2 (Mardia's rule of thumb), 1 to 50, never above n."""
    return max(1, min(n, 50, round(math.sqrt(n / 2))))


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def kmeans(vectors: np.ndarray, k: int, random_seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(centroids, assignment) of spherical k-means (cosine): the best of `KMEANS_STARTS` k-means++ starts
    (one start can settle in a poor split); the same for the same `random_seed`."""
    rng = np.random.default_rng(random_seed)
    points = unit_rows(vectors.astype(np.float64))
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for _ in range(KMEANS_STARTS):
        centres, assignment = _kmeans_once(points, k, rng)
        spread = float(np.sum(1 - np.sum(points * centres[assignment], axis=1)))
        if best is None or spread < best[0] - 1e-9:
            best = (spread, centres, assignment)
    assert best is not None
    return best[1], best[2]


def _kmeans_once(points: np.ndarray, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    centroids = [points[rng.integers(len(points))]]
    while len(centroids) < k:
        distance = np.min(1 - points @ np.asarray(centroids).T, axis=1).clip(min=0)
        total = distance.sum()
        pick = rng.choice(len(points), p=distance / total) if total > 0 else rng.integers(len(points))
        centroids.append(points[pick])
    centres = np.asarray(centroids)
    assignment = np.full(len(points), -1)
    for _ in range(KMEANS_ROUNDS):
        nearest = np.argmax(points @ centres.T, axis=1)
        if np.array_equal(nearest, assignment):
            break
        assignment = nearest
        for cluster in range(k):
            members = points[assignment == cluster]
            if len(members):
                centres[cluster] = unit_rows(members.sum(axis=0, keepdims=True))[0]
    return centres, assignment


def query_coverage(
    query_vectors: np.ndarray,
    answerable: np.ndarray,
    unanswerable: np.ndarray,
    names: Sequence[str],
    random_seed: int = 0,
) -> QueryCoverage:
    """Clusters of the queries, and which of them have an accepted question near them.

    A cluster is covered when an answerable question is near it; one that only generated unanswerable
    questions are near is counted apart (its topic may be missing from the collection). `names` says
    how each query is shown (hash or text).
    """
    k = cluster_count(len(query_vectors))
    centres, assignment = kmeans(query_vectors, k, random_seed)
    queries = unit_rows(query_vectors.astype(np.float64))
    similarity = queries @ centres.T
    # A cluster of one query would reach no further than that query: it gets at least the typical reach.
    typical_reach = float(np.median(similarity[np.arange(len(queries)), assignment]))
    clusters: list[QueryCluster] = []
    for cluster in range(k):
        members = np.flatnonzero(assignment == cluster)
        if not len(members):
            continue
        # Nine in ten of its queries lie within its reach: one outlying query does not widen it.
        reach = min(float(np.percentile(similarity[members, cluster], REACH_PERCENTILE)), typical_reach)
        typical = int(members[np.argmax(similarity[members, cluster])])
        clusters.append(
            QueryCluster(
                queries=len(members),
                questions_near=_near(answerable, centres[cluster], reach),
                unanswerable_near=_near(unanswerable, centres[cluster], reach),
                typical_query=names[typical],
            )
        )
    uncovered = sorted((c for c in clusters if not c["questions_near"]), key=lambda c: -c["queries"])
    covered = len(clusters) - len(uncovered)
    return {
        "queries": len(query_vectors),
        "clusters": len(clusters),
        "covered": covered,
        "share": covered / len(clusters) if clusters else None,
        "only_unanswerable_near": sum(1 for c in uncovered if c["unanswerable_near"]),
        "largest_uncovered": [
            UncoveredCluster(
                queries=c["queries"], unanswerable_near=c["unanswerable_near"], typical_query=c["typical_query"]
            )
            for c in uncovered[:UNCOVERED_SHOWN]
        ],
    }


class QueryCluster(UncoveredCluster):
    """A cluster of the run's real queries: its queries, the questions near it, its typical query."""

    questions_near: int


def _near(questions: np.ndarray, centre: np.ndarray, reach: float) -> int:
    """How many of the questions lie within `reach` (a cosine) of a cluster's centre."""
    if not len(questions):
        return 0
    return int(np.sum(unit_rows(questions.astype(np.float64)) @ centre >= reach))


def coverage_lines(coverage: Coverage) -> list[str]:
    """The coverage as the end of a run tells it."""
    lines = []
    documents = coverage.get("documents")
    if documents and documents["share"] is not None:
        lines.append(
            f"coverage: {documents['covered']} of {documents['documents']} documents ({documents['share']:.0%}) "
            "supplied a supporting chunk"
        )
    for weight_class in coverage.get("by_weight") or []:
        lines.append(
            f"coverage: weight {weight_class['weight']:g}: {weight_class['covered']} of {weight_class['documents']} "
            f"documents ({weight_class['share']:.0%})"
        )
    queries = coverage.get("queries")
    if queries and queries["share"] is not None:
        lines.append(
            f"coverage: {queries['covered']} of {queries['clusters']} clusters of {queries['queries']} queries "
            f"({queries['share']:.0%}) have an answerable question near them"
        )
    return lines
