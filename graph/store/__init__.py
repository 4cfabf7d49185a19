"""The databases: the embedded PostgreSQL server and URLs, the user's vector store (read-only), the
embedding models, and the checkpointer of sample threads.

May import graph.config and nodes; never runs, llm or a command.
"""
