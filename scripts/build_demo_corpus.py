"""Build the demo corpus from the PostgreSQL 15 manual (Debian package `postgresql-doc-15`).

    apt-get install postgresql-doc-15
    python scripts/build_demo_corpus.py            # writes graph/demo/pg15_manual.jsonl.gz and its vectors
    python scripts/build_demo_corpus.py --vectors-only   # the vectors of the chunks file as it is

The chosen chapters share many entities (configuration parameters, vacuum and autovacuum, WAL and
replication, indexes, roles and privileges, MVCC and locking), which is what multi-hop questions
need. Chunks are cut to roughly 300-800 tokens; the script prints their count and size figures.
The chunks' all-MiniLM-L6-v2 vectors go beside them (`pg15_manual.minilm.npy`), made in the batches
`python -m graph.ingest` embeds in, so loading the demo embeds nothing and gives the same vectors.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import sys
from pathlib import Path

import numpy as np
from langchain_text_splitters import RecursiveCharacterTextSplitter

from graph.demo import DEMO_EMBEDDING, DEMO_VECTORS, load_demo_chunks
from graph.ingestion.chunking import stable_id
from graph.ingestion.web import plain_html_text
from graph.ingestion.writer import BATCH_SIZE
from graph.store.embeddings import load_embeddings

MANUAL_DIR = Path("/usr/share/doc/postgresql-doc-15/html")
OUTPUT = Path(__file__).resolve().parent.parent / "graph" / "demo" / "pg15_manual.jsonl.gz"

#: File-name patterns of the chosen chapters.
CHAPTERS = [
    r"runtime-config.*",
    r"routine-vacuuming",
    r"sql-(vacuum|analyze|createindex|reindex|createrole|alterrole|grant|revoke|createpublication|createsubscription|altersystem|checkpoint|lock|cluster)",
    r"sql-(createtable|altertable|truncate|copy|explain|set-transaction|prepare-transaction|alterpublication|altersubscription|createpolicy|alterdefaultprivileges)",
    r"wal-.*",
    r"(warm-standby|warm-standby-failover|hot-standby|high-availability|different-replication-solutions)",
    r"logical-replication.*",
    r"indexes.*",
    r"(user-manag|role-.*|ddl-priv|predefined-roles|database-roles)",
    r"(mvcc.*|transaction-iso|explicit-locking|applevel-consistency|locking-indexes)",
    r"(continuous-archiving|backup.*|app-pgbasebackup|app-pgdump)",
    r"(monitoring-stats|progress-reporting|wal-configuration)",
    r"(client-authentication|auth-pg-hba-conf|auth-methods|auth-password)",
    r"(monitoring.*|view-pg-(stat.*|replication.*|settings|locks|roles|user|prepared-xacts)|pgstatstatements)",
    r"(storage.*|disk.*|kernel-resources|populate|using-explain|planner.*|performance-tips)",
    r"(ddl-(partitioning|constraints|basics|alter|schemas|rowsecurity|depend|inherit)|functions-admin)",
    r"(btree.*|gin.*|gist.*|brin.*|hash-.*|spgist.*)",
    r"app-(pgbasebackup|pgdump|pgrestore|pgupgrade|pgrewind|pg-ctl|pgreceivewal|pgresetwal|vacuumdb|reindexdb)",
]

#: Characters per chunk, at about 4 characters a token: chunks of 1,000-2,800 characters (250-700 tokens).
CHUNK_CHARS = 1800
OVERLAP_CHARS = 150
MIN_CHARS = 1000


def chosen_pages(manual: Path) -> list[Path]:
    pattern = re.compile(r"^(" + "|".join(CHAPTERS) + r")\.html$")
    return sorted(p for p in manual.glob("*.html") if pattern.match(p.name))


def page_title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    return " ".join(match.group(1).split()) if match else ""


def page_chunks(page: Path) -> list[dict[str, object]]:
    html = page.read_text(encoding="utf-8")
    text = plain_html_text(html)
    splitter = RecursiveCharacterTextSplitter(chunk_size=CHUNK_CHARS, chunk_overlap=OVERLAP_CHARS, add_start_index=True)
    pieces = [(int(d.metadata["start_index"]), d.page_content) for d in splitter.create_documents([text])]
    merged: list[tuple[int, str]] = []
    for start, piece in pieces:
        # A short tail is joined to the chunk before it, so no chunk is too thin to carry a fact.
        if merged and len(piece) < MIN_CHARS and len(merged[-1][1]) + len(piece) <= CHUNK_CHARS + MIN_CHARS:
            merged[-1] = (merged[-1][0], merged[-1][1] + "\n\n" + piece)
        else:
            merged.append((start, piece))
    source = f"postgresql-15/{page.name}"
    title = page_title(html)
    return [
        {
            "id": stable_id("demo", source, str(start)),
            "text": piece,
            "metadata": {"source": source, "title": title, "start_index": start, "chunk_index": index},
        }
        for index, (start, piece) in enumerate(merged)
        if len(piece) >= 200
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--manual", type=Path, default=MANUAL_DIR, help="folder of the manual's HTML pages")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--vectors-only", action="store_true", help="only embed the chunks file as it is")
    args = parser.parse_args()
    if args.vectors_only:
        write_vectors()
        return
    if not args.manual.is_dir():
        sys.exit(f"error: {args.manual} not found; run `apt-get install postgresql-doc-15` first")
    pages = chosen_pages(args.manual)
    chunks = [chunk for page in pages for chunk in page_chunks(page)]
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(args.output, "wb", mtime=0) as raw:
        for chunk in chunks:
            raw.write((json.dumps(chunk, ensure_ascii=False, sort_keys=True) + "\n").encode())
    sizes = [len(str(c["text"])) / 4 for c in chunks]
    print(f"{len(pages)} pages -> {len(chunks)} chunks -> {args.output}")
    print(
        f"approx. tokens per chunk (chars/4): min {min(sizes):.0f}, median {statistics.median(sizes):.0f}, "
        f"p95 {sorted(sizes)[int(0.95 * len(sizes))]:.0f}, max {max(sizes):.0f}"
    )
    write_vectors()


def write_vectors() -> None:
    """The demo chunks' vectors, one float32 row per chunk in file order, embedded as ingestion batches them."""
    chunks = load_demo_chunks()
    unique = list({chunk.id: chunk for chunk in chunks}.values())
    model = load_embeddings(DEMO_EMBEDDING)
    made: dict[str, list[float]] = {}
    for start in range(0, len(unique), BATCH_SIZE):
        texts = [chunk.text for chunk in unique[start : start + BATCH_SIZE]]
        made.update(zip(texts, model.embed_documents(texts), strict=True))
    rows = np.asarray([made[chunk.text] for chunk in chunks], dtype=np.float32)
    np.save(DEMO_VECTORS, rows)
    print(f"{rows.shape[0]} vectors of {rows.shape[1]} dimensions -> {DEMO_VECTORS}")


if __name__ == "__main__":
    main()
