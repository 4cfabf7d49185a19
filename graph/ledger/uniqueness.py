"""What a run may use once: each seed chunk (`triad_seeds`), each question by its normalised words
(`triad_questions`). Every worker of the run shares both tables, so no two samples start from one chunk or ask
one question.
"""

from __future__ import annotations

from psycopg_pool import AsyncConnectionPool

from nodes.common import normalise_question


class RunUniqueness:
    """The seeds and questions one run has claimed, on a connection pool of the state database."""

    pool: AsyncConnectionPool
    run_id: str

    async def claim_seed(self, chunk_id: str) -> bool:
        """Record a seed for the run; False when the run used it already."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO triad_seeds (run_id, chunk_id) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (self.run_id, chunk_id),
            )
            return cursor.rowcount == 1

    async def claim_seeds(self, chunk_ids: list[str]) -> set[str]:
        """Record several seeds for the run in one statement; those the run had not used yet."""
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO triad_seeds (run_id, chunk_id) SELECT %s, unnest(%s::text[])"
                " ON CONFLICT DO NOTHING RETURNING chunk_id",
                (self.run_id, chunk_ids),
            )
            return {row[0] for row in await cursor.fetchall()}

    async def used_seeds(self) -> set[str]:
        async with self.pool.connection() as conn:
            cursor = await conn.execute("SELECT chunk_id FROM triad_seeds WHERE run_id = %s", (self.run_id,))
            return {row[0] for row in await cursor.fetchall()}

    async def claim_question(self, n: int, question: str) -> int | None:
        """Register an accepted question; the slot number of an earlier duplicate, else None."""
        normalised = normalise_question(question)
        async with self.pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO triad_questions (run_id, normalised, n) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (self.run_id, normalised, n),
            )
            if cursor.rowcount == 1:
                return None
            cursor = await conn.execute(
                "SELECT n FROM triad_questions WHERE run_id = %s AND normalised = %s", (self.run_id, normalised)
            )
            earlier = (await cursor.fetchone())[0]  # type: ignore[index]
            return None if earlier == n else int(earlier)

    async def release_question(self, n: int, question: str) -> None:
        """Forget that slot `n` claimed `question`: its sample ended without a record."""
        async with self.pool.connection() as conn:
            await conn.execute(
                "DELETE FROM triad_questions WHERE run_id = %s AND normalised = %s AND n = %s",
                (self.run_id, normalise_question(question), n),
            )
