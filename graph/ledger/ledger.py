"""A run's configuration and progress in the state database, shared by every worker of the run.

    triad_runs      one row per run: its options (no URLs, no keys), the structured-output mode each model's
                    server answered in, and its manifest once it has finished
    triad_samples   one row per sample slot: cell, status (running | done), lease, outcome, record, and the
                    dataset version it left the dataset in (`retired`, graph.refresh); the latest version's
                    record (graph.refresh writes an updated one back)
    triad_seeds     seed chunks used by the run (each drawn at most once, across workers; `uniqueness`)
    triad_questions normalised questions of accepted samples (duplicates are refused; `uniqueness`)

Workers claim slots with `SELECT ... FOR UPDATE SKIP LOCKED`: a running slot whose lease expired
(its worker died) is reclaimed and its thread continues from its last checkpoint; otherwise a new
slot is opened for the cell furthest from its quota, never more in flight than a cell still needs.

The tables and the longer statements on them are in `graph.ledger.ledger_sql`.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from typing import Any, cast

import orjson
from psycopg.rows import dict_row
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool

from graph.config.errors import UserError
from graph.folder.run_document import Manifest
from graph.ledger.ledger_sql import CLAIM_SQL, COMPLETE_SQL, FINISHED_SQL, SCHEMA
from graph.ledger.records import RunRecords
from graph.ledger.slots import CellQuota, Completion, Slot, completion_params
from graph.ledger.uniqueness import RunUniqueness
from graph.store.jsonb import jsonb
from state.finished import FinishedSample


class Ledger:
    """The runs' bookkeeping on a connection pool of the state database: the lookups by run id (whether a run
    exists, its options, its finished samples) and, for one run, its handle (`run`)."""

    def __init__(self, pool: AsyncConnectionPool, *, lease_seconds: float = 30.0) -> None:
        self.pool = pool
        self.lease_seconds = lease_seconds
        """Seconds a claimed slot stays with a worker that sends no heartbeat."""

    def run(self, run_id: str) -> RunLedger:
        """The bookkeeping of run `run_id`."""
        return RunLedger(self.pool, run_id, lease_seconds=self.lease_seconds)

    async def setup(self) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(SCHEMA)

    async def exists(self, run_id: str) -> bool:
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT 1 FROM triad_runs WHERE run_id = %s", (run_id,))
            return await cursor.fetchone() is not None

    async def options(self, run_id: str) -> dict[str, Any]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT options FROM triad_runs WHERE run_id = %s", (run_id,))
            row = await cursor.fetchone()
        if row is None:
            raise UserError(
                f"no run {run_id!r} in this state database and schema; list runs/ or check --state-url and "
                "--state-schema"
            )
        return dict(row[0])

    async def finished(self, run_id: str) -> list[FinishedSample]:
        """Every finished sample of the run still in its dataset (none retired), in slot order: cell, outcome,
        summary and `brief`.

        Not its record nor its rejection: a record carries its contexts' texts, and a
        large run's would all be in memory. `brief` holds what the report, the coverage and the duplicate
        check read of an accepted record (question, answer, language, difficulty, n_relevant, temporal, answerable,
        its supporting chunks' sources); None for the others.
        """
        async with self.pool.connection() as conn:
            cursor = conn.cursor(row_factory=dict_row)
            set_json_loads(orjson.loads, cursor)
            await cursor.execute(FINISHED_SQL, (run_id,))
            return cast(list[FinishedSample], await cursor.fetchall())


class RunLedger(RunUniqueness, RunRecords):
    """One run's bookkeeping, on the state database's pool (`Ledger.run`); the run-wide uniqueness of its seeds and
    questions is `RunUniqueness`'s, the reading of its records for its files `RunRecords`'."""

    def __init__(self, pool: AsyncConnectionPool, run_id: str, *, lease_seconds: float = 30.0) -> None:
        self.pool = pool
        self.run_id = run_id
        self.lease_seconds = lease_seconds
        """Seconds a claimed slot stays with a worker that sends no heartbeat."""

    async def create(self, options: dict[str, Any]) -> None:
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO triad_runs (run_id, options) VALUES (%s, %s) ON CONFLICT (run_id) DO NOTHING",
                (self.run_id, jsonb(options)),
            )
            if cursor.rowcount == 0:
                raise UserError(f"run {self.run_id!r} exists already; continue it with --resume {self.run_id}")

    async def save_manifest(self, manifest: Manifest) -> None:
        """Keep the run's manifest (`graph.folder.manifest`) with it: what it was made with and what it read."""
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE triad_runs SET manifest = %s WHERE run_id = %s", (jsonb(manifest), self.run_id))

    async def save_store_settings(self, settings: Mapping[str, Any]) -> None:
        """Store settings the run reads from now on (a refresh onto another collection), over its stored ones."""
        if not settings:
            return
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE triad_runs SET options = jsonb_set(options, '{settings}', "
                "coalesce(options->'settings', '{}'::jsonb) || %s) WHERE run_id = %s",
                (jsonb(dict(settings)), self.run_id),
            )

    async def model_modes(self) -> dict[str, str]:
        """The structured-output mode each model's server answered in for this run (none known: empty)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT model_modes FROM triad_runs WHERE run_id = %s", (self.run_id,))
            row = await cursor.fetchone()
        return dict(row[0] or {}) if row else {}

    async def save_model_modes(self, modes: Mapping[str, str]) -> None:
        """Keep the modes servers answered in (by server), for the run's other workers and a resume."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE triad_runs SET model_modes = coalesce(model_modes, '{}'::jsonb) || %s WHERE run_id = %s",
                (jsonb(dict(modes)), self.run_id),
            )

    async def stop(self, reason: str) -> None:
        """No slot of the run opens any more, for any worker, until `go_on` (a resume)."""
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE triad_runs SET stopped = %s WHERE run_id = %s", (reason, self.run_id))

    async def stopped(self) -> str | None:
        """Why the run stopped opening slots, or None."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT stopped FROM triad_runs WHERE run_id = %s", (self.run_id,))
            row = await cursor.fetchone()
        return row[0] if row else None

    async def go_on(self) -> None:
        """Open slots again (a resume after the fix)."""
        async with self.pool.connection() as conn:
            await conn.execute("UPDATE triad_runs SET stopped = NULL WHERE run_id = %s", (self.run_id,))

    async def release_samples(self, slots: list[int], seeds: list[str]) -> None:
        """Forget finished samples as if they never ran: their slots (so they count against no cap) and their seeds
        (so they can be drawn again). Their threads' checkpoints are the caller's to delete."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute("DELETE FROM triad_samples WHERE run_id = %s AND n = ANY(%s)", (self.run_id, slots))
            await conn.execute("DELETE FROM triad_seeds WHERE run_id = %s AND chunk_id = ANY(%s)", (self.run_id, seeds))

    async def claim(
        self,
        cells: list[CellQuota],
        worker: str,
        *,
        completing: Completion | None = None,
        claim_id: str | None = None,
        styles: dict[str, int] | None = None,
        personas: dict[str, int] | None = None,
    ) -> Slot | None:
        """The next slot for `worker`: an abandoned one first, else a new one; None when the run is done.

        One round trip: the run row lock and the claim go out together in a pipeline, so the lock is
        held for about that one round trip. `completing`, the
        worker's sample that just ended, is marked done in the same transaction, ahead of the claim:
        the claim counts it, and a lane that finishes one sample and takes the next pays one round
        trip, not two.

        `styles` are the run's query-style quotas (none: its questions are asked as validated); `personas` its
        personas' (none: its role asks every question).

        `claim_id` names the claim: sent again after an error under the same id, it returns the slot
        the first try took if the server committed that try (a lost reply), rather than a second one.
        """
        async with self.pool.connection() as conn:
            async with conn.pipeline(), conn.transaction():
                # Opening a slot reads every cell's counts: the run row lock makes that one decision at a
                # time. The claim is the next statement, so under READ COMMITTED (whatever the server's
                # default) its snapshot sees every claim made before it.
                await conn.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED")
                if completing is not None:
                    await conn.execute(COMPLETE_SQL, completion_params(completing))
                await conn.execute("SELECT 1 FROM triad_runs WHERE run_id = %s FOR UPDATE", (self.run_id,))
                cursor = await conn.execute(
                    CLAIM_SQL,
                    {
                        "run_id": self.run_id,
                        "worker": worker,
                        "claim_id": claim_id or uuid.uuid4().hex,
                        "lease": self.lease_seconds,
                        "types": [cell.question_type for cell in cells],
                        "binaries": [cell.binary for cell in cells],
                        "quotas": [cell.quota for cell in cells],
                        "caps": [cell.cap for cell in cells],
                        "styles": list(styles or {}),
                        "style_quotas": list((styles or {}).values()),
                        "personas": list(personas or {}),
                        "persona_quotas": list((personas or {}).values()),
                    },
                )
            row = await cursor.fetchone()
        if row is None:
            return None
        n, question_type, binary, wanted, query_style, persona, fresh = row
        return Slot(self.run_id, n, question_type, binary, wanted, query_style, persona, fresh=fresh)

    async def slots_running(self) -> bool:
        """Whether any slot of the run is still running (its failure could reopen a cell)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT count(*) FROM triad_samples WHERE run_id = %s AND status = 'running'", (self.run_id,)
            )
            return (await cursor.fetchone())[0] > 0  # type: ignore[index]

    async def heartbeat(self, worker: str) -> None:
        """Extend the leases of the worker's running slots."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE triad_samples SET lease_until = now() + make_interval(secs => %s)"
                " WHERE run_id = %s AND worker = %s AND status = 'running'",
                (self.lease_seconds, self.run_id, worker),
            )

    async def complete(self, done: Completion) -> None:
        """Mark a slot done with its record or rejection and the summary the funnel and report read."""
        async with self.pool.connection() as conn:
            await conn.execute(COMPLETE_SQL, completion_params(done))

    async def release_dead_local_workers(self, host: str) -> None:
        """Expire at once the leases of workers on this host whose process is gone (killed, crashed)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT DISTINCT worker FROM triad_samples WHERE run_id = %s AND status = 'running' AND worker LIKE %s",
                (self.run_id, f"{host}-%"),
            )
            workers = [row[0] for row in await cursor.fetchall()]
        for worker in workers:
            pid = worker.rsplit("-", 1)[1]
            if pid.isdigit() and not _process_alive(int(pid)):
                await self.release(worker)

    async def release(self, worker: str) -> None:
        """Give up the worker's running slots at once (a clean stop), so a resume can take them."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "UPDATE triad_samples SET lease_until = now() - interval '1 second'"
                " WHERE run_id = %s AND worker = %s AND status = 'running'",
                (self.run_id, worker),
            )

    # -- dataset versions (graph.refresh) --------------------------------------------------------

    async def retire(self, slots: list[int], version: int) -> None:
        """Take the slots' records out of the dataset from `version` on: they no longer count towards a quota,
        and their questions may be asked again."""
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(
                "UPDATE triad_samples SET retired = %s WHERE run_id = %s AND n = ANY(%s) AND retired IS NULL",
                (version, self.run_id, slots),
            )
            await conn.execute("DELETE FROM triad_questions WHERE run_id = %s AND n = ANY(%s)", (self.run_id, slots))

    async def retired_per_cell(self) -> dict[tuple[str, bool], int]:
        """Slots retired so far, per cell (question type, binary)."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT question_type, is_binary, count(*) FROM triad_samples WHERE run_id = %s AND retired IS NOT NULL"
                " GROUP BY 1, 2",
                (self.run_id,),
            )
            return {(question_type, binary): int(count) for question_type, binary, count in await cursor.fetchall()}


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
