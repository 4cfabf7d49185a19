"""Memory and time of a run's end: the run's files rewritten from the state database, the report's rows read.

    python scripts/bench_files.py                    # 1,000 and 4,000 finished samples
    python scripts/bench_files.py --sizes 500 8000   # other run sizes
    python scripts/bench_files.py --database-url postgresql://...

Fills a fresh state database (created for the benchmark, dropped after it) with finished samples shaped
like a real run's: three in four accepted, each record a valid dataset record with ten contexts of
3,000 characters (some 38 kB as a line), each rejection and summary with its drafts, verdicts and
model calls. Then, for
each size, side by side in one process:

    triad      what the end of a run does: the finished rows without records (`Ledger.finished`),
               both JSONL files rewritten from records streamed in batches, three example records
    all whole  every finished row read with its record and rejection, then both files written

and prints the peak of Python's allocations (tracemalloc) and the wall time of each. Both grow with
the run: the first by its samples' summaries (what the funnel and report count: drafts, verdicts,
model calls), the second by their records too.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool
from scratch_database import scratch_database

from graph.config.settings import resolve_settings
from graph.figures.report import REPORT_EXAMPLES
from graph.folder.files import RunFolder, write_jsonl
from graph.ledger.ledger import Ledger
from graph.store.database import database_url
from state.record import DatasetRecord

CONTEXTS = 10
CONTEXT_CHARS = 3000


#: Words to cut texts from: generating each text afresh would take longer than the benchmark.
WORDS = " ".join(
    "".join(random.Random(i).choice("abcdefghijklmnopqrstuvwxyz") for _ in range(2 + i % 9)) for i in range(20_000)
)


def text(rng: random.Random, chars: int) -> str:
    start = rng.randrange(len(WORDS) - chars)
    return WORDS[start : start + chars]


def sample_row(run_id: str, n: int, rng: random.Random) -> tuple[Any, ...]:
    accepted = rng.random() < 0.75
    drafts = [{"question": text(rng, 120), "answer": text(rng, 20), "revision": r} for r in range(2)]
    verdicts = [{"judge": "quality", "accepted": accepted, "reason": text(rng, 200), "revision": 0}]
    calls = [
        {"role": "extractor", "input_tokens": 1500, "output_tokens": 12, "cost_usd": 0.0002, "node": "extract"}
        for _ in range(22)
    ]
    summary = {"question_type": "comparison", "binary": False, "outcome": "accepted" if accepted else "rejected"}
    summary |= {"end_reason": "accepted", "drafts": drafts, "revisions": 0, "verdicts": verdicts, "llm_calls": calls}
    record = rejection = None
    if accepted:
        contexts = [
            {"id": f"chunk-{n}-{i}", "text": text(rng, CONTEXT_CHARS), "relevant": i < 3, "origin": "distractor"}
            for i in range(CONTEXTS)
        ]
        record = DatasetRecord(
            id=f"{run_id}/{n}",
            question=drafts[-1]["question"],
            answer=drafts[-1]["answer"],
            question_type="comparison",
            binary=False,
            temporal=False,
            role="a user",
            bridge_topic=text(rng, 20),
            hops=2,
            supporting=[{"id": c["id"], "text": c["text"]} for c in contexts[:2]],
            contexts=contexts,
            n_relevant=3,
            difficulty=rng.choice(["easy", "medium", "hard"]),
            unanswerable=None,
            validation={"revisions": 0, "verdicts": verdicts},
            provenance={"run_id": run_id, "thread_id": f"{run_id}/{n}", "models": {}, "prompt_version": "1",
                        "created_at": "2026-01-01T00:00:00Z"},
        ).model_dump(mode="json")  # fmt: skip
    else:
        rejection = {"id": f"{run_id}/{n}", "outcome": "rejected", "drafts": drafts, "verdicts": verdicts}
    return (
        run_id,
        n,
        "comparison",
        False,
        "done",
        summary["outcome"],
        Jsonb(record) if record else None,
        Jsonb(rejection) if rejection else None,
        Jsonb(summary),
    )


async def fill(pool: AsyncConnectionPool, store: Ledger, run_id: str, size: int) -> None:
    await store.run(run_id).create({})
    rng = random.Random(size)
    async with pool.connection() as conn, conn.cursor() as cursor:
        for start in range(0, size, 200):
            await cursor.executemany(
                "INSERT INTO triad_samples (run_id, n, question_type, is_binary, status, outcome, record, rejection,"
                " summary) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                [sample_row(run_id, n, rng) for n in range(start, min(start + 200, size))],
            )


async def streamed(store: Ledger, run_id: str, out: RunFolder) -> None:
    """What the end of a run does."""
    slots = [row["n"] for row in await store.finished(run_id)]
    await out.rebuild(store.run(run_id).file_lines(slots))
    await store.run(run_id).accepted_records(slots, REPORT_EXAMPLES)


async def whole(store: Ledger, run_id: str, out: RunFolder) -> None:
    """Every finished row read with its record and rejection, then both files written."""
    async with store.pool.connection() as conn:
        cursor = conn.cursor(row_factory=dict_row)
        await cursor.execute(
            "SELECT n, outcome, record, rejection, summary FROM triad_samples WHERE run_id = %s AND status = 'done'"
            " ORDER BY n",
            (run_id,),
        )
        rows = await cursor.fetchall()
    write_jsonl(out.dataset, (row["record"] for row in rows if row["record"]))
    write_jsonl(out.rejected, (row["rejection"] for row in rows if not row["record"] and row["rejection"]))


async def peak(work: Awaitable[None]) -> tuple[float, float]:
    """Peak MiB of Python allocations and seconds taken by `work`."""
    tracemalloc.start()
    started = time.perf_counter()
    await work
    seconds = time.perf_counter() - started
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top / 2**20, seconds


async def main_async(url: str, sizes: list[int], folder: Path) -> None:
    async with AsyncConnectionPool(url, min_size=1, max_size=2, kwargs={"autocommit": True}) as pool:
        store = Ledger(pool)
        await store.setup()
        print("samples  file MB     triad: peak MiB, s     all whole: peak MiB, s   (best of two, alternating)")
        for size in sizes:
            run_id = f"bench-{size}"
            await fill(pool, store, run_id, size)
            out = RunFolder(folder / run_id)
            figures: dict[str, list[tuple[float, float]]] = {"triad": [], "whole": []}
            for _ in range(2):
                figures["triad"].append(await peak(streamed(store, run_id, out)))
                figures["whole"].append(await peak(whole(store, run_id, out)))
            megabytes = (out.dataset.stat().st_size + out.rejected.stat().st_size) / 1e6
            cells = [
                f"{min(m for m, _ in figures[name]):>8.1f} {min(t for _, t in figures[name]):>6.2f}"
                for name in ("triad", "whole")
            ]
            print(f"{size:>7} {megabytes:>8.0f}   {cells[0]:>18}   {cells[1]:>22}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 4000], help="finished samples per run")
    parser.add_argument("--database-url", help="the server to create the benchmark's database on (default: embedded)")
    args = parser.parse_args()
    url = args.database_url or database_url(resolve_settings({}))
    with (
        tempfile.TemporaryDirectory(prefix="triad-bench-files-") as folder,
        scratch_database(url, "triad_bench_files") as state_database_url,
    ):
        asyncio.run(main_async(state_database_url, args.sizes, Path(folder)))


if __name__ == "__main__":
    main()
