"""Evaluation of RAG setups on a generated dataset (SPEC sections 7 and 20): setups, scoring, intervals and paired
comparisons, sweeps, the gate, the report.

`evaluate` (`graph.evaluation.api`) is the whole evaluation as one function, what `python -m graph.evaluate` runs.

May import runs (its services and the dataset reader), store, llm, config, nodes, state and prompts.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`evaluate` and `Evaluation`, imported when first asked for: importing one module of the package does not
    import them all."""
    if name in ("evaluate", "Evaluation"):
        from graph.evaluation import api

        return getattr(api, name)
    raise AttributeError(name)
