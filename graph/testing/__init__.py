"""Scripted chat models: a fake chat model with structured output and injectable faults, and a
plausible script that answers every schema triad asks for. Tests, benchmarks and offline demo runs
use them (`--llm import:graph.scripted:plausible_model`).

May import nodes; nothing else of the project.
"""
