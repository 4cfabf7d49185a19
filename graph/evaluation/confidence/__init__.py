"""graph/evaluation/confidence."""
