"""Thread ids: the one place that writes and reads them.

A run's sample is thread `<run_id>/<n>` (its slot `n`); the record it makes has that id. A refresh
judges the record's next version `v` on thread `<run_id>/<n>@v<v>`, and a later attempt at the same
version (after a model gave no usable answer) on `<run_id>/<n>@v<v>.<attempt>`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_THREAD = re.compile(r"(?P<run>[^/@]+)/(?P<n>\d+)(?:@v(?P<version>\d+)(?:\.(?P<attempt>\d+))?)?")


@dataclass(frozen=True, order=True)
class ThreadId:
    """A sample's thread: its run and slot, and for a refresh thread the version and attempt."""

    run_id: str
    n: int
    version: int | None = None
    """The dataset version a refresh thread judges; None: the run's own sample."""
    attempt: int = 1

    def __str__(self) -> str:
        if self.version is None:
            return f"{self.run_id}/{self.n}"
        return f"{self.run_id}/{self.n}@v{self.version}" + (f".{self.attempt}" if self.attempt > 1 else "")

    @property
    def sample(self) -> ThreadId:
        """The run's own thread of this slot (a refresh thread's sample)."""
        return ThreadId(self.run_id, self.n)

    def refreshed(self, version: int, attempt: int = 1) -> ThreadId:
        """The thread that judges this slot's record for `version`."""
        return ThreadId(self.run_id, self.n, version, attempt)

    @classmethod
    def parse(cls, text: str) -> ThreadId:
        """The thread id `text` names; a `ValueError` when it names none."""
        found = _THREAD.fullmatch(str(text))
        if found is None:
            raise ValueError(f"{text!r} is not a thread id of a run (<run_id>/<n>)")
        version, attempt = found["version"], found["attempt"]
        return cls(found["run"], int(found["n"]), None if version is None else int(version), int(attempt or 1))


def slot_number(text: str) -> int | None:
    """The slot of thread (or record) id `text`, or None when it is not one of a run."""
    try:
        return ThreadId.parse(text).n
    except ValueError:
        return None
