"""Every example question the prompts show, with the names a copy of it would carry.

Real models copy a prompt's example verbatim, so each example is written so that a copy is refused by
lint (`nodes.lint.examples`): it holds placeholders (X, Y, Z, "..."), or names an entity no team's chunks
are likely to hold, or, when it names nothing, it is refused as it stands. The prompts quote these
constants; tests/unit/test_prompt_examples.py holds every quoted question of every prompt to this list.
The examples vary the attribute and the domain, so that no shape pulls a corpus towards one kind of fact.
"""

# -- generation: the type's shape, with placeholders ---------------------------------------------
COMPARISON = "Which has more members, X or Y?"
COMPARISON_THREE = "Which of X, Y and Z ...?"
COMPARISON_YES_NO = "Does X allow more connections than Y?"
INTERSECTION = "Which city hosted both X and Y?"
INTERSECTION_BOTH = "Is X both ... and ...?"
INTERSECTION_YES_NO = "Is the company that X founded listed in Y?"
COMPOSITION = "Which release introduced the setting that controls X?"
COMPOSITION_OTHER = "Where was the architect of Y born?"
COMPOSITION_YES_NO = "Was the architect of X born in Y?"
FACTUAL = "What is the default value of X?"
FACTUAL_OTHER = "Which release introduced Y?"
FACTUAL_YES_NO = "Is X enabled by default?"
PROCEDURAL = "How do you restore X from a base backup?"
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
    COMPARISON: (),
    COMPARISON_THREE: (),
    COMPARISON_YES_NO: (),
    INTERSECTION: (),
    INTERSECTION_BOTH: (),
    INTERSECTION_YES_NO: (),
    COMPOSITION: (),
    COMPOSITION_OTHER: (),
    COMPOSITION_YES_NO: (),
    FACTUAL: (),
    FACTUAL_OTHER: (),
    FACTUAL_YES_NO: (),
    PROCEDURAL: (),
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
