"""Evaluation: the built-in RAG answerer and the judges of correctness, faithfulness and abstention.

An evaluation keeps its judgements under a digest of these templates and of the schemas its requests send
(`nodes.versions.EVALUATION_VERSION`), so that judgements made with other ones are never mixed with these.
"""

#: How an answer declines, in the languages whose words triad knows (the evaluation's abstention check reads
#: these without a judge); in any other language, that language's plain words for "I don't know".
DECLINES = {
    "en": "I don't know",
    "de": "Ich weiß es nicht",
    "fr": "Je ne sais pas",
    "es": "No lo sé",
    "ja": "わかりません",
}

_DECLINE_LIST = ", ".join(f'"{phrase}"' for phrase in DECLINES.values())

RAG_SYSTEM = f"""Answer the question using only the numbered contexts, in the language the question is written
in. Give a short answer (a name, number, date, short phrase, or yes or no in the question's language). If
the contexts do not contain the answer, decline: answer with the words for "I don't know" in the question's
language and nothing else ({_DECLINE_LIST}; in another language, its plain words for "I don't know").

Reply with JSON only: {{"answer": str}}.
"""

RAG_USER = """{contexts}

{question}

Now answer the question from the numbered contexts alone, as JSON.
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

Now sort both answers' statements and decide whether the candidate is correct, as JSON.
"""

FAITHFULNESS_SYSTEM = """Decide whether an answer to a question is faithful to the contexts it was given: every claim it
makes, read as an answer to the question (a bare name or number claims that it answers the question),
must be supported by them. An answer that declines ("I don't know", in any language) is faithful.

Reply with JSON only: {"faithful": bool, "reason": str}.
"""

FAITHFULNESS_USER = """{contexts}

{question}
{candidate}

Now decide whether every claim of the answer is supported by the contexts, as JSON.
"""

ABSTENTION_SYSTEM = """Decide whether the answer declines to answer: it says it does not know, or that the
information is missing, in whatever language it is written. An answer that states a fact, even a wrong
one, does not decline.

Reply with JSON only: {"abstained": bool}.
"""

ABSTENTION_USER = """{candidate}

Now decide whether this answer declines to answer, as JSON.
"""
