"""Scripted chat models: a fake chat model with structured output and injectable faults, and a
plausible script that answers every schema triad asks for. Tests, benchmarks and offline demo runs
use them (`--llm import:graph.testing.plausible:plausible_model`).

The scripted models import only nodes; the harness (one sample through the real graph), the command
helpers (the commands as a user runs them) and the provider stubs (`stubs/`) import what a run imports:
runs, llm, config, state.
"""
