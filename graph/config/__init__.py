"""Configuration every command shares: settings (flags > environment > triad.toml > defaults), the
errors a user can fix, logging, and command-line helpers.

Imports nothing of the project but the nodes' defaults and the roles of `state.usage`; the
environment is read here and nowhere else.
"""
