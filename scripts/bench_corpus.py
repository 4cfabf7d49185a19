"""Latency of the corpus operations the pipeline uses most: seed sampling and neighbour queries.

    python scripts/bench_corpus.py                 # 10k and 100k rows
    python scripts/bench_corpus.py --full          # also 1M rows (needs several GB and a long index build)
    python scripts/bench_corpus.py --database-url postgresql://...   # another server instead of a temporary one

Synthetic PGVectorStore tables of 384-d vectors are filled inside PostgreSQL, then each operation
runs through the real `Corpus` class, with and without the HNSW index, and (up to 20,000 rows) with
the vectors held in memory, which is how such a collection is searched. Target: p95 neighbour query
<= 25 ms at 100k rows with HNSW.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

from graph.ingestion.writer import index_name
from graph.store.corpus import Corpus
from graph.store.embedded import embedded_url, stop_embedded
from graph.store.search import EXACT_SEARCH_LIMIT

DIMENSION = 384
QUERIES = 200


def create_table(url: str, name: str, rows: int) -> float:
    """A PGVectorStore-layout table of random vectors; returns seconds taken."""
    started = time.perf_counter()
    table = sql.Identifier(name)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))
        conn.execute(
            sql.SQL(
                "CREATE TABLE {} (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,"
                " embedding vector({}) NOT NULL, langchain_metadata JSON)"
            ).format(table, sql.Literal(DIMENSION))
        )
        conn.execute(
            sql.SQL(
                "INSERT INTO {} SELECT gen_random_uuid(), 'synthetic chunk ' || g || repeat(' text', 60),"
                " (SELECT array_agg(random() - 0.5) FROM generate_series(1, {}) WHERE g > 0)::vector, '{{}}'::json"
                " FROM generate_series(1, %s) AS g"
            ).format(table, sql.Literal(DIMENSION)),
            (rows,),
        )
        conn.execute(sql.SQL("ANALYZE {}").format(table))
    return time.perf_counter() - started


def build_hnsw(url: str, name: str) -> float:
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '2GB'")
        conn.execute("SET max_parallel_maintenance_workers = 2")
        conn.execute(
            sql.SQL("CREATE INDEX {} ON {} USING hnsw (embedding vector_cosine_ops)").format(
                sql.Identifier(index_name(name)), sql.Identifier(name)
            )
        )
    return time.perf_counter() - started


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered) * 1000
    p95 = ordered[int(0.95 * (len(ordered) - 1))] * 1000
    return f"p50 {p50:7.2f} ms   p95 {p95:7.2f} ms"


async def measure(url: str, name: str, *, in_memory: bool = False) -> tuple[list[float], list[float]]:
    """Seconds per seed draw (without replacement) and per top-5 neighbour query.

    In SQL (the HNSW index whenever there is one), or `in_memory`: the exact search a collection of
    up to EXACT_SEARCH_LIMIT rows gets, its vectors loaded once (that load is not counted).
    """
    rng = random.Random(0)
    sampling, neighbours = [], []
    async with await Corpus.open(url, name) as corpus:
        if in_memory:
            assert await corpus.vector_index() is not None
        else:
            corpus.sql_search.exact_search_limit = 0  # measure the index whenever there is one
        used: list[str] = []
        for _ in range(QUERIES):
            started = time.perf_counter()
            (seed,) = await corpus.sample_ids(1, exclude=used, rng=rng)
            sampling.append(time.perf_counter() - started)
            used.append(seed)
        for seed in used:
            started = time.perf_counter()
            hits = await corpus.neighbours(seed, 5)
            neighbours.append(time.perf_counter() - started)
            assert len(hits) == 5 and seed not in {hit.chunk.id for hit in hits}
    return sampling, neighbours


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", action="store_true", help="also 1M rows")
    parser.add_argument("--database-url", help="use this server instead of a temporary embedded one")
    args = parser.parse_args()
    sizes = [10_000, 100_000] + ([1_000_000] if args.full else [])
    with tempfile.TemporaryDirectory(prefix="triad-bench-") as folder:
        pg_dir = Path(folder) / "pg"
        url = args.database_url or embedded_url(pg_dir)
        try:
            print(f"{QUERIES} queries per figure, {DIMENSION}-d vectors, top-5 neighbours\n")
            for rows in sizes:
                name = f"bench_{rows}"
                print(f"{rows:>9,} rows  (filled in {create_table(url, name, rows):.1f} s)")
                sampling, neighbours = asyncio.run(measure(url, name))
                print(f"  seed sampling           {percentiles(sampling)}")
                print(f"  neighbours, no index    {percentiles(neighbours)}")
                if rows <= EXACT_SEARCH_LIMIT:
                    _, in_memory = asyncio.run(measure(url, name, in_memory=True))
                    print(f"  neighbours, in memory   {percentiles(in_memory)}")
                print(f"  HNSW index built in {build_hnsw(url, name):.1f} s")
                _, indexed = asyncio.run(measure(url, name))
                print(f"  neighbours, HNSW        {percentiles(indexed)}")
                ratio = statistics.median(neighbours) / statistics.median(indexed)
                print(f"  HNSW speed-up (p50)     {ratio:.1f}x\n")
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(name)))
        finally:
            if not args.database_url:
                stop_embedded(pg_dir)


if __name__ == "__main__":
    main()
