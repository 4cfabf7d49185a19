"""graph/evaluation/answering."""
