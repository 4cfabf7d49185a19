"""state of the triad sample graph."""
