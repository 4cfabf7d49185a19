"""graph/statistics."""
