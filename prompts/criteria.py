"""Every criterion a prompt states, written once: the generator, the judges, the labellers and the restyle check
quote these constants, so a writer and its checker read the same words and no prompt says a rule its own way.

tests/unit/test_prompt_criteria.py names, for each criterion, the prompts that must state it, and holds every
prompt to it. The SPEC section of each criterion is named beside it.
"""

from prompts import examples, flow

# -- the quality criteria A-F (SPEC 2.8, stated by the generator too, 2.6) ----------------------------------------
CORRECT = flow(
    """A. Correctness: the question is meaningful, and has no contradiction, false assumption or
    nonsensical premise."""
)

ANSWERABLE = flow(
    """B. Answerable from the supporting chunks alone: every entity, fact and relation the question and
    the answer need is stated explicitly in the chunks. Nothing comes from outside knowledge, no fact is
    invented, and no relation the chunks do not state is inferred."""
)

#: B for a multi-hop question: what combining chunks is.
COMBINING_IS_REASONING = flow(
    """Comparing or intersecting values the chunks state (which date is earlier, which entity meets both
    conditions) is the reasoning a multi-hop question is meant to need, not such an inference."""
)

STANDALONE = flow(
    """C. Standalone retrieval clarity: the retriever sees the question and nothing else, so the
    question is understandable without the chunks, names at least one explicit anchor (a person,
    organisation, product, parameter, command, place, event, work, ...), and is specific enough that a
    retriever given only the question finds the supporting chunks rather than another passage of the same
    documents."""
)

#: C for a multi-hop question: a composition is found chunk by chunk.
SEQUENTIAL_ANCHOR = flow(
    """In a composition question (sequential retrieval) the anchor leads to the first chunk; the later
    chunks are reached through the hidden entity, by design."""
)

GROUNDED = flow(
    """D. Explicit entity grounding: every critical entity is named or pinned down. The question never
    refers to the material itself ("according to the text", "in the provided context", "the passage",
    "the document above", "mentioned above", "described here", "listed below") and holds no pronoun or
    generic phrase ("it", "they", "the company", "this setting") whose referent it does not name; a pronoun
    whose referent the question names is fine. A description that pins one entity down through a named
    anchor ("the architect of the Sydney Opera House") is no generic phrase."""
)

#: D for a multi-hop question: how a composition names its hidden entity.
HIDDEN_DESCRIBED = "A composition question describes its hidden entity so, and never names it."

#: How a "No" is supported (SPEC 2.6, 2.8 E, 2.9): the generator, the quality judge and the sufficiency judge.
NO_FROM_STATED_FACT = flow(
    """An answer of no rests on a fact the chunks state that contradicts the question (a
    different date, value, place, ...), never on something the chunks leave out: a text that does not
    mention something settles nothing about it."""
)

ANSWER_CORRECT = "E. Answer correctness: the reference answer is exactly what the chunks give."

#: E for a multi-hop question: a comparison's result is worked out, not read.
RECOMPUTED = "A comparison's result is recomputed from the value each chunk states."

#: SPEC 12: the language of the question and answer.
IN_LANGUAGE = flow(
    """F. Language: the question and the answer are written in the language the request names; names,
    identifiers and values kept as the chunks write them are fine. A question or an answer in another
    language, or in a mix of languages, fails."""
)

#: Criteria A-F of a multi-hop question, as its writer and its judge read them.
QUALITY_CRITERIA = "\n".join(
    (
        CORRECT,
        f"{ANSWERABLE} {COMBINING_IS_REASONING}",
        f"{STANDALONE} {SEQUENTIAL_ANCHOR}",
        f"{GROUNDED} {HIDDEN_DESCRIBED}",
        f"{ANSWER_CORRECT} {RECOMPUTED} {NO_FROM_STATED_FACT}",
        IN_LANGUAGE,
    )
)

#: Criteria A-F of a single-hop question (one supporting chunk): the same, without what only combining chunks needs.
SINGLE_HOP_QUALITY_CRITERIA = "\n".join(
    (CORRECT, ANSWERABLE, STANDALONE, GROUNDED, f"{ANSWER_CORRECT} {NO_FROM_STATED_FACT}", IN_LANGUAGE)
)

# -- what makes a question multi-hop, one question and unambiguous (SPEC 2.6, 2.8) --------------------------------
ONE_QUESTION = flow(
    f"""One question, not two: the question asks for one thing. It asks for one thing however many
    conditions it names ("{examples.INTERSECTION}" asks for one city), and a short list, a procedure or a
    comparison's result is one thing. Two questions joined by "and" ("{examples.TWO_THINGS}") ask for two
    things."""
)

MULTI_HOP = flow(
    """Multi-hop: the chunks' facts combine into the one answer, and answering needs every supporting
    chunk. If any single chunk, or, with more than two chunks, any set of all chunks but one, holds every
    piece of information the answer needs, the question is not multi-hop. Two questions in one, each
    answered by its own chunk, are two single-hop questions, not a multi-hop one."""
)

UNAMBIGUOUS = flow(
    """Unambiguous: the entities are clearly identifiable, the question has one reasonable reading, and
    the chunks support exactly one answer, with no second answer that also fits. Ambiguity in the question
    counts even when reading the chunks would resolve it."""
)

# -- what only a writer is told: the shape of a good draft (SPEC 2.6) ---------------------------------------------
CONCISE = flow("Concise and clear: one sentence where possible, no filler words.")

NO_LEAK = flow(
    """No answer leakage: the question neither states the answer nor copies a phrase from the chunks that
    gives the answer away. In a comparison, naming the compared alternatives is the shape of the question,
    not a leak."""
)

SHORT_ANSWER = flow("A short factual answer: a name, number, date, place, short phrase or short list.")

#: How every check decides when it is unsure (SPEC 2.8, 2.9).
STRICT = flow(
    """Strict rules: use no outside knowledge and assume no missing information. When you are uncertain
    whether something holds, it fails."""
)

# -- evidence (SPEC 19): the sentences an answer rests on ------------------------------------------------------
#: What a writer quotes.
EVIDENCE = flow(
    """Evidence: for each supporting chunk, copy word for word the sentence(s) of it that the answer needs,
    whole enough to name what they are about ("It defaults to 60 s" alone names nothing: copy the sentence
    that names it too). Each quote is checked against its chunk: one that does not stand in it, word for
    word, sends the draft back."""
)

#: What a judge is told of the quotes it is shown.
EVIDENCE_SHOWN = flow(
    """The draft comes with its evidence: the sentences of the chunks its writer says the answer rests on.
    They stand in their chunks word for word (that was checked); whether they state what the question
    needs is yours to judge, from the chunks."""
)

# -- relevance of a context (SPEC 2.12): one notion for every labeller --------------------------------------------
RELEVANT = flow(
    """A context is relevant when it states a fact the answer needs. A context that states the same fact as
    a supporting chunk is relevant too: it is another place where that fact stands. A context that is only
    about the same subject, or only names the same entities, is not relevant."""
)

# -- a restyled question keeps the canonical one's meaning (SPEC 16) ---------------------------------------------
SAME_REQUEST = flow(
    """same_request: a reader of the rewrite looks for exactly what the original asks for: the same
    entities, the same relation, the same constraints (dates, versions, conditions). Dropping a qualifier
    that picks out the answer, or adding one, changes the request."""
)

SAME_ANSWER = flow(
    """same_answer: the reference answer is the correct and complete answer to the rewrite too, and the
    rewrite does not state or give away the answer. A question answered by yes or no stays a question
    answered by yes or no, with the same answer."""
)

SAME_SOURCES = flow("same_sources: answering the rewrite needs the same supporting chunks as the original, no fewer.")

RESTYLE_CRITERIA = "\n".join(f"- {criterion}" for criterion in (SAME_REQUEST, SAME_ANSWER, SAME_SOURCES))
