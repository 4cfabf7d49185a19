"""A run's dataset against its store as it is now: the store opened as the run read it, the records checked."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import structlog

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.folder.check_file import CheckDocument
from graph.folder.run_document import load_run_document
from graph.living.drift import check_records, store_changed_since_check
from graph.living.follow import Judge
from graph.llm.from_settings import build_gateway
from graph.services import open_corpus
from graph.store.corpus import Corpus
from graph.store.database import database_url
from graph.store.reader import Chunk
from nodes.common import chunk_ref
from nodes.ports import StructuredChat
from nodes.steps.judges import judge_together
from state.draft import Draft, QuoteRef
from state.languages import DEFAULT_LANGUAGE
from state.record import DatasetRecord
from state.usage import ROLES

log = structlog.get_logger("triad.check")


async def open_run_store(settings: Settings) -> Corpus:
    """The run's collection, read as the run read it (`settings` from `as_the_run_read_it`); an emptied one too,
    whose records are then all gone."""
    return await open_corpus(settings, await asyncio.to_thread(database_url, settings), allow_empty=True)


def judge_with(llm: StructuredChat) -> Judge:
    """The sufficiency judge asked, through `llm`, whether a record's new chunks together still answer it."""

    async def judge(record: DatasetRecord, chunks: list[Chunk], quotes: list[tuple[str, str]]) -> tuple[bool, str]:
        draft = Draft(question=record.canonical_question, answer=record.answer, origin="generate", revision=0)
        draft["evidence"] = [QuoteRef(chunk_id=chunk_id, quote=quote) for chunk_id, quote in quotes]
        language = record.language or DEFAULT_LANGUAGE
        state: Any = {"supporting": [chunk_ref(c) for c in chunks], "drafts": [draft], "binary": record.binary,
                      "language": language}  # fmt: skip
        verdict, _ = await judge_together(state, llm, language)
        return verdict.sufficient, verdict.reason

    return judge


def record_judge(settings: Settings, validator: str | None) -> Judge:
    """`judge_with` the validator model `validator` (else the settings'), built on the first question: a check that
    needs no judge needs no model or key."""
    built: list[Judge] = []

    async def judge(record: DatasetRecord, chunks: list[Chunk], quotes: list[tuple[str, str]]) -> tuple[bool, str]:
        if not built:
            spec = validator or settings.model_for("validator")
            built.append(judge_with(build_gateway(settings, models=dict.fromkeys(ROLES, spec))))
        return await built[0](record, chunks, quotes)

    return judge


async def check_run(
    settings: Settings, records: list[DatasetRecord], known_sources: list[str] | None, validator: str | None = None
) -> CheckDocument:
    corpus = await open_run_store(settings)
    try:
        return await check_records(
            records, corpus, known_sources, record_judge(settings, validator), settings.collection
        )
    finally:
        await corpus.close()


async def store_changed(settings: Settings, folder: Path) -> bool:
    """Whether the run's store changed after its dataset was last checked (or made); False, with a warning that
    names why, when the store cannot be read (the evaluation that follows names what is wrong with it)."""
    try:
        corpus = await open_run_store(settings)
    except (UserError, psycopg.Error, OSError) as error:
        log.warning("store not compared with the dataset", reason=str(error).splitlines()[0])
        return False
    try:
        return await store_changed_since_check(corpus, folder)
    except psycopg.Error as error:
        log.warning("store not compared with the dataset", reason=str(error).splitlines()[0])
        return False
    finally:
        await corpus.close()


def run_sources(run_json: Path) -> list[str] | None:
    """The documents the run's collection held (its manifest's), or None when run.json keeps no list."""
    try:
        document = load_run_document(run_json)
    except (OSError, ValueError):
        return None
    manifest = document.get("manifest")
    collection = manifest.get("collection") if isinstance(manifest, dict) else None
    sources = collection.get("sources") if isinstance(collection, dict) else None
    return [str(s) for s in sources] if isinstance(sources, list) else None
