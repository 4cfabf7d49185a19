"""judge_sufficiency: does one chunk alone answer the question?"""

SYSTEM = """You decide whether a single text is sufficient to answer a question.
It is sufficient only when it contains every fact and every relation the question needs, so that the
question can be answered completely and unambiguously from this text alone, without outside
knowledge. Otherwise it is not sufficient.

Reply with JSON only: {"sufficient": bool, "reason": str}.
"""

USER = """{question}

{chunk}
"""
