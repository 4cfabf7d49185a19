"""What a run is asked for: its options, each setting once (`options`) with its flag (`setting`), one invocation's
request and the run it works on (`request`), the cells and their quotas (`cells`), the stages a sample goes
through (`stages`), the personas it asks as (`personas`), the languages it writes in (`languages`) and the query
file it is seeded from (`query_file`).

May import seeding, the ledger, store, config, nodes and state.
"""
