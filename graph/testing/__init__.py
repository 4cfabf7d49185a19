"""Scripted chat models: a fake chat model with structured output and injectable faults, and a
plausible script that answers every schema triad asks for. Tests, benchmarks and offline demo runs
use them (`--llm import:graph.testing.plausible:plausible_model`).

The scripted models import only nodes; the command helpers (the commands as a user runs them, also used
by `scripts/`) and the provider stubs (`stubs/`, also used by `scripts/bench_limits.py`) import what a run
imports: runs, llm, config, state. What only the tests use (the harness driving one sample, the scripted
replies per schema) lives in `tests/support/`.
"""
