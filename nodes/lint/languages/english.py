"""What lint knows of English: phrases pointing at the material, second questions, opening pronouns,
articles, abbreviations and the word that joins a comparison's alternatives."""

from __future__ import annotations

import re

from nodes.lint.rules import LintRules, alternatives, coordinated_clauses, second_questions

# Nouns that can only mean the material a question was written from, after "mentioned in the" and alike.
_TEXT = r"(?:texts?|passages?|contexts?|chunks?|excerpts?|snippets?)"
# Nouns that also name things of a domain ("the document that founded the league", "the source server").
_MATERIAL = rf"(?:{_TEXT}|documents?|information|materials?|sources?|paragraphs?|articles?|data)"
_POINTING = r"(?:provided|given|above|following|preceding|supplied|accompanying|attached|aforementioned)"
_POINTED_AT = (
    r"(?:according\s+to|mentioned\s+in|stated\s+in|described\s+in|based\s+on|referred\s+to\s+in|discussed\s+in|"
    r"listed\s+in|named\s+in|given\s+in|found\s+in|shown\s+in|illustrated\s+in|presented\s+in|explained\s+in|"
    r"outlined\s+in|noted\s+in|seen\s+in)\s+(?:the|this|these)\s+"
)
# Participles that say the material names a thing; after one, what shows no source is named: the clause ends, a
# relative clause or the main verb follows.
_REFERRED = r"(?:mentioned|listed|described|cited|referenced|discussed)"
_NO_SOURCE = (
    r"(?=\s*(?:[,.;:?!)]|$)|\s+(?:that|which|who|whose|controls?|sets?|has|have|is|are|was|were|does|"
    r"do|did|can|could|uses?|runs?|limits?|shows?)\b)"
)
# Where a phrase that points at the material ends: the clause ends, or it says where the material is.
_ENDS = r"(?=\s*(?:[,.;:?!)]|$)|\s+(?:above|below)\b)"

# An ordinary finite verb: a past in "-ed" (composed, introduced; not "speed") or a common irregular one; a present
# in "-s" (maintains, selects; the auxiliaries are `second_question`'s), which after a noun could also be a plural
# noun of a compound ("what error codes exist"), so there it counts only where an object, a name or the end follows.
_EN_PAST = (
    r"(?:[a-z]{2,}(?<!e)ed|wrote|rewrote|won|made|took|gave|began|ran|led|held|built|sent|found|became|chose|drew|"
    r"grew|knew|left|lost|met|paid|said|sold|spoke|stood|told|thought|brought|bought|caught|taught|came|went|saw|"
    r"oversaw|broke|fell|flew|forgot|kept|meant|rose|sang|shot|spent|struck|threw|understood|wore|sought|stole|"
    r"swore|tore|withdrew|upheld|undertook|forbade)\b"
)
_EN_PRESENT = r"(?!(?:was|has|does|is)\b)[a-z][a-z'’-]*[^\Ws']s\b"
_EN_OBJECT = (
    r"(?=\s+(?:the|a|an|its|their|his|her|it|them|this|these|that|those|to|on|in|at|for|by|from|with|into|over|"
    r"when|if|whether|all|each|every|no|both|any|some)\b|\s+[\"'“«(\d]|\s+(?-i:\S*[A-Z0-9_./@-])|\s*[?,.;:!]|\s*$)"
)
_EN_NOT_NOUN = (
    r"the|a|an|its|their|his|her|it|they|them|he|she|this|these|that|those|each|every|of|in|on|at|by|for|to|with|"
    r"from|is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|may|might|must"
)

ENGLISH = LintRules(
    meta_references=(
        # "the provided text", "this given context", "in provided documents", "the above passage"
        re.compile(rf"\b(?:the|this|these|those|in|from|on|using)\s+{_POINTING}\s+{_MATERIAL}\b", re.IGNORECASE),
        # "the passages above", "the text provided?", "the examples above", "the table below"
        re.compile(
            rf"\bthe\s+(?:{_MATERIAL}|examples?|tables?|figures?|lists?)\s+"
            r"(?:above|below|(?:provided|given|supplied)(?=\s*(?:[,.;:?!]|$)))",
            re.I,
        ),
        # "according to the document,", "named in these sources?"
        re.compile(rf"\b{_POINTED_AT}{_MATERIAL}{_ENDS}", re.IGNORECASE),
        # "mentioned in the passage hosted ...", "according to the text, ...": not "the text of the treaty"
        re.compile(
            rf"\b{_POINTED_AT}{_TEXT}\b(?!\s+(?:of|messages?|types?|box|boxes|field|fields|files?|editor|size|mode)\b)",
            re.I,
        ),
        # "Does the passage say ...", "what this text states"
        re.compile(rf"\b(?:the|this)\s+{_TEXT}\s+(?:says?|states?|mentions?|describes?|claims?|suggests?)\b", re.I),
        # "In the passage, which ..."
        re.compile(rf"^(?:in|from)\s+(?:the|this)\s+{_TEXT}\s*,", re.IGNORECASE),
        # Phrases that can only point back at the material: "mentioned above", "described here", "listed below".
        # Not "... earlier": "Which city was named earlier", "Which company was listed earlier" are comparisons.
        re.compile(
            r"\b(?:mentioned|described|listed|named|stated|given|discussed|cited|quoted)\s+(?:above|below|here)\b"
            r"|\bthe\s+(?:aforementioned|abovementioned|above-mentioned)\b",
            re.IGNORECASE,
        ),
        # What the material mentions, with no source named: "Is there a ferry operator mentioned that ...",
        # "Which of the settings listed controls ...", "Which ports are mentioned?"; not "the ferry listed in the
        # 1962 timetable", "Which setting is described in the release notes".
        re.compile(
            rf"\b(?:a|an|any|the|one|some|of\s+the)\s+(?:[\w-]+\s+){{1,3}}?{_REFERRED}{_NO_SOURCE}", re.IGNORECASE
        ),
        re.compile(rf"\b(?:is|are|was|were|been|being)\s+{_REFERRED}{_NO_SOURCE}", re.IGNORECASE),
        # The material as a whole: "in the documents?", "across these excerpts,"; not "in the documents of the
        # treaty", "in the collection when the museum opened"
        re.compile(
            r"\b(?:in|from|across|within|throughout|among)\s+(?:the|these)\s+"
            rf"(?:documents|excerpts|snippets|passages)(?:{_NO_SOURCE}|(?=\s+(?:above|below|provided|given|lists?|names?)\b))",
            re.IGNORECASE,
        ),
        re.compile(r"\bthis\s+(?:collection|corpus)\b", re.IGNORECASE),
    ),
    interrogative=re.compile(
        r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|can|could)\b",
        re.IGNORECASE,
    ),
    second_question=second_questions(
        coordinators=r"and|or|but|also",
        prepositions=r"in|on|at|by|for|from|to|with|since|until|after|before|under|through",
        # "whose" opens a relative clause as often as a question ("the ship that sank and whose captain was ...").
        wh_words=r"what|who|whom|when|where|why|how(?:\s+(?:many|much|long|often|old|large|far|big))?",
        wh_phrases=r"which|what|how\s+(?:many|much)",
        finite=r"is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|shall|may|might|must",
        # the subject of an inverted clause: "is its default", "was Baltic Star founded", "does it take"
        after_finite=r"(?:it|its|they|their|he|his|she|her|there|this|these|that|those|the|a|an)\b|(?-i:[A-Z0-9])",
    ),
    # "and who composed its score", "and what option selects the archive command"
    second_clause=coordinated_clauses(
        coordinators=r"and|or|but",
        bare=rf"who\s+(?:{_EN_PRESENT}|{_EN_PAST})|what\s+{_EN_PAST}",
        determiners=r"which|what",
        # a name or an identifier is the subject of an indirect question ("and what unit pg_size_pretty uses")
        noun=rf"(?!(?:{_EN_NOT_NOUN})\b)(?-i:[a-z][a-z'’-]*)\b",
        verb=rf"{_EN_PRESENT}{_EN_OBJECT}|{_EN_PAST}",
    ),
    opening=re.compile(
        r"^\W*(?:(?:in|on|at|by|for|from|to|with|since|until|after|before|under|through)\s+)?"
        r"(?:what|which|who|whom|whose|when|where|why|how)\b",
        re.IGNORECASE,
    ),
    continued=re.compile(r"\b(?:who|whom|whose|which|that|what|where|when|why|how|whether)\b", re.IGNORECASE),
    pronouns=frozenset(
        {"it", "its", "they", "them", "their", "he", "him", "his", "she", "her", "this", "these", "those"}
    ),
    not_pronoun=None,
    names_after_pronoun=True,
    article=re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE),
    alternatives=alternatives("or"),
    placeholder_words=frozenset(
        {
            "entity",
            "entities",
            "name",
            "value",
            "thing",
            "item",
            "topic",
            "attribute",
            "person",
            "place",
            "date",
            "number",
            "company",
            "product",
            "setting",
            "x",
            "y",
            "z",
        }
    ),
    abbreviations={
        "st": ("saint", "street"),
        "ste": ("sainte",),
        "mt": ("mount",),
        "ft": ("fort",),
        "dr": ("doctor", "drive"),
        "mr": ("mister",),
        "univ": ("university",),
        "co": ("company",),
        "corp": ("corporation",),
    },
)
