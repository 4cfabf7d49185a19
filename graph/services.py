"""The composition root: the one place that builds what samples run on.

`graph.run`, `graph.replay`, `graph.evaluate`, LangGraph Studio, the Python API (`run_sample`) and the
tests' harness all open their services here: the state database (connection pools, the run ledger,
the pooled checkpoint saver), the model gateway with its cache, the corpus with its embedding model,
and the seed pool. Blocking work (starting the embedded server, loading the demo corpus, embedding a
text) runs in worker threads, so it never stalls the event loop; the embedding model is built on its
first use.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from graph.config.cli import tell
from graph.config.errors import UserError, first_line, redact
from graph.config.settings import Settings
from graph.demo import DEMO_COLLECTION, DEMO_EMBEDDING, demo_embeddings, load_demo_chunks
from graph.ingestion.writer import ingest_chunks
from graph.ledger.ledger import Ledger
from graph.llm.cache import LLMCache
from graph.llm.from_settings import build_gateway
from graph.llm.gateway import LLMGateway
from graph.seeding.seeds import RunSeeds
from graph.store.checkpoints import PooledPostgresSaver
from graph.store.corpus import Corpus
from graph.store.database import (
    CONNECT_TIMEOUT_S,
    STATE_FIX,
    check_connection,
    database_url,
    in_schema,
    prepare_state_schema,
    state_url,
)
from graph.store.embeddings import DeferredEmbeddings, embedding_keys
from graph.store.layout import ColumnChoice
from graph.store.reader import POOL_TIMEOUT_S
from nodes.ports import Ports, QueryGuide, QuestionRegistry, SeedPool
from state.usage import Role

#: Bookkeeping connections of a process (claims, heartbeats, completions).
BOOKKEEPING_POOL_SIZE = 4


def pool_timeout(wait_s: float) -> float:
    """How long a request for a connection waits: the database wait, within bounds."""
    return max(1.0, min(wait_s, POOL_TIMEOUT_S))


@dataclass(frozen=True)
class StateDatabase:
    """Where runs keep their state: checkpoints and run bookkeeping, on two connection pools."""

    url: str
    """The state database as the user named it (or the embedded one's URL)."""
    conninfo: str
    """What connects to it: `url` with triad's schema as the only one searched."""
    checkpoints: AsyncConnectionPool
    """Connections of the checkpoint saver (dict rows)."""
    bookkeeping: AsyncConnectionPool
    """Connections of the run ledger."""
    ledger: Ledger
    saver: PooledPostgresSaver
    """The checkpointer of every sample's thread."""


@asynccontextmanager
async def open_state_database(settings: Settings, *, concurrency: int = 1) -> AsyncIterator[StateDatabase]:
    """The state database's pools, run ledger and checkpoint saver, their schema and tables created when missing.

    Every table triad keeps (runs, samples, seeds, questions, the model cache and LangGraph's
    checkpoint tables) lies in `settings.state_schema`, so none meets an application's own tables.
    """
    url = await asyncio.to_thread(state_url, settings)
    schema = settings.state_schema
    await asyncio.to_thread(prepare_state_schema, url, schema)
    conninfo = in_schema(url, schema)
    timeout = pool_timeout(settings.database_wait_seconds)
    checkpoints = AsyncConnectionPool(
        conninfo,
        min_size=1,
        max_size=concurrency + 2,
        open=False,
        timeout=timeout,
        kwargs={"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row},
    )
    bookkeeping = AsyncConnectionPool(
        conninfo, min_size=1, max_size=BOOKKEEPING_POOL_SIZE, open=False, timeout=timeout, kwargs={"autocommit": True}
    )
    try:
        await checkpoints.open(wait=True, timeout=CONNECT_TIMEOUT_S)
        await bookkeeping.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except PoolTimeout:
        await checkpoints.close()
        await bookkeeping.close()
        raise UserError(
            f"cannot connect to the state database {redact(url)}; fix --state-url / TRIAD_STATE_URL"
        ) from None
    try:
        ledger = Ledger(bookkeeping, lease_seconds=settings.lease_seconds)
        saver = PooledPostgresSaver(checkpoints)  # type: ignore[arg-type]
        try:
            await ledger.setup()
            await saver.setup()
        except (psycopg.errors.InsufficientPrivilege, psycopg.errors.ReadOnlySqlTransaction) as error:
            raise UserError(
                f"cannot create triad's tables in schema {schema!r} of {redact(url)} ({first_line(error)}); {STATE_FIX}"
            ) from None
        yield StateDatabase(
            url=url, conninfo=conninfo, checkpoints=checkpoints, bookkeeping=bookkeeping, ledger=ledger, saver=saver
        )
    finally:
        await checkpoints.close()
        await bookkeeping.close()


def ensure_demo(url: str) -> None:
    """Load the demo corpus on first use (a no-op once it is there)."""
    with psycopg.connect(url) as conn:
        present = conn.execute("SELECT to_regclass(%s)", (DEMO_COLLECTION,)).fetchone()[0]  # type: ignore[index]
    if present is None:
        # A command's progress line (this runs before any run exists to log against).
        tell("loading the demo corpus into the database (first use only)...")
        ingest_chunks(url, DEMO_COLLECTION, load_demo_chunks(), DEMO_EMBEDDING, embeddings=demo_embeddings())


@dataclass(frozen=True)
class RunServices:
    """Everything samples run on, opened together and closed together."""

    settings: Settings
    corpus: Corpus
    gateway: LLMGateway
    database: StateDatabase | None
    """None where the caller keeps its own state (LangGraph Studio brings its checkpointer)."""

    @property
    def embeddings(self) -> Embeddings:
        """The collection's embedding model; it is built, and a local model's weights loaded, on its first use."""
        assert self.corpus.embeddings is not None
        return self.corpus.embeddings

    def seed_pool(
        self,
        run_id: str = "",
        *,
        used: Iterable[str] = (),
        random_seed: int | None = None,
        batch: int = 1,
        weights: dict[str, float] | None = None,
        preferred: Iterable[str] = (),
    ) -> RunSeeds:
        """The seed pool of run `run_id`, recorded in the state database; in memory only without a run id.

        `weights` limits the seeds to the chunks it weighs, drawn in proportion to their weights (queries that
        retrieved them, document weights); `preferred` chunks are drawn first.
        """
        ledger = self.database.ledger.run(run_id) if self.database is not None and run_id else None
        return RunSeeds(
            self.corpus,
            ledger=ledger,
            used=used,
            random_seed=random_seed,
            batch=batch,
            weights=weights,
            preferred=preferred,
        )

    def ports_for(
        self, seeds: SeedPool, questions: QuestionRegistry | None = None, queries: QueryGuide | None = None
    ) -> Ports:
        """What the graph's nodes are handed through the run context."""
        return Ports(corpus=self.corpus, llm=self.gateway, seeds=seeds, questions=questions, queries=queries)


async def open_corpus(settings: Settings, url: str, **options: Any) -> Corpus:
    """The settings' collection at `url`: its schema, columns, embedding model and chunk bound; `options` go to
    `Corpus.open` as they are."""
    return await Corpus.open(
        url,
        settings.collection or "",
        schema=settings.schema_name,
        columns=ColumnChoice(**settings.column_settings()),
        embeddings=DeferredEmbeddings(settings.embedding, embedding_keys(settings)),
        max_chars=settings.max_chunk_chars,
        **options,
    )


@asynccontextmanager
async def open_collection(settings: Settings) -> AsyncIterator[Corpus]:
    """The settings' collection alone, without a gateway (no chat model is built, so none needs a key): for
    work that only retrieves, such as a retrieval-only evaluation."""
    url = await asyncio.to_thread(database_url, settings)
    await asyncio.to_thread(check_connection, url)
    if settings.collection == DEMO_COLLECTION:
        await asyncio.to_thread(ensure_demo, url)
    corpus = await open_corpus(settings, url, pool_timeout_s=pool_timeout(settings.database_wait_seconds))
    try:
        yield corpus
    finally:
        await corpus.close()


@dataclass(frozen=True)
class ServicesSpec:
    """What a command opens its services with (`open_services`): its settings, and how the gateway and the state
    database come about."""

    settings: Settings
    models: dict[Role, str | BaseChatModel] | None = None
    """Models per role, over the settings' (specs or chat models)."""
    recording_path: Path | None = None
    """Where the gateway records every call (`--record-llm`)."""
    random_seed: int | None = None
    """Seeds the gateway's retry waits."""
    gateway: LLMGateway | None = None
    """A gateway built already (a test's, with its own retry policy), used as it is."""
    database: StateDatabase | None = None
    """A state database open already (a run reads its options there first)."""
    with_database: bool = True
    """False: no state database is opened (work that keeps no run)."""
    concurrency: int = 1
    """Samples in flight, which sizes the state database's pools."""
    warm: bool = False
    """Start loading the corpus' vectors at once, overlapping the rest of the start-up."""

    def build_gateway(self, database: StateDatabase | None) -> LLMGateway:
        """The spec's gateway, or one built as `build_gateway` builds it, with `database`'s response cache when
        `settings.llm_cache`."""
        if self.gateway is not None:
            return self.gateway
        cache = LLMCache(database.conninfo) if database is not None and self.settings.llm_cache else None
        return build_gateway(
            self.settings, models=self.models, recording_path=self.recording_path, random_seed=self.random_seed,
            cache=cache,
        )  # fmt: skip


@asynccontextmanager
async def open_services(spec: ServicesSpec | Settings) -> AsyncIterator[RunServices]:
    """Open the services `spec` describes (settings alone: their defaults): the state database, the gateway, the
    corpus. Every command builds its services here, once.

    The gateway is built here as `build_gateway` builds it, with the state database's response cache when
    `settings.llm_cache`, unless the spec brings one.
    """
    spec = spec if isinstance(spec, ServicesSpec) else ServicesSpec(spec)
    url = await asyncio.to_thread(database_url, spec.settings)
    if spec.database is None and spec.with_database:
        async with (
            open_state_database(spec.settings, concurrency=spec.concurrency) as opened,
            _open_on(spec, url, opened) as services,
        ):
            yield services
        return
    async with _open_on(spec, url, spec.database) as services:
        yield services


@asynccontextmanager
async def open_gateway(
    settings: Settings,
    database: StateDatabase | None,
    *,
    models: dict[Role, str | BaseChatModel] | None = None,
    random_seed: int | None = None,
) -> AsyncIterator[LLMGateway]:
    """The gateway alone, as `open_services` builds it, for work that reads no store (calibration's judges,
    which read each sample's chunks from its state; the preflight; a team's own pipeline answering); its cache,
    when `database` is given, is closed at the end."""
    gateway = ServicesSpec(settings, models=models, random_seed=random_seed).build_gateway(database)
    try:
        yield gateway
    finally:
        if gateway.cache is not None:
            await gateway.cache.close()


@asynccontextmanager
async def _open_on(spec: ServicesSpec, url: str, database: StateDatabase | None) -> AsyncIterator[RunServices]:
    settings = spec.settings
    if database is None or database.url != url:  # a state database on the store's own server has reached it already
        await asyncio.to_thread(check_connection, url)
    gateway = spec.build_gateway(database)
    if settings.collection == DEMO_COLLECTION:
        await asyncio.to_thread(ensure_demo, url)
    corpus = await open_corpus(settings, url, pool_timeout_s=pool_timeout(settings.database_wait_seconds))
    try:
        if spec.warm:
            corpus.warm()
        yield RunServices(settings=settings, corpus=corpus, gateway=gateway, database=database)
    finally:
        await corpus.close()
        if gateway.cache is not None:
            await gateway.cache.close()
