"""What a run is asked for: its options (`options`), the stages a sample goes through (`stages`), the personas
it asks as (`personas`) and the languages it writes in (`languages`).

May import seeding, the ledger, store, config, nodes and state.
"""
