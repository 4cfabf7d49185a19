"""restyle_question and check_restyle: the validated question asked as a team's users type it, and the check that
it still asks the same thing.

The writer sees the canonical question, its answer (so it can keep the answer out) and the query style's
instruction; the checker sees both questions, the answer and the supporting chunks, and decides whether
the restyled one asks for the same thing, has the same answer and needs the same chunks.
"""

from prompts import criteria

#: What each query style asks of the writer (keys are `state.query_styles.QUERY_STYLES`).
STYLE_INSTRUCTIONS = {
    "keyword": (
        "Write it as a search-box query: only the key terms a user would type, in the order they come to mind, "
        "without a question sentence and without a question mark. Keep every name, number, date and qualifier "
        "that picks out the answer; drop the words that only make it a sentence."
    ),
    "short": (
        "Write it in as few words as still ask exactly the same question: drop courtesy words and repeated "
        "context, keep every name, number, date and qualifier that picks out the answer."
    ),
    "verbose": (
        "Put the question inside one or two sentences about the asker's situation: why they need it, what they "
        "were doing. The situation must not add a fact, a condition or a constraint that changes what is asked "
        "or what the answer is, and must not name the answer."
    ),
    "misspelled": (
        "Type it as a hurried user does: two to four realistic typing mistakes (a swapped, doubled or missing "
        "letter), accents or capitals left out. Names may lose a letter or their accents but stay recognisable; "
        "numbers, dates and versions stay exactly as they are."
    ),
    "poor-grammar": (
        "Write it with broken grammar, as a hurried or non-native writer types: missing articles, wrong verb "
        "forms or word order. Every name, number, date and qualifier stays, and the meaning stays the same."
    ),
    "follow-up": (
        "Write it as the last turn of a short chat. In first_turn, the user's opening message names the entity "
        "the question is about, as the question names it, without asking the question. In assistant_turn, the "
        "assistant acknowledges it in a few words and states no fact. In question, the user asks the question as "
        "a follow-up that refers back to that entity with a pronoun or a short reference instead of naming it "
        "again; everything else the question needs stays in it."
    ),
}

WRITE_SYSTEM = f"""You rewrite a question that has been checked and accepted, so that it reads the way real users
of a document collection type their questions. The rewrite is used to test a search system, and a check
holds it to the original on three criteria:
{criteria.RESTYLE_CRITERIA}

Rules that hold for every style:
- Keep every entity, number, date, version and qualifier that identifies what is asked. Add none.
- Never state or hint at the answer, and never mention documents, texts, passages or chunks.
- Write in the language you are told, as a speaker of that language types it.
- Write as the asker you are told about would write, without saying who they are.

Write first, in one sentence, what you change and what you keep; then the rewritten question. Leave
first_turn and assistant_turn empty unless the style asks for a conversation.

Reply with JSON only: {{"changes": str, "first_turn": str, "assistant_turn": str, "question": str}}.
"""

WRITE_USER = """Asker: {asker}
Language: {language}
Style: {style}
{instruction}

{question}
{answer}
{feedback}
Now rewrite the question in this style, in {language}: first what you change and keep, then the question, as JSON.
"""

#: The part of WRITE_USER that carries a failed rewrite and its check's verdict, for the second try.
FEEDBACK = """
The previous rewrite was refused:
{restyled}
Why: {reason}
Write a new rewrite that fixes this and keeps to the style.
"""

CHECK_SYSTEM = f"""You check a rewritten question against the original question it was made from.
The rewrite is meant to ask the same thing in another style (key terms only, fewer words, more words about
the asker's situation, typing mistakes, broken grammar, or a short conversation whose last user turn asks it
as a follow-up; then read the whole conversation as the rewrite). Style alone is never a reason to refuse it: a
rewrite with typos, no question mark or broken grammar is fine as long as its meaning is the same.

Decide, using the supporting chunks as the only facts:
{criteria.RESTYLE_CRITERIA}
- in_style: the rewrite reads as the style asks and is not a copy of the original.

Write your reasoning first: what each question asks, which words changed, and whether any change alters the
request, the answer or the chunks needed. Then the four booleans, then accepted, true only when all four
hold, then a short reason naming what changed the meaning and how to fix it (empty when accepted).

Reply with JSON only: {{"reasoning": str, "same_request": bool, "same_answer": bool, "same_sources": bool,
"in_style": bool, "accepted": bool, "reason": str}}.
"""

CHECK_USER = """Style: {style} ({description})
Language: {language}

{question}
{restyled}
{answer}

Supporting chunks:
{chunks}

Now decide whether the rewrite asks the same thing with the same answer from the same chunks: reasoning first,
then same_request, same_answer, same_sources, in_style, accepted and reason, as JSON.
"""

#: The reference answer of a generated unanswerable question, which the documents do not answer.
NO_ANSWER = "none: the documents hold no answer to it (the question asks for {missing})"
