"""Runs: the composition root (`services`), a run from start to end (`job`), its options and quota plan,
the lanes that run samples, the run store, seeds, real queries and questions, the run's files, funnel,
coverage and report, replays, and the Python API for one sample (`sample`).

May import store, llm, ingestion, demo, config, the graph builder, nodes and state; never a command.
"""
