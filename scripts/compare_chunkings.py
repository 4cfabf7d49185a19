"""Two chunkings of one manual, compared by evidence: six pages of the PostgreSQL manual (the demo corpus written
back as Markdown) ingested at 1600 characters a chunk (overlap 160) and at 700 (no overlap), a scripted run on
the first, and a retrieval-only evaluation of both, in a temporary embedded server.

    python scripts/compare_chunkings.py               # the table of docs/evaluation.md
    python scripts/compare_chunkings.py --count 12

Printed: the evaluation's table (the chunk-id recall only where the setup reads the run's own collection).
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import repo_root  # noqa: F401  (tests.support on the path)

from graph import evaluate, ingest, run
from graph.store.embedded import embedded_url, stop_embedded
from tests.support.documents import manual_pages

PAGES = (
    "routine-vacuuming",
    "runtime-config-wal",
    "runtime-config-resource",
    "continuous-archiving",
    "warm-standby",
    "runtime-config-replication",
)
SCRIPTED = "offline:plausible"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=6, help="samples the run makes (default 6)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.chmod(home, 0o755)  # the server's own user must reach its data folder
        pg_dir = Path(home) / "pg"
        try:
            url = embedded_url(pg_dir)
            docs, runs = manual_pages(Path(home) / "docs", PAGES), str(Path(home) / "runs")
            for collection, size, overlap in (("chunks_1600", "1600", "160"), ("chunks_700", "700", "0")):
                ingest.main([str(docs), "--collection", collection, "--chunk-size", size, "--chunk-overlap", overlap,
                             "--database-url", url])  # fmt: skip
            store = ["--database-url", url, "--runs-dir", runs]
            run.main(["--collection", "chunks_1600", "--count", str(args.count), "--seed", "3", "--llm", SCRIPTED,
                      "--dedup-threshold", "0", "--run-id", "manual", "--state-url", url, *store])  # fmt: skip
            evaluate.main(["manual", "--retrieval-only", *store,
                           "--setup", "big=collection=chunks_1600,k=5", "--setup", "small=collection=chunks_700,k=6",
                           "--setup", "small_k11=collection=chunks_700,k=11"])  # fmt: skip
        finally:
            stop_embedded(pg_dir)


if __name__ == "__main__":
    main()
