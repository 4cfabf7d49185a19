"""Runs: the composition root (`services`), a run from start to end (`job`) and the run.json it writes
(`run_json`), its options, flags and quotas, the slot worker that runs samples (`worker`), the sample runner
(`runner`), the run ledger, seeds, real queries and questions, the run's funnel, coverage and report,
and replays.

May import the run's folder, store, llm, ingestion, demo, config, the graph builder, nodes and state; never a
command.
"""
