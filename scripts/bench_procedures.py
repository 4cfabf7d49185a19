"""Procedures found, and what finding them in PostgreSQL costs.

    python scripts/bench_procedures.py              # the demo corpus, and its table repeated to 100,000 rows
    python scripts/bench_procedures.py --html DIR   # also a folder of HTML pages, read as graph.ingest reads them

Prints the demo corpus' chunks holding a procedure by form (numbered, bulleted, sequence in prose); with
--html, the same for the folder's chunks. Then, on a temporary embedded server, the time of the query that
lists a collection's procedural chunks (run once per run, for collections sampled from their id list) beside
the same query without the patterns, and the time of the start-of-run question "does any chunk hold a
procedure?" on a table too large to list, which reads a page sample of about 20,000 rows whatever the size.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg import sql

from graph.demo import load_demo_chunks
from graph.ingestion.chunking import chunk_document
from graph.ingestion.web import read_html
from graph.ingestion.writer import DEFAULT_CHUNK_OVERLAP, DEFAULT_CHUNK_SIZE
from graph.store.embedded import embedded_url, stop_embedded
from graph.store.usable import PROCEDURE_PROBE_ROWS, procedural_condition
from state.procedure import procedure_form

REPEATS = 5
LARGE_ROWS = 100_000


def forms(texts: list[str]) -> str:
    counted = collections.Counter(procedure_form(text) for text in texts)
    found = sum(count for form, count in counted.items() if form)
    parts = ", ".join(f"{form} {counted[form]}" for form in ("numbered", "bulleted", "sequence"))
    return f"{found} of {len(texts)} chunks hold a procedure ({parts})"


def html_chunks(folder: Path) -> list[str]:
    texts: list[str] = []
    for page in sorted(folder.glob("*.html")):
        document = read_html(page)
        texts += [
            chunk.text for chunk in chunk_document(document, page.name, DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_OVERLAP)
        ]
    return texts


def fill(url: str, name: str, texts: list[str], rows: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE TABLE {} (id serial PRIMARY KEY, content text)").format(sql.Identifier(name)))
        with conn.cursor().copy(sql.SQL("COPY {} (content) FROM STDIN").format(sql.Identifier(name))) as copy:
            for index in range(rows):
                copy.write_row((texts[index % len(texts)],))
        conn.execute(sql.SQL("ANALYZE {}").format(sql.Identifier(name)))


def timed(url: str, query: sql.Composable, params: tuple[object, ...] = ()) -> float:
    with psycopg.connect(url) as conn:
        seconds = []
        for _ in range(REPEATS):
            started = time.perf_counter()
            conn.execute(query, params).fetchall()
            seconds.append(time.perf_counter() - started)
    return statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, help="a folder of HTML pages to count procedures in")
    args = parser.parse_args()
    texts = [chunk.text for chunk in load_demo_chunks()]
    print(f"demo corpus: {forms(texts)}")
    if args.html:
        print(f"{args.html}: {forms(html_chunks(args.html))}")
    with tempfile.TemporaryDirectory(prefix="triad-bench-") as folder:
        Path(folder).chmod(0o755)
        pg_dir = Path(folder) / "pg"
        url = embedded_url(pg_dir)
        try:
            for rows in (len(texts), LARGE_ROWS):
                fill(url, "procedures", texts, rows)
                ids = sql.SQL("SELECT id FROM procedures WHERE length(content) >= 200 AND {}")
                plain = timed(url, ids.format(sql.SQL("true")))
                patterns = timed(url, ids.format(procedural_condition(sql.Identifier("content"))))
                print(
                    f"{rows:>7,} rows: ids of the usable chunks {plain * 1000:.1f} ms, of those holding a procedure "
                    f"{patterns * 1000:.1f} ms ({patterns / plain:.1f}x), {patterns / rows * 1e6:.1f} µs a row"
                )
            # The start-of-run question on a table too large to list: at worst (no procedure anywhere) the whole
            # page sample is read.
            fill(url, "procedures", [text for text in texts if procedure_form(text) is None], LARGE_ROWS)
            probe = sql.SQL(
                "SELECT 1 FROM procedures TABLESAMPLE SYSTEM (%s) WHERE length(content) >= 200 AND {} LIMIT 1"
            ).format(procedural_condition(sql.Identifier("content")))
            seconds = timed(url, probe, (100.0 * PROCEDURE_PROBE_ROWS / LARGE_ROWS,))
            print(
                f"{LARGE_ROWS:,} rows without a procedure: the start-of-run question (a sample of about "
                f"{PROCEDURE_PROBE_ROWS:,} rows) {seconds * 1000:.1f} ms"
            )
        finally:
            stop_embedded(pg_dir)


if __name__ == "__main__":
    main()
