"""Live progress of a run: a table per cell on a terminal, one line per sample elsewhere."""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import Any

from graph.config.cli import tell
from graph.figures.funnel import cell_name
from graph.ledger.slots import CellQuota, Slot
from graph.llm.gateway import LLMGateway
from graph.running.runner import SampleResult
from state.finished import FinishedSample


class Progress:
    """Counts per cell, acceptance rate, tokens, cost so far and an ETA."""

    def __init__(
        self,
        cells: list[CellQuota],
        finished: list[FinishedSample],
        gateway: LLMGateway,
        *,
        live: bool,
        lines: bool = True,
    ) -> None:
        """`live`: a table redrawn on the terminal; else, with `lines`, a line per finished sample."""
        self.cells = cells
        self.lines = lines
        self.gateway = gateway
        self.accepted: Counter[str] = Counter()
        self.started: Counter[str] = Counter()
        self.earlier_cost = 0.0
        self.earlier_tokens = 0
        for row in finished:
            name = cell_name(row["question_type"], row["binary"])
            self.started[name] += 1
            self.accepted[name] += row["outcome"] == "accepted"
            for call in row["summary"]["llm_calls"] if row["summary"] else []:
                self.earlier_cost += call["cost_usd"]
                self.earlier_tokens += call["input_tokens"] + call["output_tokens"]
        self.resumed_accepted = sum(self.accepted.values())
        self.clock = time.monotonic()
        self._live: Any = None
        if live:
            from rich.console import Console
            from rich.live import Live

            self._live = Live(self.render(), console=Console(file=sys.stderr), refresh_per_second=2, transient=False)

    def __enter__(self) -> Progress:
        if self._live is not None:
            self._live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._live is not None:
            self._live.update(self.render())
            self._live.__exit__(*exc)

    @property
    def wanted(self) -> int:
        return sum(cell.quota for cell in self.cells)

    def eta_seconds(self) -> float | None:
        done_now = sum(self.accepted.values()) - self.resumed_accepted
        remaining = self.wanted - sum(self.accepted.values())
        if done_now <= 0 or remaining <= 0:
            return None
        return (time.monotonic() - self.clock) / done_now * remaining

    def status(self) -> str:
        accepted, started = sum(self.accepted.values()), sum(self.started.values())
        tokens = self.earlier_tokens + self.gateway.tokens
        cost = self.earlier_cost + self.gateway.cost_usd
        rate = f"{accepted / started:.0%}" if started else "-"
        eta = self.eta_seconds()
        eta_text = f"{eta / 60:.1f} min" if eta is not None else "-"
        latency = ", ".join(f"{role} {seconds:.1f} s" for role, seconds in self.gateway.mean_latency().items())
        return (
            f"accepted {accepted}/{self.wanted}, started {started}, acceptance {rate}, "
            f"tokens {tokens:,}, cost {cost:.4f} USD, ETA {eta_text}" + (f", a call takes {latency}" if latency else "")
        )

    def render(self) -> Any:
        from rich.table import Table

        table = Table(title="triad run", caption=self.status(), caption_justify="left")
        for column in ("cell", "wanted", "accepted", "started"):
            table.add_column(column, justify="left" if column == "cell" else "right")
        for cell in self.cells:
            name = cell_name(cell.question_type, cell.binary)
            table.add_row(name, str(cell.quota), str(self.accepted[name]), str(self.started[name]))
        return table

    def sample_done(self, slot: Slot, result: SampleResult) -> None:
        name = cell_name(slot.question_type, slot.binary)
        self.started[name] += 1
        self.accepted[name] += result.outcome == "accepted"
        if self._live is not None:
            self._live.update(self.render())
        elif self.lines:
            tell(f"[{slot.thread_id}] {name}: {result.outcome}  ({self.status()})")
