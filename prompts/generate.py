"""generate_question: write one typed multi-hop question and its answer."""

RULES = """Requirements for every question:
- It is a query a user types into a search or RAG system. The retriever sees only the question, so it
  must be understandable without the chunks and name at least one explicit anchor entity. Never write
  "according to the text", "in the provided context", "the passage", "the document" or similar, and
  never use a pronoun whose referent is not in the question.
- It needs every supporting chunk: no single chunk may be enough to answer it. Check this for each
  chunk before you answer.
- The answer is short and factual: a name, number, date, place, short phrase or short list. It is
  unique, follows only from the chunks (no outside knowledge, no relation the chunks do not state), and
  the question does not give it away.
- One concise sentence.
"""

TYPE_INSTRUCTIONS = {
    "comparison": (
        "Question type: comparison (parallel retrieval). Compare two entities that come from different "
        "chunks on one attribute (a date, size, count, default value, rank, place, duration, role, ...). "
        'The result of the comparison must not be stated in any chunk. Shape: "Which is larger, the '
        'default of X or the default of Y?"'
    ),
    "intersection": (
        "Question type: intersection (parallel retrieval). The answer is the only entity that satisfies "
        'one condition taken from each chunk. Phrase it symmetrically ("Which ... both ... and ...?"), '
        'with no "also", "then" or "after".'
    ),
    "composition": (
        "Question type: composition (sequential retrieval). Chunk A identifies a hidden bridge entity and "
        "chunk B gives the answer about it. The bridge entity must NOT appear in the question. Shape: "
        '"What is the capital of the country where the CEO of Y was born?"'
    ),
}

BINARY_INSTRUCTIONS = {
    True: 'The question is a yes/no question: the answer is exactly "Yes" or "No".',
    False: "The question is not a yes/no question.",
}

SYSTEM = (
    "You write evaluation questions for retrieval-augmented generation systems.\n\n"
    + RULES
    + '\nReply with JSON only: {"question": str, "answer": str}.\n'
)

#: The task as both generation and revision state it.
TASK = """{type_instruction}
{binary_instruction}
Write it as {role} would ask it.
Bridging topic: {bridge_topic}
"""

USER = (
    TASK
    + """
Supporting chunks:
{chunks}
"""
)
