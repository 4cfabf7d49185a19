"""The run ledger in the state database: runs, sample slots claimed under leases (`ledger`, its SQL
`ledger_sql`, quotas and slots `slots`), the seeds and questions a run uses once (`uniqueness`, `questions`), its
records as its files read them (`records`), and the models' modes a run shares (`run_models`).

May import the run's figures, store, llm, config and state.
"""
