"""Where a run's samples start: the seeds it claims (`seeds`) and the weights of their documents (`weights`).

May import the ledger, the run's figures, store, config and state.
"""
