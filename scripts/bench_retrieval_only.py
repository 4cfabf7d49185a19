"""What a retrieval-only evaluation (`graph.evaluate --retrieval-only`) costs: seconds per 100 records, with a
retriever in this process and with triad's own search of the embedded store at k=8.

    taskset -c 0 python scripts/bench_retrieval_only.py            # one core, as the targets are stated
    taskset -c 0 python scripts/bench_retrieval_only.py --records 300

The demo corpus is loaded into a temporary embedded server; each record asks for one chunk's heading and has
that chunk as its supporting context. Printed per setup: seconds for the first pass (the embedding model
loaded on first use, where there is one) and for a second pass, per 100 records.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from graph.config.settings import resolve_settings
from graph.demo import DEMO_COLLECTION, load_demo_chunks
from graph.evaluation.answering.pipelines import load_pipeline
from graph.evaluation.scoring.records import evaluate_setup
from graph.evaluation.setups import parse_setup
from graph.store.embedded import embedded_url, stop_embedded
from state.record import DatasetRecord

#: The demo chunks as the in-process retriever reads them: id, text, the words of its opening.
_INDEX: list[tuple[str, str, frozenset[str]]] = []


def word_overlap_retriever(question: str) -> list[dict[str, Any]]:
    """An in-process retriever: the 8 demo chunks whose opening shares most words with the question."""
    words = set(question.casefold().split())
    ranked = heapq.nlargest(8, _INDEX, key=lambda item: len(words & item[2]))
    return [{"id": chunk_id, "page_content": text} for chunk_id, text, _ in ranked]


def records_from(rows: list[tuple[str, str]], count: int) -> list[DatasetRecord]:
    records = []
    for n, (chunk_id, text) in enumerate(rows[:count], start=1):
        heading = text.split("\n", 1)[0][:80]
        records.append(
            DatasetRecord.model_validate(
                {
                    "id": f"bench/{n}", "question": f"What does the section {heading!r} say?", "answer": heading,
                    "question_type": "factual", "binary": False, "temporal": False, "role": "a reader",
                    "bridge_topic": "", "hops": 1, "supporting": [{"id": chunk_id, "text": text, "metadata": {}}],
                    "contexts": [{"id": chunk_id, "text": text, "relevant": True, "origin": "supporting"}],
                    "n_relevant": 1, "difficulty": "hard", "unanswerable": None,
                    "validation": {"revisions": 0, "verdicts": []},
                    "provenance": {"run_id": "bench", "thread_id": f"bench/{n}", "models": {}, "prompt_version": "1",
                                   "created_at": "2026-01-01T00:00:00+00:00"},
                }
            )
        )  # fmt: skip
    return records


def per_100(seconds: float, count: int) -> float:
    return seconds * 100 / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=200, help="records evaluated per pass (default 200)")
    args = parser.parse_args()
    rows = [(chunk.id, chunk.text) for chunk in load_demo_chunks() if len(chunk.text) >= 200]
    _INDEX.extend((chunk_id, text, frozenset(text.casefold().split()[:40])) for chunk_id, text in rows)
    records = records_from(rows, args.records)
    print(f"cores this process may use: {len(os.sched_getaffinity(0))}; records per pass: {len(records)}")
    with tempfile.TemporaryDirectory() as home:
        pg_dir = Path(home) / "pg"
        os.chmod(home, 0o755)  # the server's own user must reach its data folder
        try:
            url = embedded_url(pg_dir)
            settings = resolve_settings({"database_url": url, "collection": DEMO_COLLECTION, "embedding": "minilm"})
            setups = {
                "in-process retriever": parse_setup(
                    "mine=retriever=import:__main__:word_overlap_retriever", DEMO_COLLECTION, "minilm"
                ),
                "embedded store, k=8": parse_setup("store=k=8", DEMO_COLLECTION, "minilm"),
            }
            print(f"{'setup':<24} {'first s/100':>11} {'second s/100':>12} {'target':>7}")
            for (name, setup), target in zip(setups.items(), (2.0, 5.0), strict=True):
                pipeline = load_pipeline(setup) if setup.imported else None
                passes = []
                for _ in range(2):
                    started = time.perf_counter()
                    scored = asyncio.run(evaluate_setup(setup, records, settings, False, pipeline, retrieval_only=True))
                    passes.append(per_100(time.perf_counter() - started, len(records)))
                    assert len(scored) == len(records)
                print(f"{name:<24} {passes[0]:>11.2f} {passes[1]:>12.2f} {target:>7.1f}")
        finally:
            stop_embedded(pg_dir)


if __name__ == "__main__":
    main()
