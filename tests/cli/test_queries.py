"""`graph.run --queries FILE --unanswerable-share S` as a user runs it, then `graph.evaluate` and `graph.export`.

A hand-built collection (four manual pages, a document of short notes, a chunk without a source) and
eight real queries, four about the manual and four about baking: seeds come only from the chunks the
queries retrieve, generated unanswerable questions are evaluated beside answerable ones, the coverage
section counts what the test counts by hand, and a canary query never reaches an output.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings

from graph.ingestion.chunking import ChunkRecord, stable_id
from graph.ingestion.writer import ingest_chunks
from graph.store.corpus import Corpus
from state.record import DatasetRecord
from tests.support.commands import assert_one_line_error, run_cli, state_connection
from tests.support.stubs.rag import serve_rag

SCRIPTED = "offline:plausible"
CANARY = "CANARY-5e1f0c"
MANUAL_QUERIES = [
    "how often does the autovacuum launcher wake up",
    "what lock does VACUUM FULL take on a table",
    "how do I keep tables from bloating between vacuums",
    f"{CANARY} what makes autovacuum start vacuuming a table",
]
BAKING_QUERIES = [
    "best chocolate cake recipe without eggs",
    "how long to bake a sponge cake at 180 degrees",
    "buttercream frosting for a birthday cake",
    "can I freeze a baked cheesecake",
]
QUERIES = MANUAL_QUERIES + BAKING_QUERIES
COLLECTION = "queried_slice"
SHORT_NOTES = "notes/short.md"
K = 5
MIN_SEED_CHARS = 200


def sha16(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.fixture(scope="module")
def collection(pg_url: str, demo_slice_chunks: list[ChunkRecord]) -> list[ChunkRecord]:
    """The demo slice, three short notes of a document of their own, and a chunk with no source."""
    extra = [
        ChunkRecord(stable_id("note", str(i)), f"Note {i}: vacuum often.", {"source": SHORT_NOTES}) for i in range(3)
    ]
    extra.append(ChunkRecord(stable_id("loose"), "A loose remark about write-ahead logging, with no source.", {}))
    chunks = [*demo_slice_chunks, *extra]
    ingest_chunks(pg_url, COLLECTION, chunks, "minilm")
    return chunks


def retrieved(pg_url: str, model: Embeddings) -> list[list[tuple[str, float, int]]]:
    """Per query, its top K chunks as the collection's own search returns them: (id, distance, length)."""

    async def search() -> list[list[tuple[str, float, int]]]:
        async with await Corpus.open(pg_url, COLLECTION, embeddings=model) as corpus:
            return [[(h.chunk.id, h.distance, len(h.chunk.text)) for h in await corpus.search(q, K)] for q in QUERIES]

    return asyncio.run(search())


@pytest.fixture(scope="module")
def queried_run(pg_url: str, collection: list[ChunkRecord], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A run seeded from the queries, a third of it generated unanswerable questions, every request recorded."""
    folder = tmp_path_factory.mktemp("queried")
    queries = folder / "queries.txt"
    queries.write_text("\n".join(QUERIES) + "\n")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(folder / "runs")}
    result = run_cli(
        "graph.run", "--collection", COLLECTION, "--count", "6", "--seed", "5", "--llm", SCRIPTED,
        "--queries", str(queries), "--unanswerable-share", "0.34", "--dedup-threshold", "0",
        "--record-llm", str(folder / "requests.jsonl"), "--run-id", "queried", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    run = folder / "runs" / "queried"
    records = [DatasetRecord.model_validate_json(line) for line in (run / "dataset.jsonl").read_text().splitlines()]
    return {"folder": folder, "run": run, "env": env, "records": records, "outputs": [result.stdout, result.stderr]}


def test_seeds_are_drawn_only_from_chunks_the_queries_retrieved(queried_run, collection, pg_url: str, minilm) -> None:  # noqa: ANN001
    hits = retrieved(pg_url, minilm)
    seedable = {chunk for found in hits for chunk, _, length in found if length >= MIN_SEED_CHARS}
    with state_connection(pg_url) as conn:
        seeds = {row[0] for row in conn.execute("SELECT chunk_id FROM triad_seeds WHERE run_id = 'queried'")}
    assert seeds and seeds <= seedable
    long_enough = {chunk.id for chunk in collection if len(chunk.text) >= MIN_SEED_CHARS}
    assert len(long_enough - seedable) >= 5  # the queries leave chunks a uniform draw could have taken
    records = queried_run["records"]
    generated = [r for r in records if not r.answerable]
    assert len(generated) == 2 and len(records) - len(generated) >= 3
    for record in generated:
        seed = record.retrieval_check.seed_id
        assert seed in seeds
        nearest = min(
            (distance, index) for index, found in enumerate(hits) for chunk, distance, _ in found if chunk == seed
        )
        assert record.seed_query == sha16(QUERIES[nearest[1]])  # the nearest query that retrieved the seed
    assert {r.seed_query for r in records} <= {sha16(q) for q in QUERIES}


def test_generated_unanswerable_records_were_checked_against_the_retrievers_top_k(queried_run, pg_url, minilm) -> None:  # noqa: ANN001
    async def top(question: str) -> list[str]:
        async with await Corpus.open(pg_url, COLLECTION, embeddings=minilm) as corpus:
            return [hit.chunk.id for hit in await corpus.search(question, K)]

    for record in (r for r in queried_run["records"] if not r.answerable):
        assert record.expected == "abstain" and record.question_type == "unanswerable"
        assert record.retrieval_check.k == K and record.retrieval_check.chunk_ids == asyncio.run(top(record.question))
    summary = json.loads((queried_run["run"] / "run.json").read_text())
    assert summary["quotas"]["unanswerable"] == 2 and summary["funnel"]["cells"]["unanswerable"]["accepted"] == 2


def test_coverage_counts_what_the_collection_and_the_records_hold(queried_run, collection) -> None:  # noqa: ANN001
    coverage = json.loads((queried_run["run"] / "run.json").read_text())["coverage"]
    chunks_per_source: dict[str, int] = {}
    for chunk in collection:
        if "source" in chunk.metadata:
            chunks_per_source[chunk.metadata["source"]] = chunks_per_source.get(chunk.metadata["source"], 0) + 1
    used = {c.metadata["source"] for r in queried_run["records"] for c in r.supporting}
    documents = coverage["documents"]
    assert (documents["documents"], documents["chunks_without_source"]) == (5, 1)
    assert documents["covered"] == len(used) and SHORT_NOTES not in used  # notes are too short to seed or support
    assert documents["share"] == len(used) / 5
    uncovered = sorted((s for s in chunks_per_source if s not in used), key=lambda s: (-chunks_per_source[s], s))
    assert documents["largest_uncovered"] == [{"source": s, "chunks": chunks_per_source[s]} for s in uncovered]
    queries = coverage["queries"]
    assert (queries["queries"], queries["clusters"]) == (8, 2)  # k from the count: round(sqrt(8 / 2))
    # The two topics are the two clusters; no question is about cakes (how near the scripted questions come to
    # the manual's queries is the unit tests' subject: tests/unit/test_coverage.py).
    uncovered = {c["typical_query"]: c["queries"] for c in queries["largest_uncovered"]}
    assert queries["covered"] + len(uncovered) == 2 and queries["share"] == queries["covered"] / 2
    (baking,) = [typical for typical in uncovered if typical in {sha16(q) for q in BAKING_QUERIES}]
    assert uncovered[baking] == 4
    report = (queried_run["run"] / "report.html").read_text()
    assert 'id="coverage"' in report and f"{documents['covered']} of 5 documents" in report
    assert "coverage: " in queried_run["outputs"][1]


@pytest.fixture(scope="module")
def service() -> Iterator[str]:
    """A RAG service that never abstains."""
    with serve_rag(lambda _: {"answer": "It is 42.", "contexts": [{"id": "x", "text": "forty-two"}]}) as url:
        yield url


@pytest.fixture(scope="module")
def evaluated(queried_run, service: str) -> dict[str, Any]:  # noqa: ANN001
    """The run's dataset evaluated with the built-in setup and with a service that never abstains."""
    judges = ("--validator-model", SCRIPTED, "--extractor-model", SCRIPTED)
    setups = ("--setup", f"base=k=5,model={SCRIPTED}", "--setup", f"always=url={service}",
              "--setup", f"wide=k=8,model={SCRIPTED}")  # fmt: skip
    result = run_cli("graph.evaluate", "queried", *setups, *judges, env=queried_run["env"])
    assert result.returncode == 0, result.stderr
    queried_run["outputs"] += [result.stdout, result.stderr]
    return json.loads((queried_run["run"] / "eval-summary.json").read_text())


def test_setups_are_scored_on_answerable_and_generated_unanswerable_questions_side_by_side(
    evaluated, queried_run
) -> None:  # noqa: ANN001
    base, always = evaluated["base"], evaluated["always"]
    assert base["all"]["abstained_generated"] == 1.0  # the built-in setup declines: nothing it retrieves answers
    assert always["all"]["abstained_generated"] == 0.0  # a service that always answers is caught
    assert set(base["answerable"]) == {"False", "True"}
    assert base["answerable"]["False"]["n"] == 2 and base["answerable"]["False"]["precision"] is None
    assert (
        base["answerable"]["True"]["abstained_generated"] is None and base["answerable"]["True"]["recall"] is not None
    )
    rows = [json.loads(line) for line in (queried_run["run"] / "eval.jsonl").read_text().splitlines()]
    generated = {r.id for r in queried_run["records"] if not r.answerable}
    for row in rows:
        if row["sample_id"] in generated and row["setup"] == "base":
            assert len(row["retrieved_ids"]) == K and row["correct"] is None  # its own retriever, no forced contexts
            assert "rechecked_ids" not in row  # the question was checked against exactly these chunks
        if row["sample_id"] in generated and row["setup"] == "wide":
            # Three more chunks than the check read: judged too before the answer counts.
            assert len(row["rechecked_ids"]) == 8 - K and row["abstained_generated"] is True
    assert "abstained_generated" in (queried_run["run"] / "eval-report.html").read_text()


@pytest.fixture(scope="module")
def exported(queried_run) -> Path:  # noqa: ANN001
    """The run exported as ragas (both splits), csv and hotpotqa (the unanswerable split); its export folder."""
    for args in (("--format", "ragas"), ("--format", "ragas", "--split", "unanswerable"), ("--format", "csv",
                 "--split", "unanswerable"), ("--format", "hotpotqa", "--split", "unanswerable")):  # fmt: skip
        result = run_cli("graph.export", "queried", *args, env=queried_run["env"])
        assert result.returncode == 0, result.stderr
        queried_run["outputs"] += [result.stdout, result.stderr]
    return queried_run["run"] / "export"


def test_exports_keep_generated_unanswerable_questions_apart(queried_run, exported: Path) -> None:  # noqa: ANN001
    run = queried_run["run"]
    answerable = [json.loads(line) for line in (run / "export" / "ragas.jsonl").read_text().splitlines()]
    assert all(row["reference"] != "abstain" for row in answerable)
    split = [json.loads(line) for line in (run / "export" / "ragas-unanswerable.jsonl").read_text().splitlines()]
    generated = {r.id: r for r in queried_run["records"] if not r.answerable}
    rows = {row["id"]: row for row in split if row["variant"] == "generated"}
    assert set(rows) == set(generated)
    for sample, row in rows.items():
        assert row["retrieved_contexts"] == [] and row["expected"] == "abstain"
        assert row["checked_context_ids"] == generated[sample].retrieval_check.chunk_ids
    assert any(row["variant"] == "simulated" for row in split)
    hotpot = json.loads((run / "export" / "hotpotqa-unanswerable.json").read_text())
    assert {item["type"] for item in hotpot if item["_id"] in generated} == {"unanswerable"}


def test_no_query_text_reaches_any_output_without_keep_queries(queried_run, evaluated, exported, pg_url: str) -> None:  # noqa: ANN001
    written = [path for path in queried_run["folder"].rglob("*") if path.is_file() and path.name != "queries.txt"]
    assert {p.name for p in written} >= {"dataset.jsonl", "rejected.jsonl", "run.json", "report.html", "eval.jsonl",
                                          "requests.jsonl", "ragas-unanswerable.jsonl"}  # fmt: skip
    for path in written:
        assert CANARY.encode() not in path.read_bytes(), path
        assert not any(query.encode() in path.read_bytes() for query in QUERIES), path  # not sent to any model either
    assert not any(CANARY in output for output in queried_run["outputs"])
    with state_connection(pg_url) as conn:
        for table in ("checkpoint_blobs", "checkpoint_writes", "triad_samples", "triad_runs", "triad_llm_cache"):
            if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() == (None,):
                continue
            hits = conn.execute(f"SELECT count(*) FROM {table} WHERE strpos({table}::text, %s) > 0", (CANARY,))
            assert hits.fetchone() == (0,), table
        blobs = conn.execute(
            "SELECT count(*) FROM checkpoint_blobs WHERE position(convert_to(%s, 'UTF8') IN blob) > 0", (CANARY,)
        )
        assert blobs.fetchone() == (0,)


def test_keep_queries_and_role_from_queries_show_and_send_the_queries(pg_url, collection, tmp_path: Path) -> None:  # noqa: ANN001
    queries = tmp_path / "queries.jsonl"
    lines = [json.dumps({"query": q, "role": "a database administrator"}) for q in MANUAL_QUERIES]
    queries.write_text("\n".join(lines) + "\n")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    result = run_cli(
        "graph.run", "--collection", COLLECTION, "--count", "2", "--seed", "2", "--llm", SCRIPTED,
        "--queries", str(queries), "--unanswerable-share", "0.5", "--keep-queries", "--role-from-queries",
        "--dedup-threshold", "0", "--record-llm", str(tmp_path / "requests.jsonl"), "--run-id", "kept", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in (tmp_path / "runs" / "kept" / "dataset.jsonl").read_text().splitlines()]
    assert records and all(r["seed_query"] in MANUAL_QUERIES for r in records)
    assert all(r["role"] == "a database administrator" for r in records)
    requests = (tmp_path / "requests.jsonl").read_text()
    for record in records:  # the generator saw the record's own query as its style example
        assert json.dumps(record["seed_query"])[1:-1] in requests
    coverage = json.loads((tmp_path / "runs" / "kept" / "run.json").read_text())["coverage"]["queries"]
    assert all(c["typical_query"] in MANUAL_QUERIES for c in coverage["largest_uncovered"])


@pytest.mark.parametrize(
    ("content", "extra", "fragments"),
    [
        (None, (), ("query file", "not found", "--queries")),
        ("\n  \n", (), ("holds no query",)),
        ('{"query": "fine"}\n{"text": "no query key"}\n', (), ("line 2", '"query"')),
    ],
)
def test_a_bad_query_file_is_one_line(pg_url, tmp_path: Path, content, extra, fragments) -> None:  # noqa: ANN001
    queries = tmp_path / ("queries.jsonl" if content and content.startswith("{") else "queries.txt")
    if content is not None:
        queries.write_text(content)
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    result = run_cli("graph.run", "--collection", "demo_slice", "--llm", SCRIPTED, "--queries", str(queries), env=env)
    assert_one_line_error(result, *fragments)
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [
        (("--role-from-queries",), "--queries FILE"),
        (("--unanswerable-share", "1.5"), "--unanswerable-share"),
        (("--retrieval-k", "0"), "--retrieval-k"),
    ],
)
def test_query_flags_without_sense_are_one_line(pg_url, tmp_path: Path, flags, fragment: str) -> None:  # noqa: ANN001
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    assert_one_line_error(
        run_cli("graph.run", "--collection", "demo_slice", "--llm", SCRIPTED, *flags, env=env), fragment
    )


def test_a_continued_run_refuses_a_changed_query_file(pg_url, collection, tmp_path: Path) -> None:  # noqa: ANN001
    queries = tmp_path / "queries.txt"
    queries.write_text("\n".join(MANUAL_QUERIES) + "\n")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    common = ("--collection", COLLECTION, "--llm", SCRIPTED, "--dedup-threshold", "0")
    first = run_cli("graph.run", *common, "--count", "1", "--queries", str(queries), "--run-id", "changing", env=env)
    assert first.returncode == 0, first.stderr
    ignored = run_cli("graph.run", "--resume", "changing", "--keep-queries", "--llm", SCRIPTED, env=env)
    assert_one_line_error(ignored, "keeps the options it began with")
    queries.write_text("a different query\n")
    again = run_cli("graph.run", "--resume", "changing", "--llm", SCRIPTED, env=env)
    assert_one_line_error(again, "not the query file run changing began with", "--queries")
    moved = tmp_path / "moved.txt"
    moved.write_text("\n".join(MANUAL_QUERIES) + "\n")
    resumed = run_cli("graph.run", "--resume", "changing", "--llm", SCRIPTED, "--queries", str(moved), env=env)
    assert resumed.returncode == 0, resumed.stderr


def test_a_rejected_unanswerable_sample_of_a_query_seeded_run_is_replayed(pg_url, collection, tmp_path: Path) -> None:  # noqa: ANN001
    queries = tmp_path / "queries.txt"
    queries.write_text("\n".join(MANUAL_QUERIES) + "\n")
    env = {"TRIAD_DATABASE_URL": pg_url, "TRIAD_RUNS_DIR": str(tmp_path / "runs")}
    rejecting = "import:tests.support.scripts:unanswerable_rejected_model"
    result = run_cli(
        "graph.run", "--collection", COLLECTION, "--count", "1", "--unanswerable-share", "1", "--llm", rejecting,
        "--queries", str(queries), "--max-revisions", "0", "--run-id", "ureplay", env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "shortfall: unanswerable 1" in result.stderr and "by the unanswerable judge 3" in result.stdout
    listing = run_cli("graph.replay", "ureplay", "--list", env=env)
    assert listing.returncode == 0 and "unanswerable" in listing.stdout, listing.stderr
    replay = run_cli("graph.replay", "ureplay", "--sample", "0", "--llm", SCRIPTED, env=env)
    assert replay.returncode == 0, replay.stderr
    assert "sample 0: rejected -> accepted" in replay.stdout
    (record,) = [
        json.loads(line) for line in (tmp_path / "runs" / "ureplay" / "dataset.jsonl").read_text().splitlines()
    ]
    assert record["answerable"] is False and record["provenance"]["replayed_from"].startswith("ureplay/0@")
    assert record["seed_query"] in {sha16(q) for q in MANUAL_QUERIES}  # the replay linked it to its query again
