"""What `graph.check` costs as the collection grows: a dataset of 40 records checked against tables of
10k, 100k and 1M rows.

    python scripts/bench_check.py                  # 10k, 100k and 1M rows in a temporary embedded server
    python scripts/bench_check.py --rows 10000 100000

Synthetic PGVectorStore tables (a document per 10 chunks) are filled inside PostgreSQL; 40 records use
12 chunks each, of which one is edited and one deleted before the check. Printed per table: seconds
for the records' chunks (looked up by id, plus the one pass for the texts of gone ids), seconds for the
one pass that counts the collection and lists its documents, and the total.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

from graph.living import drift
from graph.store.corpus import Corpus
from graph.store.embedded import embedded_url, stop_embedded
from state.record import DatasetRecord

RECORDS, CHUNKS_PER_RECORD = 40, 12


def create_table(url: str, name: str, rows: int) -> None:
    table = sql.Identifier(name)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(table))
        conn.execute(
            sql.SQL(
                "CREATE TABLE {} (langchain_id UUID PRIMARY KEY, content TEXT NOT NULL,"
                " embedding vector(4) NOT NULL, langchain_metadata JSON)"
            ).format(table)
        )
        conn.execute(
            sql.SQL(
                "INSERT INTO {} SELECT md5(g::text)::uuid, 'synthetic chunk ' || g || repeat(' text', 60),"
                " '[1,0,0,0]'::vector, json_build_object('source', 'doc-' || (g / 10))"
                " FROM generate_series(1, %s) AS g"
            ).format(table),
            (rows,),
        )
        conn.execute(sql.SQL("ANALYZE {}").format(table))


def records_of(url: str, name: str, rows: int, rng: random.Random) -> list[DatasetRecord]:
    """40 records of 12 chunks each, as the run read them; then one chunk edited and one deleted in the store."""
    numbers = rng.sample(range(1, rows + 1), RECORDS * CHUNKS_PER_RECORD)
    table = sql.Identifier(name)
    with psycopg.connect(url, autocommit=True) as conn:
        found = conn.execute(
            sql.SQL("SELECT langchain_id::text, content FROM {} WHERE langchain_id = ANY(%s::uuid[])").format(table),
            ([_uuid(n) for n in numbers],),
        ).fetchall()
        texts = dict(found)
        chunk_ids = [_uuid(n) for n in numbers]
        conn.execute(sql.SQL("UPDATE {} SET content = content || ' edited' WHERE langchain_id = %s").format(table),
                     (chunk_ids[0],))  # fmt: skip
        conn.execute(sql.SQL("DELETE FROM {} WHERE langchain_id = %s").format(table), (chunk_ids[1],))
    records = []
    for index in range(RECORDS):
        ids = chunk_ids[index * CHUNKS_PER_RECORD : (index + 1) * CHUNKS_PER_RECORD]
        contexts = [
            {"id": i, "text": texts[i], "relevant": at < 2, "origin": "supporting" if at < 2 else "distractor"}
            for at, i in enumerate(ids)
        ]
        records.append(DatasetRecord.model_validate({
            "id": f"r{index}", "question": "Q?", "answer": "A", "question_type": "comparison", "binary": False,
            "temporal": False, "role": "a user", "bridge_topic": "t", "hops": 2, "difficulty": "hard",
            "supporting": [{"id": i, "text": texts[i]} for i in ids[:2]], "contexts": contexts, "n_relevant": 2,
            "unanswerable": None, "validation": {"revisions": 0, "verdicts": []},
            "provenance": {"run_id": "bench", "thread_id": f"bench/{index}", "models": {}, "prompt_version": "1",
                           "created_at": "2026-01-01T00:00:00+00:00"},
        }))  # fmt: skip
    return records


def _uuid(number: int) -> str:
    import hashlib
    import uuid

    return str(uuid.UUID(hashlib.md5(str(number).encode()).hexdigest()))


async def no_judge(record: DatasetRecord, chunks: list, quotes: list) -> tuple[bool, str]:
    """The records carry no evidence: the check follows no fact and asks no judge."""
    raise AssertionError("a record without evidence was followed by its facts")


async def timed_check(url: str, name: str, records: list[DatasetRecord]) -> tuple[float, float, dict]:
    corpus = await Corpus.open(url, name)
    try:
        started = time.perf_counter()
        sources_at = 0.0
        original = corpus.reader.sources

        async def timed_sources():  # the one pass over the collection, timed on its own
            nonlocal sources_at
            begun = time.perf_counter()
            result = await original()
            sources_at += time.perf_counter() - begun
            return result

        corpus.reader.sources = timed_sources  # type: ignore[method-assign]
        report = await drift.check_records(records, corpus, known_sources=None, judge=no_judge)
        total = time.perf_counter() - started
        return total - sources_at, sources_at, report
    finally:
        await corpus.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--database-url", help="a server to use instead of a temporary embedded one")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="triad-bench-check-"))
    folder.chmod(0o755)
    url = args.database_url or embedded_url(folder / "pg")
    rng = random.Random(7)
    print(f"{'rows':>10}{'records s':>11}{'one pass s':>12}{'total s':>9}  stale")
    try:
        for rows in args.rows:
            name = f"bench_check_{rows}"
            create_table(url, name, rows)
            records = records_of(url, name, rows, rng)
            by_records, one_pass, report = asyncio.run(timed_check(url, name, records))
            stale = report["summary"]["stale"]
            print(f"{rows:>10}{by_records:>11.3f}{one_pass:>12.3f}{by_records + one_pass:>9.3f}  {stale}")
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute(sql.SQL("DROP TABLE {}").format(sql.Identifier(name)))
    finally:
        if not args.database_url:
            stop_embedded(folder / "pg")


if __name__ == "__main__":
    main()
