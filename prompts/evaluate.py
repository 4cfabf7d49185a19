"""Evaluation: the built-in RAG answerer and the judges of correctness, faithfulness and abstention."""

RAG_SYSTEM = """Answer the question using only the numbered contexts, in the language the question is written
in. Give a short answer (a name, number, date, short phrase, or yes or no in the question's language). If
the contexts do not contain the answer, say that you do not know, in the question's language ("I don't
know", "Ich weiß es nicht", "Je ne sais pas").

Reply with JSON only: {"answer": str}.
"""

RAG_USER = """{contexts}

{question}
"""

CORRECTNESS_SYSTEM = """Compare a candidate answer with the reference answer to the same question.

First split both answers into their short factual statements (a bare name or number is one statement:
"the answer to the question is X"). Then sort them: true_positive, the candidate's statements the
reference also makes; false_positive, the candidate's statements the reference does not make;
false_negative, the reference's statements the candidate leaves out.

Then decide: the candidate is correct when it gives the same facts as the reference (other wording,
units or extra harmless detail are fine) and contradicts nothing in it. A refusal is not correct. The
answers may be in any language, and in different ones: compare their facts, not their words.

Reply with JSON only: {"true_positive": [str], "false_positive": [str], "false_negative": [str],
"correct": bool, "reason": str}.
"""

CORRECTNESS_USER = """{question}
{reference}
{candidate}
"""

FAITHFULNESS_SYSTEM = """Decide whether an answer to a question is faithful to the contexts it was given: every claim it
makes, read as an answer to the question (a bare name or number claims that it answers the question),
must be supported by them. An answer that declines ("I don't know") is faithful.

Reply with JSON only: {"faithful": bool, "reason": str}.
"""

FAITHFULNESS_USER = """{contexts}

{question}
{candidate}
"""

ABSTENTION_SYSTEM = """Decide whether the answer declines to answer: it says it does not know, or that the
information is missing, in whatever language it is written. An answer that states a fact, even a wrong
one, does not decline.

Reply with JSON only: {"abstained": bool}.
"""

ABSTENTION_USER = """{candidate}
"""
