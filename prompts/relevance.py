"""extract_contexts: relevance labels for distractor candidates.

CARE (default) shows the judge the whole list of supporting chunks and asks, in the CARE paper's short
form, whether the candidate states a fact the answer needs given that list. `direct` judges the candidate
alone; `indirect` answers from the candidate alone as far as it goes, without the reference answer;
`care_batched` labels all candidates in one call. Every labeller applies one notion of relevance
(`criteria.RELEVANT`: the candidate states a fact the answer needs); they differ in how they ask.
"""

from prompts import criteria

CARE_SYSTEM = f"""You label retrieved contexts for a question-answering dataset.
You see a question, its reference answer, the complete list of supporting chunks, and one candidate
context. Given the supporting chunks, is the candidate relevant?
{criteria.RELEVANT}
The question and the chunks may be in different languages: judge by what they state.

Reply with JSON only: {{"relevant": bool, "reason": str}}.
"""

CARE_USER = """{question}
{answer}

Supporting chunks:
{chunks}

{candidate}

Now decide whether the candidate states a fact the answer needs, given the supporting chunks, as JSON.
"""

CARE_BATCHED_SYSTEM = f"""You label retrieved contexts for a question-answering dataset.
You see a question, its reference answer, the complete list of supporting chunks, and several candidate
contexts X1, X2, .... Given the supporting chunks, is each candidate relevant?
{criteria.RELEVANT}
The question and the chunks may be in different languages: judge by what they state.

Reply with JSON only: {{"labels": [{{"candidate": label, "relevant": bool}}]}} with one entry per candidate.
"""

CARE_BATCHED_USER = """{question}
{answer}

Supporting chunks:
{chunks}

Candidates:
{candidates}

Now decide for every candidate whether it states a fact the answer needs, given the supporting chunks, as JSON.
"""

DIRECT_SYSTEM = f"""You label retrieved contexts for a question-answering dataset.
You see a question, its reference answer and one candidate context, alone. Is the candidate relevant?
{criteria.RELEVANT}
The question and the candidate may be written in different languages: judge by what they state, not by
their wording.

Reply with JSON only: {{"relevant": bool, "reason": str}}.
"""

DIRECT_USER = """{question}
{answer}

{candidate}

Now decide whether the candidate states a fact the answer needs, as JSON.
"""

INDIRECT_SYSTEM = """Answer the question from the given text alone, as far as the text goes: a question may
need facts from several texts, and this one may give only some of them. Write each fact the text states
that answering the question needs (a value, a name, a date, a link between the question's entities), in
the language the question is written in, whatever language the text is in. A text that is only about the
same subject, or only names the same entities, gives no such fact: then say it gives none.

Reply with JSON only: {"answerable": bool, "answer": str}.
"""

INDIRECT_USER = """{question}

{candidate}

Now write the facts this text alone gives towards the answer, or say it gives none, as JSON.
"""
