"""The read-only corpus on both langchain-postgres layouts, against a real PostgreSQL.

One file for the one class: lookups, sampling and both search paths share their fixtures.
"""

from __future__ import annotations

import asyncio
import json
import random
import struct
import uuid
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import psycopg
import pytest
from langchain_core.embeddings import Embeddings
from psycopg import sql

from graph.config.errors import UserError
from graph.ingestion.chunking import ChunkRecord
from graph.store import corpus as corpus_module
from graph.store import vectors as vectors_module
from graph.store.corpus import Corpus, normalise_text
from graph.store.layout import ColumnChoice
from tests.support.commands import create_store_table

LEGACY_COLLECTION = "legacy_demo"
T = TypeVar("T")


@pytest.fixture(scope="module")
def legacy_collection(pg_url: str, demo_slice: str, minilm: Embeddings) -> str:
    """The same slice written by langchain-postgres' legacy PGVector class, plus a second collection."""
    from langchain_postgres.vectorstores import PGVector

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            sql.SQL("SELECT langchain_id::text, content, embedding::text, langchain_metadata FROM {}").format(
                sql.Identifier(demo_slice)
            )
        ).fetchall()
    sqlalchemy_url = pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
    for name, subset in ((LEGACY_COLLECTION, rows), ("legacy_other", rows[:5])):
        store = PGVector(minilm, connection=sqlalchemy_url, collection_name=name, embedding_length=384)
        store.add_embeddings(
            texts=[row[1] for row in subset],
            embeddings=[json.loads(row[2]) for row in subset],
            metadatas=[row[3] for row in subset],
            ids=[f"{name}-{row[0]}" for row in subset],
        )
    return LEGACY_COLLECTION


@pytest.fixture
def arun() -> Iterator[Callable[[Awaitable[T]], T]]:
    """Runs coroutines on one event loop for the whole test (the corpus pool lives on it)."""
    with asyncio.Runner() as runner:
        yield runner.run  # type: ignore[misc]


@pytest.fixture(params=["pgvectorstore", "legacy"])
def corpus(request: pytest.FixtureRequest, pg_url: str, demo_slice: str, minilm: Embeddings, arun) -> Iterator[Corpus]:  # noqa: ANN001
    name = demo_slice if request.param == "pgvectorstore" else request.getfixturevalue("legacy_collection")
    opened = arun(Corpus.open(pg_url, name, embeddings=minilm))
    assert opened.reader.layout.kind == request.param
    yield opened
    arun(opened.close())


def run(coroutine):  # noqa: ANN001, ANN201 - test shorthand
    return asyncio.run(coroutine)


def test_count_matches_the_ingested_slice(corpus: Corpus, arun, demo_slice_chunks: list[ChunkRecord]) -> None:
    lengths = sorted(len(chunk.text.strip()) for chunk in demo_slice_chunks)
    median = lengths[len(lengths) // 2]

    async def go() -> tuple[int, tuple[int, int, int], tuple[int, int, int], bool]:
        reader = corpus.reader
        return await reader.count(), await reader.room(median), await reader.room(10**6), await reader.is_empty()

    total, room, huge, empty = arun(go())
    assert total == len(demo_slice_chunks)
    long_enough = sum(1 for length in lengths if length >= median)
    assert room == (total, total, long_enough)
    assert 0 < long_enough < total
    assert huge == (total, total, 0)
    assert not empty
    original = corpus.reader.max_chars
    corpus.reader.max_chars = median  # chunks over the limit are neither usable nor seeds
    try:
        capped = arun(corpus.reader.room(1))
    finally:
        corpus.reader.max_chars = original
    within = sum(1 for chunk in demo_slice_chunks if len(chunk.text) <= median)
    assert capped == (total, within, within) and 0 < within < total


def test_get_returns_chunks_in_the_order_asked_and_skips_unknown_ids(corpus: Corpus, arun) -> None:
    async def go() -> tuple[list[str], list[str]]:
        ids = await corpus.sample_ids(3, rng=random.Random(1))
        chunks = await corpus.get([ids[2], "no-such-id", str(uuid.uuid4()), ids[0]])
        return ids, [chunk.id for chunk in chunks]

    ids, got = arun(go())
    assert got == [ids[2], ids[0]]


def test_get_takes_ids_read_with_the_vectors_as_they_are_and_checks_the_others(corpus: Corpus, arun) -> None:
    async def go() -> tuple[list[str], list[str]]:
        await corpus.vector_index()  # the usable chunks come along with the vectors
        ids = await corpus.sample_ids(2, rng=random.Random(2))
        chunks = await corpus.get([ids[0], ids[1].upper(), "no-such-id", ids[0]])
        return ids, [chunk.id for chunk in chunks]

    ids, got = arun(go())
    # A UUID written in capitals is the same id; a text id in capitals is another one, which the store lacks.
    assert got == ([ids[0], ids[1], ids[0]] if corpus.reader.layout.id_type == "uuid" else [ids[0], ids[0]])


def test_sampling_is_without_replacement_and_honours_exclusions(corpus: Corpus, arun) -> None:
    async def go() -> tuple[list[str], list[str], int]:
        first = await corpus.sample_ids(10, rng=random.Random(7))
        rest = await corpus.sample_ids(10_000, exclude=first, rng=random.Random(8))
        return first, rest, await corpus.reader.count()

    first, rest, total = arun(go())
    assert len(first) == len(set(first)) == 10
    assert not set(first) & set(rest)
    assert len(first) + len(rest) == total


def test_sampling_is_reproducible_with_a_seeded_rng_and_respects_min_chars(corpus: Corpus, arun) -> None:
    async def go() -> tuple[list[str], list[str], list[int]]:
        a = await corpus.sample_ids(5, rng=random.Random(42), min_chars=1500)
        b = await corpus.sample_ids(5, rng=random.Random(42), min_chars=1500)
        lengths = [len(chunk.text) for chunk in await corpus.get(a)]
        return a, b, lengths

    a, b, lengths = arun(go())
    assert a == b
    assert all(length >= 1500 for length in lengths)


def test_page_sampling_path_for_large_tables(corpus: Corpus, arun, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(corpus_module, "IN_MEMORY_SAMPLING_LIMIT", 0)

    async def go() -> tuple[list[str], list[str]]:
        first = await corpus.sample_ids(8, rng=random.Random(3))
        second = await corpus.sample_ids(8, exclude=first, rng=random.Random(4))
        return first, second

    first, second = arun(go())
    assert len(first) == len(set(first)) == 8
    assert len(second) == 8 and not set(first) & set(second)


def test_neighbours_exclude_the_seed_and_are_ordered_by_distance(corpus: Corpus, arun) -> None:
    async def go():  # noqa: ANN202
        (seed,) = await corpus.sample_ids(1, rng=random.Random(5))
        return seed, await corpus.neighbours(seed, 5)

    seed, hits = arun(go())
    assert len(hits) == 5
    assert seed not in [hit.chunk.id for hit in hits]
    distances = [hit.distance for hit in hits]
    assert distances == sorted(distances)
    assert len({normalise_text(hit.chunk.text) for hit in hits}) == 5


def test_vectors_held_in_memory_rank_like_the_database(corpus: Corpus, arun) -> None:
    """Exact search in memory and in SQL give the same neighbours, in the same order."""

    async def go():  # noqa: ANN202
        assert await corpus.vector_index() is not None
        seeds = await corpus.sample_ids(6, rng=random.Random(3))
        corpus.in_memory_vector_bytes, corpus._vectors = 0, None  # from now on the database ranks
        try:
            assert await corpus.vector_index() is None
            in_sql = [await corpus.neighbours(seed, 8) for seed in seeds]
            in_sql.append(await corpus.search("how often autovacuum runs", 6))
        finally:
            corpus.in_memory_vector_bytes, corpus._vectors = corpus_module.IN_MEMORY_VECTOR_BYTES, None
        in_memory = [await corpus.neighbours(seed, 8) for seed in seeds]
        in_memory.append(await corpus.search("how often autovacuum runs", 6))
        return in_memory, in_sql

    in_memory, in_sql = arun(go())
    for memory_hits, sql_hits in zip(in_memory, in_sql, strict=True):
        assert [hit.chunk for hit in memory_hits] == [hit.chunk for hit in sql_hits]
        assert [hit.distance for hit in memory_hits] == pytest.approx([hit.distance for hit in sql_hits], abs=1e-5)


@pytest.mark.parametrize(("distance", "operator"), [("l2", "<->"), ("ip", "<#>")])
def test_the_stores_distance_ranks_neighbours_in_memory_and_in_sql(
    pg_url: str, demo_slice: str, minilm: Embeddings, distance: str, operator: str
) -> None:
    """With --distance, neighbours are the ones the store's own operator ranks first, on both search paths."""

    async def go() -> tuple[list[str], list[str], list[str]]:
        async with await Corpus.open(pg_url, demo_slice, columns=ColumnChoice(distance=distance)) as store:
            (seed,) = await store.sample_ids(1, rng=random.Random(11))
            memory = [hit.chunk.id for hit in await store.neighbours(seed, 6)]
            store.in_memory_vector_bytes, store._vectors = 0, None
            in_sql = [hit.chunk.id for hit in await store.neighbours(seed, 6)]
        query = (
            f'SELECT langchain_id::text FROM "{demo_slice}" WHERE langchain_id <> %s::uuid'
            f' ORDER BY embedding {operator} (SELECT embedding FROM "{demo_slice}" WHERE langchain_id = %s::uuid),'
            " langchain_id LIMIT 6"
        )
        with psycopg.connect(pg_url) as conn:
            direct = [row[0] for row in conn.execute(query, (seed, seed)).fetchall()]  # type: ignore[arg-type]
        return memory, in_sql, direct

    memory, in_sql, direct = asyncio.run(go())
    assert memory == in_sql == direct


def test_vector_index_distances_are_pgvectors() -> None:
    rows = [("a", False, _vector_bytes(3, 4)), ("b", False, _vector_bytes(1, 0)), ("c", False, _vector_bytes(0, 0))]
    query = corpus_module.np.array([1.0, 0.0])
    l2 = corpus_module.VectorIndex.from_rows(rows, "l2")
    assert l2 is not None and l2.nearest(query, 3) == [("b", 0.0), ("c", 1.0), ("a", pytest.approx(20**0.5))]
    ip = corpus_module.VectorIndex.from_rows(rows, "ip")
    assert ip is not None and ip.nearest(query, 3) == [("a", -3.0), ("b", -1.0), ("c", 0.0)]


def test_texts_read_with_the_vectors_serve_lookups_without_a_query(corpus: Corpus, arun) -> None:
    async def go():  # noqa: ANN202
        assert await corpus.vector_index() is not None
        ids = await corpus.sample_ids(10, rng=random.Random(8))
        unknown = str(uuid.uuid4())
        looked_up: list[list[str]] = []
        fetch = corpus.reader.fetch

        async def counted(query, params, **kwargs):  # noqa: ANN001, ANN003, ANN202
            looked_up.append(params[-1])  # the ids asked for
            return await fetch(query, params, **kwargs)

        corpus.reader.fetch = counted  # type: ignore[method-assign]
        held = await corpus.get([*ids, unknown])
        corpus.reader.fetch = fetch  # type: ignore[method-assign]
        corpus._resident, corpus._chunks = {}, OrderedDict()  # from now on the database answers
        read = await corpus.get(ids)
        # Texts over the budget stay in the database; the vectors still load.
        corpus.in_memory_text_bytes, corpus._vectors = 0, None
        try:
            assert await corpus.vector_index() is not None
            left_out = dict(corpus._resident)
        finally:
            corpus.in_memory_text_bytes, corpus._vectors = corpus_module.IN_MEMORY_TEXT_BYTES, None
        return held, read, looked_up, unknown, left_out

    held, read, looked_up, unknown, left_out = arun(go())
    assert looked_up == [[unknown]]
    assert held == read and len(read) == 10
    assert left_out == {}


def test_search_by_text_finds_the_matching_chapter(corpus: Corpus, arun) -> None:
    hits = arun(corpus.search("autovacuum_naptime sets the minimum delay between autovacuum runs", 3))
    assert len(hits) == 3
    assert any("autovacuum_naptime" in hit.chunk.text for hit in hits)


def test_neighbours_drop_exact_duplicate_texts(
    pg_url: str, minilm: Embeddings, demo_slice_chunks: list[ChunkRecord]
) -> None:
    from graph.ingestion.writer import ingest_chunks

    original = demo_slice_chunks[0]
    copy = ChunkRecord(id=str(uuid.uuid4()), text=original.text.upper() + "  ", metadata={"source": "copy"})
    ingest_chunks(pg_url, "with_duplicate", [*demo_slice_chunks[:12], copy], "minilm")

    async def go():  # noqa: ANN202
        async with await Corpus.open(pg_url, "with_duplicate", embeddings=minilm) as store:
            return await store.neighbours(original.id, 5)

    hits = run(go())
    assert copy.id not in [hit.chunk.id for hit in hits]


def test_unknown_and_empty_collections_are_user_errors(pg_url: str, demo_slice: str) -> None:
    create_store_table(pg_url, "empty_store", 384)
    with pytest.raises(UserError, match="not found.*available: .*demo_slice"):
        run(Corpus.open(pg_url, "no_such_collection"))
    with pytest.raises(UserError, match="is empty"):
        run(Corpus.open(pg_url, "empty_store"))


def test_wrong_embedding_dimension_is_a_user_error(pg_url: str, demo_slice: str) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding

    async def go() -> None:
        async with await Corpus.open(pg_url, demo_slice, embeddings=DeterministicFakeEmbedding(size=768)) as store:
            await store.search("vacuum", 3)

    with pytest.raises(UserError, match="stores 384-d embeddings .* gives 768-d"):
        run(go())


def test_hostile_collection_name_is_quoted_not_executed(pg_url: str, demo_slice: str) -> None:
    with pytest.raises(UserError, match="not found"):
        run(Corpus.open(pg_url, 'x"; DROP TABLE demo_slice; --'))
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('demo_slice')").fetchone()[0] is not None


def test_every_operation_works_through_a_select_only_role(
    pg_url: str, demo_slice: str, legacy_collection: str, minilm: Embeddings
) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS triad_reader")
        conn.execute("CREATE ROLE triad_reader LOGIN")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO triad_reader")
    reader_url = pg_url.replace("postgresql://postgres:", "postgresql://triad_reader:", 1)

    async def exercise(name: str) -> None:
        async with await Corpus.open(reader_url, name, embeddings=minilm) as store:
            assert await store.reader.count() > 0
            ids = await store.sample_ids(4, rng=random.Random(0))
            assert len(await store.get(ids)) == 4
            assert len(await store.neighbours(ids[0], 3)) == 3
            assert len(await store.search("checkpoint_timeout", 3)) == 3
            assert await store.reader.dimension() == 384

    for name in (demo_slice, legacy_collection):
        run(exercise(name))


def test_corpus_sessions_refuse_writes(pg_url: str, demo_slice: str) -> None:
    async def go() -> None:
        async with await Corpus.open(pg_url, demo_slice) as store, store.pool.connection() as conn:
            await conn.execute("DELETE FROM demo_slice")

    with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
        run(go())


def _vector_bytes(*values: float) -> bytes:
    """A vector in pgvector's binary form."""
    return struct.pack(f">HH{len(values)}f", len(values), 0, *values)


def test_vector_index_ranks_by_distance_then_id_and_leaves_out_what_it_must() -> None:
    rows = [
        ("a", False, _vector_bytes(1, 0)),
        ("b", False, _vector_bytes(0, 1)),
        ("c", True, _vector_bytes(1, 0.1)),  # too long to be a neighbour
        ("d", False, _vector_bytes(0, 0)),  # no direction: never a hit
        ("e", False, _vector_bytes(2, 0)),  # same direction as "a": a tie broken by id
    ]
    index = corpus_module.VectorIndex.from_rows(rows)
    assert index is not None and index.ids == ["a", "b", "c", "e"]
    query = corpus_module.np.array([1.0, 0.0])
    assert [hit_id for hit_id, _ in index.nearest(query, 3)] == ["a", "e", "c"]
    ranked = index.nearest(query, 3, exclude=index.position["a"], usable_only=True)
    assert [hit_id for hit_id, _ in ranked] == ["e", "b"]
    assert [distance for _, distance in ranked] == pytest.approx([0.0, 1.0])
    mixed_dimensions = [("a", False, _vector_bytes(1, 0)), ("b", False, _vector_bytes(1))]
    assert corpus_module.VectorIndex.from_rows(mixed_dimensions) is None


def test_the_nearest_to_a_row_are_the_same_remembered_or_not_for_any_limit_in_any_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(3)
    directions = [(rng.choice([1, 2, 3]), rng.choice([0, 1, 2])) for _ in range(40)]  # many ties
    rows = [(f"c{n:02}", rng.random() < 0.2, _vector_bytes(*vector)) for n, vector in enumerate(directions)]
    index = corpus_module.VectorIndex.from_rows(rows)
    assert index is not None
    monkeypatch.setattr(vectors_module, "ROWS_REMEMBERED", 8)
    for at, limit in [(rng.randrange(len(index.ids)), rng.choice([1, 3, 6, 15, 50])) for _ in range(300)]:
        expected = index.nearest(index.matrix[at], limit, exclude=at, usable_only=True)
        assert index.nearest_to_row(at, limit) == expected
    assert len(index._near_rows) == 8
    searches = 0
    search = vectors_module.VectorIndex.nearest

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal searches
        searches += 1
        return search(*args, **kwargs)

    monkeypatch.setattr(vectors_module.VectorIndex, "nearest", counted)
    index.nearest_to_row(0, 5)
    index.nearest_to_row(0, 2)
    index.nearest_to_row(0, 5)
    assert searches == 1
    index.nearest_to_row(0, 100)
    index.nearest_to_row(0, 1000)  # the collection has fewer: the answer to 100 holds all of them
    assert searches == 2


def test_warming_loads_the_vectors_once_in_the_background_and_a_failed_load_reaches_the_first_search(
    pg_url: str, demo_slice: str, arun
) -> None:
    async def go():  # noqa: ANN202
        loads = 0
        corpus = await Corpus.open(pg_url, demo_slice)
        load = corpus._load_vectors

        async def counted():  # noqa: ANN202
            nonlocal loads
            loads += 1
            return await load()

        corpus._load_vectors = counted  # type: ignore[method-assign]
        corpus.warm()
        corpus.warm()  # a second call starts nothing
        await asyncio.sleep(0.5)  # the run's other start-up work; no search asked for yet
        loaded_unasked = loads == 1 and corpus._vectors is not None and corpus._vectors.done()
        hits = await corpus.neighbours((await corpus.sample_ids(1, rng=random.Random(1)))[0], 3)
        await corpus.close()

        failing = await Corpus.open(pg_url, demo_slice)
        own_load = failing._load_vectors

        async def broken():  # noqa: ANN202
            raise psycopg.OperationalError("server closed the connection")

        failing._load_vectors = broken  # type: ignore[method-assign]
        failing.warm()
        await asyncio.sleep(0)
        with pytest.raises(psycopg.OperationalError):
            await failing.vector_index()
        failing._load_vectors = own_load  # type: ignore[method-assign]
        retried = await failing.vector_index()  # the next search loads again
        await failing.close()

        closing = await Corpus.open(pg_url, demo_slice)
        closing.warm()
        await closing.close()  # while its load is under way
        await asyncio.sleep(0)
        return loaded_unasked, loads, len(hits), retried, closing._vectors

    loaded_unasked, loads, hits, retried, stopped = arun(go())
    assert loaded_unasked and loads == 1 and hits == 3
    assert retried is not None
    assert stopped is not None and stopped.cancelled()
