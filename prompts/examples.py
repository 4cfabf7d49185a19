"""The example questions the criteria and the judges show, with the names a copy of each would carry; a question
type's own examples stand in its block of `prompts.generate` (`TYPE_EXAMPLES`).

Real models copy a prompt's example verbatim, so each example is written so that a copy is refused by
lint (`nodes.lint.examples`): it holds placeholders (X, Y, Z, "..."), or names an entity no team's chunks
are likely to hold, or, when it names nothing, it is refused as it stands. The prompts quote these
constants; tests/unit/test_prompt_examples.py holds every question a prompt quotes to this list and the types'.
The examples vary the attribute and the domain, so that no shape pulls a corpus towards one kind of fact.
"""

# -- the criteria's: one question or two (an intersection's shape quotes the first) ------------------------
INTERSECTION = "Which city hosted both X and Y?"
TWO_THINGS = "Which setting controls X, and what is its default?"
SINGLE_HOP_TWO_THINGS = "What is X, and when was it added?"

# -- the judges' bad and good examples ----------------------------------------------------------
BAD_META = "According to the passage, when was it released?"
BAD_UNNAMED = "Which of the two companies in the text is older?"
BAD_NO_ANCHOR = "What award did the director of the film win?"
GOOD_COMPARISON = "Which river is longer, the Danube or the Dnieper?"
GOOD_COMPOSITION = "In which city was the architect of the Sydney Opera House born?"
BAD_PRONOUN = "What is its default value?"
BAD_PASSAGE = "What does the passage say about backups?"
GOOD_FACTUAL = "What is the default listener port of the Mosquitto broker?"
GOOD_PROCEDURAL = "How do you rotate the logs of an nginx server?"

#: Each example question, with the names a copy carries: a question naming one of them that no supporting
#: chunk names copies the example; the names are given as English, German, French and Spanish write them. An
#: example without names is refused when a question is the example itself.
EXAMPLES: dict[str, tuple[str, ...]] = {
    INTERSECTION: (),
    TWO_THINGS: (),
    SINGLE_HOP_TWO_THINGS: (),
    BAD_META: (),
    BAD_UNNAMED: (),
    BAD_NO_ANCHOR: (),
    GOOD_COMPARISON: ("Danube", "Dnieper", "Donau", "Dnjepr", "Danubio", "Dniéper", "Dniepr"),
    GOOD_COMPOSITION: (
        "Sydney Opera House",
        "Opernhaus von Sydney",
        "Opernhauses von Sydney",
        "Opéra de Sydney",
        "Ópera de Sídney",
    ),
    BAD_PRONOUN: (),
    BAD_PASSAGE: (),
    GOOD_FACTUAL: ("Mosquitto",),
    GOOD_PROCEDURAL: ("nginx",),
}
