"""What lint knows of each language: phrases pointing at the material, second questions, opening pronouns,
articles and the word that joins a comparison's alternatives.

English, German, French and Spanish have tables; for another language lint runs only its
language-neutral rules (lengths, the yes/no answer word where `state.languages` knows it, answer
leakage, the declared compared and hidden entities) and leaves the rest to the judges.
Each table is tested by the question tables in tests/unit/test_lint.py and test_lint_languages.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class LintRules:
    meta_references: tuple[re.Pattern[str], ...]
    """Phrases that can only point at the material a question was written from."""
    interrogative: re.Pattern[str]
    """A question word: the first half of a two-question draft holds one."""
    second_question: tuple[re.Pattern[str], ...]
    """A second interrogative clause joined to the first by a coordinator or punctuation (", and what is ...?",
    "and when was ...", "; what ...", ", and by whom?"), asking for an answer of its own."""
    pronouns: frozenset[str]
    """Words that, opening a question, point at something it never named; not those that can also address the
    asker formally ("Sie", "Ihre", "su"), which only a reader can tell apart."""
    not_pronoun: re.Pattern[str] | None
    """An opening that starts with such a word but names nothing ("Il y a ...", "Es gibt ...")."""
    names_after_pronoun: bool
    """Whether a capitalised word after the opening one makes it a name ("Her Majesty's Theatre"); not in
    German, which capitalises every noun ("Dieser Parameter")."""
    article: re.Pattern[str]
    """A leading article, dropped when an answer is matched against an entity."""
    alternatives: re.Pattern[str]
    """The alternatives at the end of a comparison question: "..., X or Y?"."""
    abbreviations: dict[str, tuple[str, ...]]
    """Short forms a name is written with and what each can stand for ("st" -> "saint", "street"), folded."""
    umlauts: bool = False
    """Whether "ä" may be written "ae" (German): both fold to the same letters."""


def _second_questions(
    *,
    coordinators: str,
    prepositions: str,
    wh_words: str,
    wh_phrases: str,
    finite: str,
    after_finite: str = "",
    inverted: str = "",
    after_comma: str = "",
    noun: str = r"(?!(?:it|they|he|she|we|you|i|there|this|es|er|sie|man|il|elle|ils|elles|on)\b)[\w'’-]+",
) -> tuple[re.Pattern[str], ...]:
    """The forms of a second question after a first one, built from the language's words.

    - a semicolon, then a question word: "...; what is its default?";
    - a coordinator ("and"), maybe a preposition, then a question word and a finite verb that opens a main
      clause: "and when was X founded", "and in which year was it built", "und wann wurde", "y cuándo fue".
      A subordinate clause keeps its subject first ("and when they are flushed", "und wann sie aktualisiert
      wurden") and passes. `wh_phrases` (which, how many) may take up to three nouns before the verb;
      `noun` is what such a noun may be; `after_finite`, where given, is what must follow that verb (the subject
      of an inverted clause);
    - `inverted`: a verb with its subject pronoun joined after it ("a-t-il", "se trouve-t-elle");
    - after a comma and a coordinator, a question word and at most three words ending the question (", and by
      whom?", ", and how many years apart?"), or, where
      `after_comma` is given, any of those question words (Spanish and French mark them unmistakably).
    """
    coordinated = rf"\b(?:{coordinators})\s+(?:(?:{prepositions})\s+)?"
    noun_run = rf"(?:{noun}\s+){{0,3}}?"
    verb = rf"(?:{finite})\b" + (rf"(?=\s+(?:{after_finite}))" if after_finite else "")
    patterns = [
        re.compile(rf";\s*(?:(?:{coordinators})\s+)?(?:(?:{prepositions})\s+)?(?:{wh_words}|{wh_phrases})\b", re.I),
        re.compile(rf"{coordinated}(?:(?:{wh_words})\s+{verb}|(?:{wh_phrases})\s+{noun_run}{verb})", re.I),
        re.compile(rf",\s*{coordinated}(?:{wh_words}|{wh_phrases})(?:\s+[\w'’-]+){{0,3}}\s*[?？]\s*$", re.I),
    ]
    if inverted:
        patterns.append(
            re.compile(rf"{coordinated}(?:{wh_words}|{wh_phrases})\s+(?:[\w'’]+\s+){{0,3}}?{inverted}", re.I)
        )
    if after_comma:
        patterns.append(re.compile(rf",\s*{coordinated}(?:¿\s*)?(?:{after_comma})\b", re.I))
    return tuple(patterns)


def _alternatives(conjunction: str) -> re.Pattern[str]:
    """ "..., X or Y?", "...: X, Y or Z?" with the language's "or"."""
    return re.compile(rf"[,:]\s*([^,:?¿]+?(?:\s*,\s*[^,:?¿]+?)*)\s*,?\s+(?:{conjunction})\s+([^,:?]+?)\s*\?*\s*$")


# -- English -----------------------------------------------------------------------------------
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
    second_question=_second_questions(
        coordinators=r"and|or|but|also",
        prepositions=r"in|on|at|by|for|from|to|with|since|until|after|before|under|through",
        # "whose" opens a relative clause as often as a question ("the ship that sank and whose captain was ...").
        wh_words=r"what|who|whom|when|where|why|how(?:\s+(?:many|much|long|often|old|large|far|big))?",
        wh_phrases=r"which|what|how\s+(?:many|much)",
        finite=r"is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|shall|may|might|must",
        # the subject of an inverted clause: "is its default", "was Baltic Star founded", "does it take"
        after_finite=r"(?:it|its|they|their|he|his|she|her|there|this|these|that|those|the|a|an)\b|(?-i:[A-Z0-9])",
    ),
    pronouns=frozenset(
        {"it", "its", "they", "them", "their", "he", "him", "his", "she", "her", "this", "these", "those"}
    ),
    not_pronoun=None,
    names_after_pronoun=True,
    article=re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE),
    alternatives=_alternatives("or"),
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

# -- German ------------------------------------------------------------------------------------
# Lower-case words that can follow a question word without being its verb, and the verbs a subordinate clause
# ends on.
_DE_NOT_VERB = (
    r"der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines|es|er|sie|man|ich|du|wir|ihr|mich|sich|ihm|ihn|uns|"
    r"oft|lange|viel|viele|vielen|genau|weit|hoch|sehr|nicht|denn|eigentlich|schon|noch|gerade|dabei|dort|hier|"
    r"heute|damals|zuerst|so|alt|groß|spät|früh|jeweils|dies|diese|dieser|dieses|diesen|welche|welcher|welches"
)
_DE_AUXILIARY = (
    r"wird|werden|wurde|wurden|ist|sind|war|waren|hat|haben|hatte|hatten|kann|können|konnte|konnten|muss|müssen|"
    r"soll|sollen|darf|dürfen|will|wollen"
)
# Nouns that can only mean the material (as _TEXT), and nouns that also name things of a domain ("Abschnitt 4
# der Satzung", "das Dokument der Stiftung"): the latter point at the material only where the clause ends.
_DE_TEXT = r"(?:Text(?:es|s)?|Passage|Kontext(?:es|s)?|Auszug(?:es|s)?|Textstelle|Textausschnitt(?:es|s)?)"
_DE_MATERIAL = rf"(?:{_DE_TEXT}|Abschnitt(?:es|s)?|Dokument(?:es|s|en)?|Informationen|Material(?:s|ien)?|Quellen?)"
_DE_POINTING = r"(?:bereitgestellten?|gegebenen?|vorliegenden?|obigen?|folgenden?|angegebenen?|beigefügten?)"
# The material under its plural and collective names, and the participles that point at what it names.
_DE_GROUP = (
    rf"(?:{_DE_TEXT}|Texten|Dokument(?:en)?|Unterlagen|Informationen|Quellen|Materialien|Auszügen|Sammlung|"
    r"Abschnitten)"
)
_DE_REFERRED = r"(?:beschrieben|genannt|erwähnt|angegeben|aufgeführt|dargestellt|erläutert|gezeigt)"
_DE_ENDS = r"(?=\s*(?:[,.;:?!)]|$)|\s+(?:oben|unten)\b)"
# What follows a noun that names something of the domain: a genitive, a number, a paragraph sign, a name.
_DE_NOT_MATERIAL = r"(?!\s+(?:des|der|von|vom|zu|zum|über|in|im|für)\b|\s*[\d§\[])"

GERMAN = LintRules(
    meta_references=(
        # "laut dem Text", "gemäß diesem Auszug": not "laut dem Text des Vertrags", "gemäß Text 4"
        re.compile(
            rf"\b(?:laut|gemäß|entsprechend)\s+(?:(?:dem|diesem|den|der)\s+)?{_DE_TEXT}\b{_DE_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "laut dem Dokument,", "gemäß den Informationen?": not "gemäß Abschnitt 4 der Satzung"
        re.compile(rf"\b(?:laut|gemäß|entsprechend)\s+(?:dem|diesem|den|der)\s+{_DE_MATERIAL}{_DE_ENDS}", re.I),
        # "im vorliegenden Text", "den bereitgestellten Informationen", "dem obigen Abschnitt"
        re.compile(rf"\b(?:im|in|dem|den|der|die|das|des|aus)\s+{_DE_POINTING}\s+{_DE_MATERIAL}\b", re.I),
        # "im Text genannt", "in dem Abschnitt erwähnt", "im Kontext beschrieben"
        re.compile(
            rf"\b(?:im|in\s+(?:dem|diesem|der|den))\s+{_DE_TEXT}\s+(?:genannt|erwähnt|beschrieben|angegeben|aufgeführt)",
            re.IGNORECASE,
        ),
        # "oben genannt", "hier beschrieben", "unten aufgeführt", "der oben erwähnte"
        re.compile(r"\b(?:oben|unten|hier|zuvor|vorher)\s+(?:genannt|erwähnt|beschrieben|aufgeführt|angegeben)", re.I),
        # "Der Text sagt", "dieser Abschnitt beschreibt", and verb first: "Was sagt der Text über apt?"
        re.compile(
            rf"\b(?:der|dieser|die|diese)\s+{_DE_TEXT}\s+(?:sagt|besagt|nennt|erwähnt|beschreibt|behauptet)\b", re.I
        ),
        re.compile(
            rf"\b(?:sagt|besagt|nennt|erwähnt|beschreibt|behauptet)\s+(?:der|dieser|die|diese)\s+{_DE_TEXT}\b"
            r"(?!\s+(?:des|der|von|vom)\b|\s*[\d§\[])",
            re.IGNORECASE,
        ),
        # "Im Text, welcher ...", "Im Dokument, welcher ..."
        re.compile(rf"^(?:im|in\s+(?:dem|diesem))\s+{_DE_MATERIAL}\s*,", re.IGNORECASE),
        # "wie im Dokument beschrieben", "das in diesen Dokumenten erwähnt wird"
        re.compile(
            rf"\b(?:im|in\s+(?:dem|den|diesem|diesen|der|dieser))\s+{_DE_GROUP}\s+{_DE_REFERRED}\b", re.IGNORECASE
        ),
        # "im Text unter /proc", "im Kontext?": not "im Text des Gesetzes", "im Kontext von Befehlen"
        re.compile(rf"\bim\s+(?:Text|Kontext|Dokument|Auszug|Textauszug)\b{_DE_NOT_MATERIAL}(?!\s+(?:eines|einer)\b)"),
        # "laut den vorliegenden Unterlagen", "gemäß den Dokumenten": not "laut den Dokumenten der Stiftung"
        re.compile(
            r"\b(?:laut|gemäß|entsprechend)\s+(?:den|diesen|der|dieser|dem|diesem)\s+"
            rf"(?:{_DE_POINTING}\s+|genannten\s+)?{_DE_GROUP}\b{_DE_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "Welche der genannten Dateien ...": the participle as an adjective right after its article names no source
        # (not "der so genannten", "die in der Satzung genannten")
        re.compile(
            r"\b(?:der|die|das|den|dem|des|diese[rnms]?)\s+"
            r"(?:genannten|erwähnten|beschriebenen|aufgeführten|angegebenen|gezeigten|aufgelisteten)\b",
            re.IGNORECASE,
        ),
        # "Welche Paketquelle wird erwähnt, die ...", "das erwähnt wird": nothing says where
        re.compile(rf"\b(?:wird|werden|wurde|wurden|ist|sind)\s+{_DE_REFERRED}\s*(?:[,.;:?!]|$)", re.IGNORECASE),
        re.compile(
            rf"\b(?:der|die|das|dem|den|welche[rsm]?)\s+{_DE_REFERRED}\s+(?:wird|werden|wurde|wurden|ist|sind)\b",
            re.IGNORECASE,
        ),
    ),
    interrogative=re.compile(
        r"\b(?:was|welche[rsmn]?|wer|wen|wem|wessen|wann|wo|woher|wohin|womit|wozu|wofür|worauf|warum|weshalb|wie|"
        r"wieviele?|ist|sind|war|waren|hat|haben|hatte|gibt|kann|können|wird|werden)\b",
        re.IGNORECASE,
    ),
    # A finite verb right after the question word makes a main clause, a question of its own; a subordinate
    # clause ("und wo der Komponist starb", "und wann sie aktualisiert wurden") puts its verb last and passes.
    second_question=_second_questions(
        coordinators=r"und|oder|sowie",
        prepositions=r"in|an|auf|von|mit|seit|bis|für|aus|zu|nach|bei|unter|über",
        wh_words=r"was|wer|wen|wem|wessen|wann|wo|woher|wohin|warum|weshalb|wie(?:\s+(?:lange|oft|alt|groß|hoch|weit))?",
        wh_phrases=r"welche[rsmn]?|wie\s+viele?",
        # German writes nouns capitalised: a lower-case word right after the question word (or its nouns) that is
        # no article, pronoun or adverb is the verb, unless the clause ends on its finite verb (a subordinate
        # clause: "und welche Pakete installiert werden").
        finite=rf"(?-i:(?!(?:{_DE_NOT_VERB})\b)[a-zäöüß][\wäöüß-]*)(?![^?]*\b(?:{_DE_AUXILIARY})\s*[?]?\s*$)",
        # A main clause goes on after its verb ("und wie lautet sein Standardwert?"); a subordinate one ends on it
        # ("und welchen Port der Server verwendet?"), and its nouns are capitalised, not articles.
        after_finite=r"[^\s?]",
        noun=r"(?-i:[A-ZÄÖÜ][\wäöüß-]*)",
    ),
    pronouns=frozenset(
        {
            # "Sie", "Ihr", "Ihre" opening a question can be the formal address to the asker ("Sie suchen eine
            # Nachtfähre ...: welches ...?"): left to the judges.
            "es",
            "er",
            "ihm",
            "ihn",
            "sein",
            "seine",
            "seinen",
            "dies",
            "diese",
            "dieser",
            "dieses",
            "diesen",
            "jene",
            "jener",
            "jenes",
        }
    ),  # fmt: skip
    not_pronoun=re.compile(r"^es\s+gibt\b", re.IGNORECASE),
    names_after_pronoun=False,
    article=re.compile(r"^(?:der|die|das|den|dem|des|ein|eine|einen|einem|einer|eines)\s+", re.IGNORECASE),
    alternatives=_alternatives("oder"),
    abbreviations={"st": ("sankt",), "dr": ("doktor",), "prof": ("professor",), "univ": ("universitaet",)},
    umlauts=True,
)

# -- French ------------------------------------------------------------------------------------
_FR_TEXT = r"(?:textes?|passages?|contextes?|extraits?|fragments?)"
_FR_MATERIAL = rf"(?:{_FR_TEXT}|documents?|informations?|sources?|paragraphes?)"
_FR_ENDS = r"(?=\s*(?:[,.;:?!)]|$))"
# What follows a noun that names something of the domain: "le texte de la loi", "le passage à l'euro".
_FR_NOT_MATERIAL = r"(?!\s+(?:de|du|des|d['’]|à|au|aux|par|sur)\b|\s+d['’])"

FRENCH = LintRules(
    meta_references=(
        # "selon le texte", "d'après ce passage": not "selon le texte de la loi", "selon le passage à l'euro"
        re.compile(
            rf"\b(?:selon|d['’]après|conformément\s+à)\s+(?:le|ce|ces|les|cet)\s+{_FR_TEXT}\b{_FR_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "le passage ci-dessus", "les informations ci-dessous"
        re.compile(rf"\b(?:le|la|les|ce|cet|cette|ces|du|des)\s+{_FR_MATERIAL}\s+ci-(?:dessus|dessous)", re.I),
        # "le texte fourni,", "les informations données ?": not "les informations données par le noyau"
        re.compile(
            rf"\b(?:le|la|les|ce|cet|cette|ces|du|des)\s+{_FR_MATERIAL}\s+"
            rf"(?:fourni|donné|suivant|précédent)(?:e|s|es)?{_FR_ENDS}",
            re.IGNORECASE,
        ),
        # "mentionné ci-dessus", "décrit plus haut", "cité dans le texte": not "cité dans le texte de la Constitution"
        re.compile(
            r"\b(?:mentionn|cit|décrit|indiqu|évoqu)\w*\s+"
            rf"(?:ci-dessus|ci-dessous|plus\s+haut|plus\s+bas|ici|dans\s+(?:le|ce)\s+{_FR_TEXT}\b{_FR_NOT_MATERIAL})",
            re.IGNORECASE,
        ),
        # "le texte dit", "ce passage indique", and verb first: "Que dit le texte sur apt ?"
        re.compile(rf"\b(?:le|ce)\s+{_FR_TEXT}\s+(?:dit|indique|mentionne|affirme|décrit|précise)\b", re.I),
        re.compile(
            rf"\b(?:dit|indique|mentionne|affirme|décrit|précise)\s+(?:le|ce)\s+{_FR_TEXT}\b(?!\s+(?:de|du|des)\b|\s+d['’])",
            re.I,
        ),
        # "Dans le texte, quel ..."
        re.compile(rf"^(?:dans|d['’]après)\s+(?:le|ce|les|ces)\s+{_FR_MATERIAL}\s*,", re.IGNORECASE),
        # "selon les documents ?", "fournies dans le contexte, ...": not "dans le texte de la loi"
        re.compile(
            rf"\b(?:dans|selon|d['’]après)\s+(?:le|ce|les|ces|cet)\s+{_FR_MATERIAL}"
            r"(?:\s+(?:fourni|donné|ci-dessus|ci-dessous)\w*)?(?=\s*(?:[,.;:?!)]|$))",
            re.IGNORECASE,
        ),
        # "comme indiqué dans les documents", "comme décrit dans ce passage"
        re.compile(
            r"\bcomme\s+(?:indiqu|mentionn|décrit|précis|expliqu|not|cit)\w*\s+(?:dans|par)\s+"
            rf"(?:le|la|les|ce|ces|cet|cette)\s+{_FR_MATERIAL}\b{_FR_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "citée dans ce document", "mentionné dans les extraits": not "cité dans le document de la loi"
        re.compile(
            rf"\b(?:mentionn|cit|décrit|évoqu|indiqu)\w*\s+dans\s+(?:le|ce|ces|les|cet|cette)\s+{_FR_MATERIAL}\b"
            rf"{_FR_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "Parmi les fichiers mentionnés, ...", "le paquet cité ?": the participle names no source
        re.compile(
            r"\b(?:le|la|l['’]|les|ce|cet|cette|ces|des|du)\s*[\w-]+\s+"
            r"(?:mentionn|cit|évoqu|énumér|list)(?:é|ée|és|ées)\b(?!\s+(?:dans|par|en|à|au|aux|sur|comme)\b)",
            re.IGNORECASE,
        ),
        # "Quelle commande est mentionnée pour ...": not "est citée par Hugo", "est décrite dans la norme"
        re.compile(
            r"\b(?:est|sont|était|étaient)\s+(?:mentionn|cit|évoqu)\w*\b"
            r"(?!(?:\s+(?:le|la|plus|moins|souvent|très|bien|surtout|notamment|fréquemment|parfois|aussi|également))*"
            r"\s+(?:dans|par|en|à|au|aux|sur|comme)\b)",
            re.IGNORECASE,
        ),
    ),
    interrogative=re.compile(
        r"(?:\b(?:que|quel|quelle|quels|quelles|qui|quand|où|pourquoi|comment|combien|lequel|laquelle|lesquels|"
        r"lesquelles|est-ce)\b|\bqu['’]|-t-(?:il|elle|on)\b|-(?:il|elle|ils|elles|on)\b)",
        re.IGNORECASE,
    ),
    second_question=_second_questions(
        coordinators=r"et|ou|mais",
        prepositions=r"en|à|par|pour|de|dans|depuis|avec|sur|sous|chez|vers",
        # "et qui a été publié", "et où est né ..." are relative clauses as often as questions: not listed here.
        wh_words=r"quand|pourquoi|comment|combien(?:\s+de)?",
        wh_phrases=r"quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles|combien\s+de",
        finite=r"est|sont|était|étaient|fut|a|ont|avait|vaut|valent|dure|font|fait",
        # the subject pronoun joined to its verb: "a-t-il", "se trouve-t-elle", "lance-t-il"
        inverted=r"[\w’']+-(?:t-)?(?:il|elle|ils|elles|on)\b",
        after_comma=r"quand|où|pourquoi|comment|combien|quel|quelle|quels|quelles|qui|quoi",
    ),
    pronouns=frozenset(
        {
            "il",
            "ils",
            "elle",
            "elles",
            "ce",
            "cet",
            "cette",
            "ces",
            "celui",
            "celle",
            "ceux",
            "celles",
            "son",
            "sa",
            "ses",
            "leur",
            "leurs",
        }
    ),  # fmt: skip
    # Impersonal openings name nothing and point at nothing: "Il y a combien de ...", "Il s'agit de ...", "Ce que".
    not_pronoun=re.compile(
        r"^(?:il\s+(?:y\s+a|existe|faut|s['’]agit|reste|vaut|suffit|manque|convient|est\s+[\w-]+\s+d[e'’])"
        r"|ce\s+(?:que|qui|qu['’]))",
        re.IGNORECASE,
    ),
    names_after_pronoun=True,
    article=re.compile(r"^(?:(?:le|la|les|un|une|des|du)\s+|l['’])", re.IGNORECASE),
    alternatives=_alternatives("ou"),
    abbreviations={"st": ("saint",), "ste": ("sainte",), "mt": ("mont",), "dr": ("docteur",), "pr": ("professeur",)},
)

# -- Spanish -----------------------------------------------------------------------------------
_ES_TEXT = r"(?:textos?|pasajes?|contextos?|fragmentos?|extractos?)"
_ES_MATERIAL = rf"(?:{_ES_TEXT}|documentos?|información|materiales?|fuentes?|párrafos?)"
_ES_ENDS = r"(?=\s*(?:[,.;:?!)]|$))"
# Words that may stand between a participle and the source it names: "se cita con más frecuencia en ...".
_ES_ADVERBS = r"(?:\s+(?:con|más|menos|frecuencia|menudo|también|sobre|todo|mucho|muy|sobre\s+todo))*"
_ES_NOT_MATERIAL = r"(?!\s+(?:de|del|sobre|por)\b)"

SPANISH = LintRules(
    meta_references=(
        # "según el texto", "de acuerdo con el pasaje": not "según el texto de la ley"
        re.compile(
            rf"\b(?:según|de\s+acuerdo\s+con|conforme\s+a)\s+(?:el|este|los|estos|al)\s+{_ES_TEXT}\b{_ES_NOT_MATERIAL}",
            re.IGNORECASE,
        ),
        # "el texto de arriba", "la información de abajo"
        re.compile(rf"\b(?:el|la|los|las|este|esta|del)\s+{_ES_MATERIAL}\s+de\s+(?:arriba|abajo)\b", re.I),
        # "el texto proporcionado,", "la información dada?": not "la información dada por el núcleo"
        re.compile(
            rf"\b(?:el|la|los|las|este|esta|del|en\s+el)\s+{_ES_MATERIAL}\s+"
            rf"(?:proporcionad[oa]s?|dad[oa]s?|anterior(?:es)?|siguientes?|adjunt[oa]s?){_ES_ENDS}",
            re.IGNORECASE,
        ),
        # "mencionado arriba", "descrito aquí", "citado en el texto", "mencionado anteriormente"
        re.compile(
            r"\b(?:mencionad|citad|descrit|indicad|nombrad)[oa]s?\s+"
            rf"(?:arriba|abajo|aquí|anteriormente|más\s+arriba|en\s+(?:el|este)\s+{_ES_TEXT}\b{_ES_NOT_MATERIAL})",
            re.IGNORECASE,
        ),
        # "se menciona en el texto", "se describe arriba"
        re.compile(
            r"\bse\s+(?:menciona|describe|cita|indica|nombra)n?\s+"
            rf"(?:arriba|abajo|aquí|anteriormente|en\s+(?:el|este)\s+{_ES_TEXT}\b{_ES_NOT_MATERIAL})",
            re.IGNORECASE,
        ),
        # "el texto dice", "este pasaje indica", and verb first: "¿Qué dice el texto sobre apt?"
        re.compile(rf"\b(?:el|este)\s+{_ES_TEXT}\s+(?:dice|indica|menciona|afirma|describe|señala)\b", re.I),
        re.compile(
            rf"\b(?:dice|indica|menciona|afirma|describe|señala)\s+(?:el|este)\s+{_ES_TEXT}\b(?!\s+(?:de|del)\b)",
            re.IGNORECASE,
        ),
        # "En el texto, ¿qué ...", "En los documentos, ¿qué ..."
        re.compile(rf"^¿?\s*(?:en|según)\s+(?:el|este|los|estos|la|esta|las)\s+{_ES_MATERIAL}\s*,", re.IGNORECASE),
        # "según los documentos?", "en la información proporcionada": not "según el texto de la ley"
        re.compile(
            r"\b(?:(?:según|de\s+acuerdo\s+con|conforme\s+a)\s+(?:el|la|los|las|este|esta|estos|estas)\s+"
            rf"{_ES_MATERIAL}|en\s+(?:el|los|este|estos)\s+(?:documentos|textos|pasajes|fragmentos|extractos|contexto))"
            r"(?:\s+(?:proporcionad|dad|anterior|adjunt|citad)\w*)?(?=\s*(?:[,.;:?!)]|$))",
            re.IGNORECASE,
        ),
        # "De los archivos mencionados, ...", "el paquete citado?": the participle names no source
        re.compile(
            r"\b(?:el|la|los|las|este|esta|estos|estas|del)\s+[\w-]+\s+"
            r"(?:mencionad|citad|nombrad|enumerad|listad)[oa]s?\b(?!\s+(?:en|por|como|a|al)\b)",
            re.IGNORECASE,
        ),
        # "¿Qué orden se menciona para ...?", "es mencionado": not "se menciona en la Constitución"
        re.compile(rf"\bse\s+(?:menciona|cita|nombra)n?\b(?!{_ES_ADVERBS}\s+(?:en|por|como|a|al)\b)", re.IGNORECASE),
        re.compile(
            r"\b(?:es|son|fue|fueron|está|están)\s+(?:mencionad|citad)[oa]s?\b"
            rf"(?!{_ES_ADVERBS}\s+(?:en|por|como|a|al)\b)",
            re.IGNORECASE,
        ),
    ),
    interrogative=re.compile(
        r"(?:¿|\b(?:qué|cuál|cuáles|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuánto|cuánta|cuántos|"
        r"cuántas)\b)",
        re.IGNORECASE,
    ),
    # The accent marks a question word (cuándo, not cuando); an indirect one ("y cuándo se actualizaron") is
    # told from a second question only by a comma or a verb that opens a main clause ("y cuándo fue").
    second_question=_second_questions(
        coordinators=r"y|e|o|u",
        prepositions=r"en|a|por|para|de|desde|con|hasta|sobre|entre",
        wh_words=r"qué|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuál|cuáles",
        wh_phrases=r"qué|cuál|cuáles|cuánto|cuánta|cuántos|cuántas",
        finite=r"es|son|era|eran|fue|fueron|tiene|tienen|tenía|hay|había|ha|han|está|están|estaba|vale|dura|"
        r"nació|murió|vivió|vive|apareció|salió",
        after_comma=r"qué|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuál|cuáles|cuánto|cuánta|cuántos|"
        r"cuántas",
    ),
    pronouns=frozenset(
        {
            "él",
            "ella",
            "ellos",
            "ellas",
            "esto",
            "este",
            "esta",
            "estos",
            "estas",
            "ese",
            "esa",
            "esos",
            "esas",
            # "su", "sus" can be the formal "your" ("¿Su sistema arranca con systemd? ..."): left to the judges.
            "aquel",
            "aquella",
        }
    ),  # fmt: skip
    not_pronoun=None,
    names_after_pronoun=True,
    article=re.compile(r"^(?:el|la|los|las|un|una|unos|unas|lo)\s+", re.IGNORECASE),
    alternatives=_alternatives("o|u"),
    abbreviations={
        "s": ("san",),
        "sta": ("santa",),
        "sto": ("santo",),
        "dr": ("doctor",),
        "dra": ("doctora",),
        "univ": ("universidad",),
    },
)

#: The languages lint has rules for, by ISO 639-1 code.
LINT_RULES = {"en": ENGLISH, "de": GERMAN, "fr": FRENCH, "es": SPANISH}
