"""Human review of a run: its samples in the browser, labels in the state database, the paper's human-validation
table (`validation_table`)."""
