"""generate_question: write one typed question, its answer, and how it was built.

Multi-hop types (comparison, intersection, composition) combine several supporting chunks; single-hop
types (factual, procedural) are written from one chunk, with rules of their own (`SINGLE_HOP_RULES`).
"""

from prompts import examples

RULES = f"""Every question you write must meet all of these requirements.

1. It is a query for a retrieval system. The retriever sees the question and nothing else, so the
   question must make sense to someone who has never seen the chunks. Name at least one explicit
   anchor entity (a person, organisation, product, place, event, work, parameter, ...). Never refer
   to the material itself ("according to the text", "in the provided context", "the passage", "the
   document above", "mentioned above", "described here", "listed below", "in this collection") and
   never use a pronoun or generic phrase ("it", "they", "the company", "this setting") whose referent
   the question does not name; a pronoun whose referent the question names is fine. A description that
   pins one entity down through a named anchor ("the architect of the Sydney Opera House") is no
   generic phrase: a composition question describes its hidden entity so, and never names it.
2. It is multi-hop: answering it needs every supporting chunk. In your plan, test each chunk in
   turn: if the question could be answered without that chunk (from any one chunk alone, or, with
   more than two chunks, from all the others without it), rewrite the question.
   It is one question, not two: the chunks' facts combine into ONE answer. Two questions joined by
   "and" ("{examples.TWO_THINGS}"), each answered by a different chunk,
   are two single-hop questions, not a multi-hop one.
3. It is concise and clear: one sentence where possible, no filler words.
4. It does not leak its answer: the question neither states the answer nor copies a phrase from the
   chunks that gives the answer away. (In a comparison, naming the compared alternatives is the
   shape of the question, not a leak.)
5. The answer is short and factual: a name, number, date, place, short phrase or short list.
6. There is exactly one correct answer: the chunks hold no second answer that also fits, and the
   question has only one reasonable reading.
7. Everything comes from the chunks: use no outside knowledge, invent no facts, and do not infer a
   relation the chunks do not state. Comparing or intersecting values the chunks state is the
   reasoning the question is meant to need, not such an inference.
8. A yes/no answer rests on facts the chunks state. An answer of no needs a stated fact that
   contradicts the question (a different date, value, place, ...), never a fact the chunks leave out.

Reply with your plan first: the fact you take from each chunk (by its label) and how they combine
into the one answer. Then the question, the answer and the construction fields below; every field is
required (write an empty list where a field does not apply).

Also report how you built the question:
- comparison: compared_entities, the entities you compared, one per chunk, written exactly as the
  question names them;
- composition: hidden_entities, each intermediate entity of the chain (one for two chunks) with the
  label of the chunk that identifies it; none of them may appear in the question;
- otherwise leave both lists empty.
"""

REPLY_FORMAT = (
    'Reply with JSON only: {"plan": str, "question": str, "answer": str, "compared_entities": [str], '
    '"hidden_entities": [{"entity": str, "chunk": label}]}.\n'
)

TYPE_INSTRUCTIONS = {
    "comparison": (
        "Question type: comparison (parallel retrieval). Take one entity from each supporting chunk, every "
        "entity from a different chunk, and compare them on one attribute that each chunk states for its "
        "entity (a date, size, count, rank, place, duration, role, achievement, ...). No chunk may state the "
        "result of the comparison: it must be worked out from the chunks together. Name every compared "
        f'entity in the question. Shape: "{examples.COMPARISON}" (with three chunks: "{examples.COMPARISON_THREE}"); '
        "when it is not a yes/no question, the answer is one of the named alternatives, written as the question "
        f'names it. As a yes/no question: "{examples.COMPARISON_YES_NO}" (answered {{yes}} or {{no}})'
    ),
    "intersection": (
        "Question type: intersection (parallel retrieval). Each supporting chunk offers several candidate "
        "entities; the answer is the only entity that satisfies a condition taken from every chunk, and no "
        "chunk alone narrows the candidates down to it. Phrase it symmetrically, with all conditions side by "
        f'side ("{examples.INTERSECTION}"), never as a sequence ("also", "then", "after identifying"). '
        "As a yes/no question, pin the entity down through one chunk's condition and ask about a condition "
        f'another chunk settles: "{examples.INTERSECTION_YES_NO}" (answered {{yes}} or {{no}}): one chunk names '
        "the company X founded, the other states where that company is listed; a different place stated there "
        f'makes the answer {{no}}. "{examples.INTERSECTION_BOTH}" answered {{no}} is no intersection: the one '
        "chunk that contradicts a condition answers it alone."
    ),
    "composition": (
        "Question type: composition (sequential retrieval). The chunks form a chain: the first chunk "
        "identifies a hidden intermediate entity, each further chunk leads from the previous entity to the "
        "next, and the last chunk gives the answer about it. No intermediate entity may appear in the "
        "question; it can only be found by reasoning through the chain. The shared bridging topic may be "
        f'named (it is often the anchor). Shape: "{examples.COMPOSITION}", "{examples.COMPOSITION_OTHER}". '
        f'As a yes/no question: "{examples.COMPOSITION_YES_NO}" (answered {{yes}} or {{no}})'
    ),
}

#: Single-hop types: one supporting chunk, labelled A.
TYPE_INSTRUCTIONS |= {
    "factual": (
        "Question type: factual (one chunk). Ask for one fact that chunk A states: a value, name, date, place, "
        "default, limit, definition or relation. The question names what it is about (the anchor), so that a "
        f'retriever finds chunk A from the question alone. Shape: "{examples.FACTUAL}", "{examples.FACTUAL_OTHER}". '
        f'As a yes/no question: "{examples.FACTUAL_YES_NO}" (answered {{yes}} or {{no}})'
    ),
    "procedural": (
        "Question type: procedural (one chunk). Chunk A describes a task step by step; ask how to do that task, "
        "naming the task and what it applies to so that a retriever finds chunk A from the question alone. The "
        "answer gives the steps chunk A states, in its order, each in a few words (separate them with "
        f'"; "), leaving none out and adding none. Shape: "{examples.PROCEDURAL}"'
    ),
}

#: The answer form, by the sample's kind of answer: open, yes/no (either), or yes/no with the answer the run wants.
#: {yes} and {no} are the language's words, quoted ("Ja", "Nein").
BINARY_INSTRUCTIONS = {
    "open": "It is not a yes/no question: the answer is never {yes} or {no}.",
    "either": "It is a yes/no question in the type's yes/no shape, and the answer is exactly {yes} or {no}.",
    "yes": (
        "It is a yes/no question in the type's yes/no shape whose correct answer is {yes}: the facts the chunks "
        "state confirm it. The answer is exactly {yes}."
    ),
    "no": (
        "It is a yes/no question in the type's yes/no shape whose correct answer is {no}: a fact the chunks state "
        "(a different date, value, place, ...) contradicts it. The answer is exactly {no}."
    ),
}

#: How the task's last line repeats the answer asked for, by answer form.
ANSWER_NOTES = {"open": "", "either": "", "yes": ", answered {yes}", "no": ", answered {no}"}

SINGLE_HOP_RULES = """Every question you write must meet all of these requirements.

1. It is a query for a retrieval system. The retriever sees the question and nothing else, so the
   question must make sense to someone who has never seen the chunk. Name its anchor explicitly (the
   product, parameter, command, organisation, person, place, event or work it is about). Never refer
   to the material itself ("according to the text", "in the provided context", "the passage", "the
   document above", "mentioned above", "described here", "listed below") and never use a pronoun or
   generic phrase ("it", "they", "the company", "this setting") whose referent the question does not
   name.
2. It is answered by chunk A alone, and asks one thing: not two questions joined by "and".
3. It is specific: it could not be answered by a different passage of the same documents with another
   answer; name what sets its subject apart (a version, a component, a condition) where the chunk does.
4. It is concise and clear: one sentence where possible, no filler words.
5. It does not leak its answer: the question neither states the answer nor copies the phrase of the
   chunk that gives it away.
6. The answer is stated in chunk A: take it from there, as short as the question allows.
7. Everything comes from the chunk: use no outside knowledge and invent no facts.
8. A yes/no answer rests on facts the chunk states. An answer of no needs a stated fact that
   contradicts the question, never a fact the chunk leaves out.

Reply with your plan first: which statement of chunk A answers the question, and what the question
names so that a retriever finds it. Then the question, the answer and the construction fields below;
every field is required: leave compared_entities and hidden_entities empty.
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
