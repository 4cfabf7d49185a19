"""What the review command opens: the labels in the state database, the run's store (for rejected samples'
chunk texts), and report.html written again with the reviewers' table."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json

from psycopg_pool import AsyncConnectionPool, PoolTimeout

from graph.config.cli import tell
from graph.config.errors import UserError, redact
from graph.config.settings import Settings
from graph.figures.report import REPORT_EXAMPLES, write_report
from graph.folder.files import RunFolder
from graph.folder.run_document import load_run_document
from graph.folder.run_settings import as_the_run_read_it, flags_given, run_json_settings
from graph.reviewing.calibration import calibration_html
from graph.reviewing.labels import ReviewLabels, SavedLabels
from graph.reviewing.pages import summary_html
from graph.reviewing.validation_table import ValidationSummary
from graph.services import open_state_database
from graph.store.corpus import Corpus
from graph.store.database import CONNECT_TIMEOUT_S, database_url, in_schema, prepare_state_schema, state_url
from graph.store.layout import ColumnChoice
from state.record import DatasetRecord, text_digest
from state.threads import slot_number


async def open_labels(settings: Settings) -> tuple[ReviewLabels, AsyncConnectionPool]:
    url = await asyncio.to_thread(state_url, settings)
    await asyncio.to_thread(prepare_state_schema, url, settings.state_schema)
    pool = AsyncConnectionPool(
        in_schema(url, settings.state_schema), min_size=1, max_size=4, open=False, kwargs={"autocommit": True}
    )
    try:
        await pool.open(wait=True, timeout=CONNECT_TIMEOUT_S)
    except PoolTimeout:
        await pool.close()
        raise UserError(f"cannot connect to the state database {redact(url)}; fix --state-url") from None
    labels = ReviewLabels(pool)
    await labels.setup()
    return labels, pool


async def run_store(settings: Settings, args: argparse.Namespace) -> Corpus | None:
    """The run's store, read as the run read it, for the texts of rejected samples' chunks; None (and a
    note) when it cannot be opened: those samples then show their chunk ids only."""
    store_settings = as_the_run_read_it(
        settings, run_json_settings(settings.runs_dir / args.run_id / "run.json"), flags_given(args)
    )
    if not store_settings.collection:
        return None
    try:
        url = await asyncio.to_thread(database_url, store_settings)
        return await Corpus.open(
            url,
            store_settings.collection,
            schema=store_settings.schema_name,
            columns=ColumnChoice(**store_settings.column_settings()),
        )
    except UserError as error:
        tell(f"note: rejected samples show their chunk ids only: {error}")
        return None


def chunk_keys(before: DatasetRecord, after: DatasetRecord) -> dict[str, str]:
    """Each chunk id of a record's earlier version -> the id of the same chunk in its new one: a supporting chunk
    to the first chunk that holds its facts now (or its moved id), any chunk to the one with the same text."""
    now = {text_digest(text): chunk_id for chunk_id, text in after.chunk_texts()}
    keys = {chunk_id: now[text_digest(text)] for chunk_id, text in before.chunk_texts() if text_digest(text) in now}
    re_pointed = after.validation.re_pointed
    if re_pointed is not None:
        keys |= {old: new[0] for old, new in re_pointed.supporting.items() if new}
    return keys


async def re_key_labels(
    settings: Settings, run_id: str, before: list[DatasetRecord], after: list[DatasetRecord]
) -> None:
    """Reviewers' labels of the records a refresh pointed at other chunks, re-keyed to the chunks' new ids."""
    earlier = {record.id: record for record in before}
    moved = {}
    for record in after:
        old = earlier.get(record.id)
        if old is not None and old != record and (n := slot_number(record.id)) is not None:
            moved[n] = chunk_keys(old, record)
    if not moved:
        return
    labels, pool = await open_labels(settings)
    try:
        await labels.re_key(run_id, moved)
    finally:
        await pool.close()


async def run_labels(settings: Settings, run_id: str) -> list[SavedLabels]:
    """Every review label of a run, from the state database."""
    labels, pool = await open_labels(settings)
    try:
        return await labels.of_run(run_id)
    finally:
        await pool.close()


async def refresh_report(settings: Settings, run_id: str, figures: ValidationSummary) -> bool:
    """report.html written again with the human-validation table; False when the run's state or run.json is
    not there to write it from."""
    folder = settings.runs_dir / run_id
    try:
        document = load_run_document(folder / "run.json")
    except (OSError, ValueError):
        return False
    async with open_state_database(settings) as database:
        if not await database.ledger.exists(run_id):
            return False
        finished = await database.ledger.finished(run_id)
        slots = [row["n"] for row in finished]
        examples = await database.ledger.run(run_id).accepted_records(slots, REPORT_EXAMPLES)
    reviewed = summary_html(figures)
    calibration = folder / "calibration.json"
    if calibration.is_file():  # the validators against the same reviewers, beside their table
        with contextlib.suppress(ValueError, KeyError, TypeError):
            reviewed += calibration_html(json.loads(calibration.read_text(encoding="utf-8")))
    write_report(RunFolder(folder), document, finished, examples, reviewed)
    return True
