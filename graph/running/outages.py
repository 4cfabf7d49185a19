"""Database outages during a run: work is repeated once the server is back, up to a bound."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import psycopg
import structlog
from psycopg_pool import AsyncConnectionPool

from graph.config.errors import UserError, first_line

log = structlog.get_logger("triad.run")

#: What a database that went away raises: a dropped connection, or none to be had in time.
DATABASE_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError)


#: Seconds between tries while the database is away.
OUTAGE_POLL_SECONDS = 1.0


T = TypeVar("T")


class Outages:
    """Repeats database work through an outage: waits for the server to come back, up to `wait_s`.

    Samples continue from their last checkpoint afterwards, so an outage costs at most the steps in
    flight. A server that stays away longer ends the run with one line naming `--resume`.
    """

    def __init__(
        self,
        run_id: str,
        wait_s: float,
        pools: Sequence[AsyncConnectionPool] = (),
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.run_id = run_id
        self.wait_s = wait_s
        self.pools = pools
        """Pools whose idle connections are checked while waiting, so dead ones are replaced."""
        self.notify = notify or (lambda text: None)
        """Tells the user an outage began or ended (the command prints it)."""
        self.outages = 0
        self._since: float | None = None

    async def call(self, operation: Callable[[], Awaitable[T]]) -> T:
        # Outage events are the run's, not the sample's whose call noticed them: thread_id=None.
        while True:
            try:
                result = await operation()
            except DATABASE_ERRORS as error:
                await self._wait(error)
                continue
            if self._since is not None:
                away = time.monotonic() - self._since
                log.info("database_back", run_id=self.run_id, thread_id=None, after_s=round(away, 1))
                self.notify(f"the database is back after {away:.0f} s; going on")
                self._since = None
            return result

    async def _wait(self, error: BaseException) -> None:
        reason = first_line(error)
        now = time.monotonic()
        if self._since is None:
            self._since = now
            self.outages += 1
            log.info("database_unreachable", run_id=self.run_id, thread_id=None, error=reason)
            self.notify(f"the database is unreachable ({reason}); waiting up to {self.wait_s:.0f} s for it")
        if now - self._since > self.wait_s:
            raise UserError(
                f"the database stayed unreachable for {self.wait_s:.0f} s ({reason}); "
                f"start it again, then continue with --resume {self.run_id}"
            ) from None
        await asyncio.sleep(OUTAGE_POLL_SECONDS)
        for pool in self.pools:
            with contextlib.suppress(Exception):  # still away: the next try says so
                await pool.check()
