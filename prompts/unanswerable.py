"""generate_unanswerable and judge_unanswerable: plausible questions the collection holds no answer to."""

GENERATE_SYSTEM = """You write unanswerable evaluation questions for retrieval-augmented generation systems:
questions a real user of a document collection could ask, about the collection's own subject, whose
answer the collection does not contain. A good RAG system must say it does not know.

You see a seed chunk and its nearest chunks from the collection. Write one question that:
1. Is about real entities the chunks name (a product, setting, person, organisation, event, place,
   work, ...), named explicitly, so a retriever given only the question would find these chunks.
2. Cannot be answered from the chunks, in one of two ways (say which in "kind"):
   - missing_attribute: it asks for a fact about a real entity that the chunks never state (a date,
     number, author, version, cause, ... that appears nowhere in them);
   - false_premise: it assumes something about real entities that the chunks never say (a relation,
     event or property built from real names), and asks about it.
3. Is plausible: a person working with this collection could well ask it. It is meaningful, in the
   collection's domain and register, and not a trick: no nonsense, no absurd combinations, no
   questions about the documents themselves.
4. Is not settled by the chunks: no chunk states the answer, and no chunk states that the premise is
   false (then the right reply would be a correction, not "I don't know").
5. Is understandable without the chunks: never refer to the material ("the text", "the passage",
   "the provided context") and use no pronoun whose referent the question does not name.
6. Is concise: one sentence, no filler.
Use no outside knowledge to decide what the chunks say; ask about what they leave out.

In "missing" say in one short sentence what the question needs that the chunks do not state.

Reply with JSON only: {"question": str, "kind": "missing_attribute" | "false_premise", "missing": str}.
"""

#: Appended to the generation request of a revision: the rejected draft and why.
REVISION = """
Your earlier draft was rejected:
{question}

Feedback:
{feedback}
Write a new question that fixes every problem the feedback names.
"""

GENERATE_USER = """Write it as {role} would ask it, in {language} (keep names and identifiers as the chunks
write them).
{revision}{style}
Seed chunk and its nearest chunks:
{chunks}

{closing}
"""

#: The last line of a first request, and of a revision's: the task, after the chunks.
GENERATE_CLOSING = (
    "Now write one question in {language} that these chunks cannot answer, with its kind and what is missing, as JSON."
)
REVISION_CLOSING = (
    "Now write a new question in {language} that fixes every problem the feedback above names and that these "
    "chunks cannot answer, with its kind and what is missing, as JSON."
)

JUDGE_SYSTEM = """You are a strict reviewer of unanswerable evaluation questions for retrieval systems. A
question is meant to be one that a real user of a document collection could ask but that the
collection does not answer. You see the question and the chunks the collection's own retriever
returned for it. Judge two things.

1. plausible. It holds only when all of these hold: the question is meaningful and not a trick; a
   person working with this collection could well ask it; it is understandable without the chunks;
   every entity it needs is named explicitly (no "the text", "the provided context", no pronoun or
   generic reference whose referent is not named); it is written in the language the request names
   (names and identifiers kept as the chunks write them are fine).

2. answerable. List what the question asks for. Then, for each retrieved chunk, check whether it
   states that answer, or states something that settles the question (for example that its premise
   is false, or a fact from which the answer follows directly). Check the chunks together as well:
   two chunks may answer it jointly. List the labels of every chunk that answers or settles it in
   answered_by; answerable is true when that list is not empty.

Use no outside knowledge: what the chunks do not state is not known. But do not call a chunk
irrelevant when it does state the answer in other words.

Set accepted to true only when plausible holds and answerable is false. When it is not accepted,
the reason says what fails and how to fix it (for example which chunk states the answer, so that a
revision asks about something no chunk states); when accepted, leave the reason empty.

Reply with JSON only: {"reasoning": str, "plausible": bool, "answered_by": [label], "answerable": bool,
"accepted": bool, "reason": str}.
"""

JUDGE_USER = """{question}
Language asked for: {language}

Chunks the retriever returned for it ({k}):
{chunks}

Now judge whether this question is plausible and unanswerable from these chunks, reasoning first, as JSON.
"""
