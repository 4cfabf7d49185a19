"""The work loop of a run: a run from start to end (`job`) and the run.json it writes (`run_json`), the slot
worker that runs samples (`worker`), the sample runner (`runner`), the lanes that share a budget (`lanes`),
progress, failures alike and outages, real queries (`queries`), the command's flags (`flags`), the estimate,
replays and the dataset files read back (`dataset`).

May import the composition root (`graph.services`), planning, seeding, the ledger, the run's figures and folder,
store, llm, ingestion, demo, config, the graph builder, nodes and state; never a command.
"""
