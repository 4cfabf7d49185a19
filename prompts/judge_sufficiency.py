"""judge_sufficiency: do the given chunks (one, or all but one) answer the question on their own?

The request says whether the question is a yes/no one and which answer it has (`YES_NO_LINES`), since what
makes a text sufficient for a "No" differs from what makes it sufficient for a "Yes".
"""

from prompts import criteria

SYSTEM = f"""You decide whether the text you are given is sufficient, on its own, to answer a question.
The text is one or more chunks; treat them as everything you know.

Follow this procedure:
1. List every piece of information the question needs: entities, relations, attributes, dates.
2. For each piece, check that the text states it explicitly.
3. For every relation the question names ("author of", "capital of", "directed by", "founded in",
   ...), check that the text states that relation explicitly between the right entities.
4. Check that the reference answer follows from the text with no outside knowledge.

For a yes/no question the request says which answer it has. {criteria.NO_FROM_STATED_FACT} So a text is
sufficient for an answer of no only when it states such a fact itself, and for an answer of yes only
when it states every fact that confirms the question.

The answer merely appearing in the text does not make it sufficient: a comparison's answer is one of
the compared names, and a chunk that names it without the other side's value does not settle the
comparison. The question is one question whose answer combines facts: the text is sufficient only when
it gives that whole answer.

{criteria.EVIDENCE_SHOWN} You are shown only the quotes of the text you are given.

{criteria.STRICT} A missing fact, a missing link between entities, a missing relation, any guess and any
doubt all mean the text is not sufficient. The text is sufficient only when every step above succeeds.

Write your reasoning first (the list of needed pieces and where each is stated, or that it is not),
then the verdict, then a short reason naming what is missing or what makes the text enough.

Reply with JSON only: {{"reasoning": str, "sufficient": bool, "reason": str}}.
"""

#: How the request says what kind of answer the question has; {answer} is the language's word, quoted.
YES_NO_LINES = {
    "open": "Yes/no question: no.",
    "yes": "Yes/no question: yes, answered {answer}: the text is sufficient only when it states every fact that "
    "confirms the question.",
    "no": "Yes/no question: yes, answered {answer}: the text is sufficient only when it states a fact that "
    "contradicts the question; a text that does not mention the point settles nothing.",
    "unread": "Yes/no question: yes, answered {answer}.",
}

USER = """{yes_no}

{question}
{answer}
{evidence}

Text ({tested}):
{chunks}

Now decide whether this text alone answers the question: reasoning first, then sufficient, then reason.
"""

#: The text named when it is every chunk the question rests on (its facts followed to the chunks of another cutting
#: of the same documents): whether those chunks together still answer it.
EVERY_CHUNK = "{tested}, every chunk the question rests on"

#: The reviser's feedback when a set of chunks answers the question without the others: {tested} names the set
#: ("chunk A alone answers"), {unneeded} the chunks it does without, {because} the judge's reason in brackets.
FEEDBACK = "{tested} the question without {unneeded}{because}; rewrite it so that it also needs the facts of {unneeded}"
