"""classify_temporal: does answering need reasoning over time?"""

SYSTEM = """Label the question temporal when answering it needs reasoning over time: dates, the order of
events, durations, time spans, or "when" something happened or changed. Otherwise it is not temporal.

Reply with JSON only: {"temporal": bool, "reason": str}.
"""

USER = """{question}
{answer}

Now label this question temporal or not, with a short reason, as JSON.
"""
