"""generate_question: write one typed question, its answer, and how it was built.

Multi-hop types (comparison, intersection, composition) combine several supporting chunks; single-hop
types (factual, procedural) are written from one chunk, with rules of their own (`SINGLE_HOP_RULES`). Every
criterion is quoted from `prompts.criteria`, where the judges read it in the same words. Each question type's
texts are one block here: what it is, its example questions, its shapes, and what a draft's plan and answer hold.
"""

from prompts import criteria, examples, flow

RULES = f"""Every question you write must meet all of these requirements.

Quality (the quality judge checks criteria A-F in these words):
{criteria.QUALITY_CRITERIA}

{criteria.MULTI_HOP}
In your plan, test each chunk in turn: while the question can be answered without one of them, rewrite it.

{criteria.ONE_QUESTION}

{criteria.UNAMBIGUOUS}

{criteria.CONCISE}

{criteria.NO_LEAK}

{criteria.SHORT_ANSWER}

{criteria.EVIDENCE}

Reply with your plan first, holding what the plan field asks for the question's type. Then the question,
the answer, the evidence and the construction fields below; every field is required (write an empty list
where a field does not apply).

Also report how you built the question:
- comparison: compared_entities, the entities you compared, one per chunk, written exactly as the
  question names them;
- composition: hidden_entities, each intermediate entity of the chain (one for two chunks) with the
  label of the chunk that identifies it; none of them may appear in the question;
- otherwise leave both lists empty.
"""

REPLY_FORMAT = (
    'Reply with JSON only: {"plan": str, "question": str, "answer": str, "evidence": [{"chunk": label, '
    '"quote": str}], "compared_entities": [str], "hidden_entities": [{"entity": str, "chunk": label}]}.\n'
)

# -- the question types, one block each (SPEC 2.6, 15) --------------------------------------------------------------
# A type's definition says what it is, as the writer reads it here and the quality judge through the registry
# (`nodes.question_types`); its example questions are those its shapes quote (lint refuses a copy of each, from
# `TYPE_EXAMPLES`); its shapes are the one a cell's request shows, open or yes/no ({yes} and {no}: the language's
# words, quoted); its plan and answer describe a draft's `plan` and `answer` fields. The plan is written first, so
# that the necessity test (multi-hop types) or the finding of the one statement (single-hop types) comes before
# the question.

# comparison
COMPARISON_DEFINITION = flow(
    """comparison (parallel retrieval): one entity from each supporting chunk, every entity from a
    different chunk, compared on one attribute that each chunk states for its entity (a date, size, count,
    rank, place, duration, role, achievement, ...). No chunk states the result of the comparison: it is
    worked out from the chunks together. The question names every compared entity."""
)
COMPARISON_EXAMPLE = "Which has more members, X or Y?"
COMPARISON_THREE_EXAMPLE = "Which of X, Y and Z ...?"
COMPARISON_YES_NO_EXAMPLE = "Does X allow more connections than Y?"
COMPARISON_SHAPE = (
    f'Shape: "{COMPARISON_EXAMPLE}" (with three chunks: "{COMPARISON_THREE_EXAMPLE}"); the answer is one '
    "of the named alternatives, written as the question names it."
)
COMPARISON_YES_NO_SHAPE = f'Shape: "{COMPARISON_YES_NO_EXAMPLE}" (answered {{yes}} or {{no}}).'
COMPARISON_PLAN = (
    "Before the question: for each chunk (by its label), the entity it gives and the value it states "
    "for the compared attribute; which entity the comparison picks; and why no chunk alone (nor all chunks but "
    "one) settles the comparison."
)
COMPARISON_ANSWER = (
    "The short factual answer: one of the compared entities, as the question names it, or the yes/no word."
)

# intersection
INTERSECTION_DEFINITION = flow(
    """intersection (parallel retrieval): each supporting chunk offers several candidate entities; the
    answer is the only entity that satisfies a condition taken from every chunk, and no chunk alone narrows
    the candidates down to it. The conditions stand side by side, never as a sequence ("also", "then",
    "after identifying")."""
)
INTERSECTION_BOTH_EXAMPLE = "Is X both ... and ...?"
INTERSECTION_YES_NO_EXAMPLE = "Is the company that X founded listed in Y?"
#: What a yes/no intersection must do besides, as the writer is asked for one and the judge reads it.
INTERSECTION_YES_NO_NOTE = flow(
    f"""A yes/no intersection pins the entity down through one chunk's condition and asks about a
    condition another chunk settles: one chunk names the company X founded, the other states where that
    company is listed, and a different place stated there makes the answer no. "{INTERSECTION_BOTH_EXAMPLE}"
    answered no is no intersection: the one chunk that contradicts a condition answers it alone."""
)
#: The open shape quotes the example the one-question criterion quotes too.
INTERSECTION_SHAPE = f'Shape: "{examples.INTERSECTION}".'
INTERSECTION_YES_NO_SHAPE = (
    f'Shape: "{INTERSECTION_YES_NO_EXAMPLE}" (answered {{yes}} or {{no}}).\n' + INTERSECTION_YES_NO_NOTE
)
INTERSECTION_PLAN = (
    "Before the question: for each chunk (by its label), the condition it states and the candidates "
    "that meet it; the one entity that meets every condition; and why no chunk alone (nor all chunks but one) "
    "narrows the candidates down to it."
)
INTERSECTION_ANSWER = "The short factual answer: the one entity that meets every condition, or the yes/no word."

# composition
COMPOSITION_DEFINITION = flow(
    """composition (sequential retrieval): the chunks form a chain. The first chunk identifies a hidden
    intermediate entity, each further chunk leads from the previous entity to the next, and the last chunk
    gives the answer about it. No intermediate entity appears in the question; it is found only by
    reasoning through the chain. The shared bridging topic may be named (it is often the anchor)."""
)
COMPOSITION_EXAMPLE = "Which release introduced the setting that controls X?"
COMPOSITION_OTHER_EXAMPLE = "Where was the architect of Y born?"
COMPOSITION_YES_NO_EXAMPLE = "Was the architect of X born in Y?"
COMPOSITION_SHAPE = f'Shape: "{COMPOSITION_EXAMPLE}", "{COMPOSITION_OTHER_EXAMPLE}".'
COMPOSITION_YES_NO_SHAPE = f'Shape: "{COMPOSITION_YES_NO_EXAMPLE}" (answered {{yes}} or {{no}}).'
COMPOSITION_PLAN = (
    "Before the question: the chain, chunk by chunk (by its label): the hidden entity the first chunk "
    "identifies from the anchor, each further link, and the answer the last chunk gives; and why no chunk alone "
    "(nor all chunks but one) gives that answer."
)
COMPOSITION_ANSWER = "The short factual answer that the last chunk of the chain gives, or the yes/no word."

# factual
FACTUAL_DEFINITION = flow(
    """factual (one chunk): one fact that chunk A states (a value, name, date, place, default, limit,
    definition or relation), asked so that a retriever finds chunk A from the question alone."""
)
FACTUAL_EXAMPLE = "What is the default value of X?"
FACTUAL_OTHER_EXAMPLE = "Which release introduced Y?"
FACTUAL_YES_NO_EXAMPLE = "Is X enabled by default?"
FACTUAL_SHAPE = f'Shape: "{FACTUAL_EXAMPLE}", "{FACTUAL_OTHER_EXAMPLE}".'
FACTUAL_YES_NO_SHAPE = f'Shape: "{FACTUAL_YES_NO_EXAMPLE}" (answered {{yes}} or {{no}}).'
FACTUAL_PLAN = (
    "Before the question: the statement of chunk A that answers it, and what the question names so that "
    "a retriever finds chunk A."
)
FACTUAL_ANSWER = "The short factual answer that chunk A states, or the yes/no word."

# procedural
PROCEDURAL_DEFINITION = flow(
    """procedural (one chunk): how to do a task that chunk A describes step by step, naming the task and
    what it applies to so that a retriever finds chunk A from the question alone. The answer gives the
    steps chunk A states, in its order, each in a few words, none left out and none added."""
)
PROCEDURAL_EXAMPLE = "How do you restore X from a base backup?"
PROCEDURAL_SHAPE = f'Shape: "{PROCEDURAL_EXAMPLE}"; the answer separates the steps with "; ".'
PROCEDURAL_PLAN = (
    "Before the question: the task chunk A describes, its steps in the chunk's order, and what the "
    "question names so that a retriever finds chunk A."
)
PROCEDURAL_ANSWER = 'The steps chunk A states, in its order, each in a few words, separated by "; ".'

#: Every example question the types' texts quote.
TYPE_EXAMPLES = (
    COMPARISON_EXAMPLE,
    COMPARISON_THREE_EXAMPLE,
    COMPARISON_YES_NO_EXAMPLE,
    INTERSECTION_BOTH_EXAMPLE,
    INTERSECTION_YES_NO_EXAMPLE,
    COMPOSITION_EXAMPLE,
    COMPOSITION_OTHER_EXAMPLE,
    COMPOSITION_YES_NO_EXAMPLE,
    FACTUAL_EXAMPLE,
    FACTUAL_OTHER_EXAMPLE,
    FACTUAL_YES_NO_EXAMPLE,
    PROCEDURAL_EXAMPLE,
)


def type_instruction(definition: str, shape: str) -> str:
    """The question type as a cell's request states it: what the type is, then the one shape the cell wants."""
    return f"Question type: {definition}\n{shape}"


#: The answer form, by the sample's kind of answer: open, yes/no (either), or yes/no with the answer the run wants.
#: {yes} and {no} are the language's words, quoted ("Ja", "Nein").
BINARY_INSTRUCTIONS = {
    "open": "It is not a yes/no question: the answer is never {yes} or {no}.",
    "either": "It is a yes/no question in the shape above, and the answer is exactly {yes} or {no}.",
    "yes": (
        "It is a yes/no question in the shape above whose correct answer is {yes}: the facts the chunks state "
        "confirm it. The answer is exactly {yes}."
    ),
    "no": (
        "It is a yes/no question in the shape above whose correct answer is {no}: a fact the chunks state "
        "contradicts it (criterion E). The answer is exactly {no}."
    ),
}

#: How the task's last line repeats the answer asked for, by answer form.
ANSWER_NOTES = {"open": "", "either": "", "yes": ", answered {yes}", "no": ", answered {no}"}

SINGLE_HOP_RULES = f"""Every question you write must meet all of these requirements. The question is single-hop:
its one supporting chunk, A, answers it alone.

Quality (the quality judge checks criteria A-F in these words):
{criteria.SINGLE_HOP_QUALITY_CRITERIA}

{criteria.ONE_QUESTION}

{criteria.UNAMBIGUOUS}

{criteria.CONCISE}

{criteria.NO_LEAK}

{criteria.EVIDENCE}

Reply with your plan first, holding what the plan field asks for the question's type. Then the question,
the answer, the evidence (from chunk A) and the construction fields below; every field is required: leave
compared_entities and hidden_entities empty.
"""

SINGLE_HOP_SYSTEM = (
    "You write evaluation questions for retrieval-augmented generation systems.\n\n"
    + SINGLE_HOP_RULES
    + "\n"
    + REPLY_FORMAT
)

#: A single-hop task, as generation and revision state it.
SINGLE_HOP_TASK = """{type_instruction}
{binary_instruction}
Language: write the question and the answer in {language}, whatever language the chunk is in; keep
names, identifiers and values as the chunk writes them.
Write it as {role} would ask it.
"""

SINGLE_HOP_RESTATED = (
    "Now write the plan, then one {question_type} question in {language} answered by chunk A{answer_note}, as JSON.\n"
)

SINGLE_HOP_USER = (
    SINGLE_HOP_TASK
    + """{style}
Supporting chunk:
{chunks}

"""
    + SINGLE_HOP_RESTATED
)

#: How a request names a language's yes and no when triad has no words for them.
UNKNOWN_YES_NO = ('the {language} word for "yes"', 'the {language} word for "no"')

SYSTEM = "You write evaluation questions for retrieval-augmented generation systems.\n\n" + RULES + "\n" + REPLY_FORMAT

#: The task as both generation and revision state it.
TASK = """{type_instruction}
{binary_instruction}
Language: write the question and the answer in {language}, whatever language the chunks are in; keep
names, identifiers and values as the chunks write them.
Write it as {role} would ask it.
Supporting chunks: {hops} ({labels}); the question needs every one of them.
Bridging topic: {bridge_topic}
"""

#: The last line of a generation or revision request: the task again, after the long chunks.
RESTATED = (
    "Now write the plan, then one {question_type} question in {language} that needs every supporting chunk"
    "{answer_note}, as JSON.\n"
)

USER = (
    TASK
    + """{style}
Supporting chunks:
{chunks}

"""
    + RESTATED
)

#: Put before the chunks of a generation or revision request with `--role-from-queries`: a real query's wording.
STYLE = """
A real user of this collection once asked the question below. Write in its register: its wording,
length and tone. It is a style example only: take no fact, entity or claim from it.
{example}
"""
