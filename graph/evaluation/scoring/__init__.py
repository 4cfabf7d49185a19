"""graph/evaluation/scoring."""
