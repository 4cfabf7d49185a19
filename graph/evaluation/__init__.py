"""Evaluation of RAG setups on a generated dataset (SPEC section 7): setups, scoring, the summary.

May import runs (its services and the dataset reader), store, llm, config, nodes, state and prompts.
"""
