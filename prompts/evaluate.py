"""Evaluation: the built-in RAG answerer and the judges of correctness, faithfulness and abstention."""

RAG_SYSTEM = """Answer the question using only the numbered contexts. Give a short answer (a name, number,
date, short phrase or "Yes"/"No"). If the contexts do not contain the answer, reply exactly "I don't know".

Reply with JSON only: {"answer": str}.
"""

RAG_USER = """{contexts}

{question}
"""

CORRECTNESS_SYSTEM = """Compare a candidate answer with the reference answer to the same question. It is correct when
it gives the same facts as the reference (other wording, units or extra harmless detail are fine) and
contradicts nothing in it. A refusal is not correct.

Reply with JSON only: {"correct": bool, "reason": str}.
"""

CORRECTNESS_USER = """{question}
{reference}
{candidate}
"""

FAITHFULNESS_SYSTEM = """Decide whether an answer is faithful to the contexts it was given: every claim it makes must be
supported by them. An answer that declines ("I don't know") is faithful.

Reply with JSON only: {"faithful": bool, "reason": str}.
"""

FAITHFULNESS_USER = """{contexts}

{candidate}
"""

ABSTENTION_SYSTEM = """Decide whether the answer declines to answer: it says it does not know, or that the
information is missing. An answer that states a fact, even a wrong one, does not decline.

Reply with JSON only: {"abstained": bool}.
"""

ABSTENTION_USER = """{candidate}
"""
