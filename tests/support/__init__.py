"""Helpers only the tests use: a sample driven through the real graph, scripted replies per structured schema."""
