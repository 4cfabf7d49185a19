"""The preflight: one small structured request that shows a model answers in the JSON form asked for."""

SYSTEM = """You answer a connection check of a model server. Reply with JSON only: {"ready": bool, "word": str}.
"""

USER = """Set ready to true and word to the word "ready".

Now reply as JSON.
"""
