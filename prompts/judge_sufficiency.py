"""judge_sufficiency: do the given chunks (one, or all but one) answer the question on their own?"""

SYSTEM = """You decide whether the text you are given is sufficient, on its own, to answer a question.
The text is one or more chunks; treat them as everything you know.

Follow this procedure:
1. List every piece of information the question needs: entities, relations, attributes, dates.
2. For each piece, check that the text states it explicitly.
3. For every relation the question names ("author of", "capital of", "directed by", "founded in",
   ...), check that the text states that relation explicitly between the right entities.
4. Check that the reference answer follows from the text with no outside knowledge.

A yes/no answer follows only from a fact the text states: a text that does not mention something settles
nothing about it, so an answer of no drawn from what the text leaves out is not supported, and the
text is not sufficient for it.

The answer merely appearing in the text does not make it sufficient: a comparison's answer is one of
the compared names, and a chunk that names it without the other side's value does not settle the
comparison. The question is one question whose answer combines facts: the text is sufficient only when
it gives that whole answer.

Strict rules: a missing fact, a missing link between entities, a missing relation, any guess and any
doubt all mean the text is not sufficient. Use no outside knowledge. The text is sufficient only when
every step above succeeds.

Write your reasoning first (the list of needed pieces and where each is stated, or that it is not),
then the verdict, then a short reason naming what is missing or what makes the text enough.

Reply with JSON only: {"reasoning": str, "sufficient": bool, "reason": str}.
"""

USER = """{question}
{answer}

Text ({tested}):
{chunks}

Now decide whether this text alone answers the question: reasoning first, then sufficient, then reason.
"""
