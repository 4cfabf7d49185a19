"""Ingestion: documents read and split into chunks with stable ids, embedded and written to a
PGVectorStore table.

May import store and config; never runs, llm or a command.
"""
