"""nodes of the triad sample graph."""
