"""Turning files into chunks: the HTML tag cleaner, splitting, stable ids, JSONL chunks."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from graph.config.errors import UserError
from graph.demo import DEMO_FILE, load_demo_chunks
from graph.ingestion.documents import Unreadable
from graph.ingestion.loaders import load_chunks, read_jsonl_chunks
from graph.ingestion.web import plain_html_blocks, plain_html_text


def test_html_text_drops_navigation_and_keeps_paragraphs() -> None:
    html = (
        "<html><head><style>p{}</style></head><body><div class='navheader'>Prev Next</div>"
        "<h2>Vacuum</h2><p>VACUUM reclaims\n   storage.</p><script>x()</script><p>Second</p></body></html>"
    )
    assert plain_html_text(html) == "Vacuum\n\nVACUUM reclaims storage.\n\nSecond"
    nested = "<body><h2><div>Routine <b>Vacuuming</b></div></h2>Text after it<h3 class='x'>Autovacuum</h3></body>"
    assert plain_html_blocks(nested) == [(2, "Routine Vacuuming"), (0, "Text after it"), (3, "Autovacuum")]


def test_splitting_keeps_source_position_and_gives_stable_ids(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.md").write_text(("The checkpointer writes dirty pages. " * 60).strip())
    (tmp_path / "b.txt").write_text("Short note about WAL archiving.")
    (tmp_path / "ignored.csv").write_text("a,b")
    first = load_chunks(tmp_path, chunk_size=400, chunk_overlap=40).chunks
    again = load_chunks(tmp_path, chunk_size=400, chunk_overlap=40).chunks
    assert [c.id for c in first] == [c.id for c in again]
    assert {c.metadata["source"] for c in first} == {"b.txt", "sub/a.md"}
    md_chunks = [c for c in first if c.metadata["source"] == "sub/a.md"]
    assert len(md_chunks) > 3
    assert [c.metadata["chunk_index"] for c in md_chunks] == list(range(len(md_chunks)))
    assert md_chunks[1].metadata["start_index"] > 0
    assert all(len(c.text) <= 400 for c in first)
    assert all(uuid.UUID(c.id) for c in first)


def test_jsonl_rows_are_chunks_with_their_ids_kept(tmp_path: Path) -> None:
    given = str(uuid.uuid4())
    path = tmp_path / "chunks.jsonl"
    path.write_text(
        f'{{"id": "{given}", "text": "alpha", "metadata": {{"k": 1}}}}\n\n'
        '{"id": "doc-7", "text": "beta"}\n{"text": "gamma"}\n{"text": "   "}\n'
    )
    chunks = read_jsonl_chunks(path)
    assert [c.text for c in chunks] == ["alpha", "beta", "gamma"]
    assert chunks[0].id == given and chunks[0].metadata["k"] == 1
    assert chunks[1].metadata["source_id"] == "doc-7" and uuid.UUID(chunks[1].id)


def test_bad_inputs_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="does not exist"):
        load_chunks(tmp_path / "nope", 100, 10)
    (tmp_path / "notes.csv").write_text("a,b")
    with pytest.raises(UserError, match="no .txt, .md, .html, .pdf, .docx or .jsonl files under"):
        load_chunks(tmp_path, 100, 10)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "ok"}\n{"id": 1}\n')
    with pytest.raises(Unreadable, match="line 2"):
        read_jsonl_chunks(bad)
    skipped = load_chunks(bad, 100, 10).skipped[0].skipped
    assert skipped == 'has a line 2 that is not a JSON object with a "text" field; fix it'
    with pytest.raises(UserError, match="must be smaller"):
        load_chunks(bad, 100, 100)


def test_demo_corpus_is_a_real_domain_corpus_of_the_promised_size() -> None:
    chunks = load_demo_chunks()
    assert DEMO_FILE.name.endswith(".jsonl.gz")
    assert 1000 <= len(chunks) <= 2000
    assert len({c.id for c in chunks}) == len(chunks)
    sources = {c.metadata["source"] for c in chunks}
    for page in ("routine-vacuuming.html", "runtime-config-wal.html", "logical-replication.html", "ddl-priv.html"):
        assert f"postgresql-15/{page}" in sources
    assert sum("autovacuum" in c.text for c in chunks) > 30
    assert (DEMO_FILE.parent / "NOTICE").read_text().count("PostgreSQL Licence") == 1
