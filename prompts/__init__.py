"""prompts of the triad sample graph."""
