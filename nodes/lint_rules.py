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
    second_question: re.Pattern[str]
    """A second question joined to the first (", and what is ...?"), with an answer of its own."""
    pronouns: frozenset[str]
    """Words that, opening a question, point at something it never named."""
    not_pronoun: re.Pattern[str] | None
    """An opening that starts with such a word but names nothing ("Il y a ...", "Es gibt ...")."""
    names_after_pronoun: bool
    """Whether a capitalised word after the opening one makes it a name ("Her Majesty's Theatre"); not in
    German, which capitalises every noun ("Dieser Parameter")."""
    article: re.Pattern[str]
    """A leading article, dropped when an answer is matched against an entity."""
    alternatives: re.Pattern[str]
    """The alternatives at the end of a comparison question: "..., X or Y?"."""


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
    r"listed\s+in|named\s+in|given\s+in|found\s+in)\s+(?:the|this|these)\s+"
)
# Where a phrase that points at the material ends: the clause ends, or it says where the material is.
_ENDS = r"(?=\s*(?:[,.;:?!)]|$)|\s+(?:above|below)\b)"

ENGLISH = LintRules(
    meta_references=(
        # "the provided text", "this given context", "in provided documents", "the above passage"
        re.compile(rf"\b(?:the|this|these|those|in|from|on|using)\s+{_POINTING}\s+{_MATERIAL}\b", re.IGNORECASE),
        # "the passages above", "the text provided?"
        re.compile(rf"\bthe\s+{_MATERIAL}\s+(?:above|below|(?:provided|given|supplied)(?=\s*(?:[,.;:?!]|$)))", re.I),
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
    ),
    interrogative=re.compile(
        r"^(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|can|could)\b",
        re.IGNORECASE,
    ),
    # ", and what is ...?": a clause such as "and where Y died" (no auxiliary after the wh-word) is part of one
    # question and passes.
    second_question=re.compile(
        r",\s*and\s+(?:what|which|who|whom|whose|when|where|why|how)\s+"
        r"(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|many|much|long|often|old|large)\b",
        re.IGNORECASE,
    ),
    pronouns=frozenset(
        {"it", "its", "they", "them", "their", "he", "him", "his", "she", "her", "this", "these", "those"}
    ),
    not_pronoun=None,
    names_after_pronoun=True,
    article=re.compile(r"^(?:the|a|an)\s+", re.IGNORECASE),
    alternatives=_alternatives("or"),
)

# -- German ------------------------------------------------------------------------------------
# Nouns that can only mean the material (as _TEXT), and nouns that also name things of a domain ("Abschnitt 4
# der Satzung", "das Dokument der Stiftung"): the latter point at the material only where the clause ends.
_DE_TEXT = r"(?:Text(?:es|s)?|Passage|Kontext(?:es|s)?|Auszug(?:es|s)?|Textstelle|Textausschnitt(?:es|s)?)"
_DE_MATERIAL = rf"(?:{_DE_TEXT}|Abschnitt(?:es|s)?|Dokument(?:es|s|en)?|Informationen|Material(?:s|ien)?|Quellen?)"
_DE_POINTING = r"(?:bereitgestellten?|gegebenen?|vorliegenden?|obigen?|folgenden?|angegebenen?|beigefügten?)"
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
    ),
    interrogative=re.compile(
        r"\b(?:was|welche[rsmn]?|wer|wen|wem|wessen|wann|wo|woher|wohin|womit|wozu|wofür|worauf|warum|weshalb|wie|"
        r"wieviele?|ist|sind|war|waren|hat|haben|hatte|gibt|kann|können|wird|werden)\b",
        re.IGNORECASE,
    ),
    second_question=re.compile(
        r",\s*und\s+(?:was|welche[rsmn]?|wer|wen|wem|wessen|wann|wo|warum|wie)\s+"
        # A finite verb right after the question word makes a main clause, a question of its own; a subordinate
        # clause ("und wo der Komponist starb") puts its verb last and passes.
        r"(?:ist|sind|war|waren|hat|haben|hatte|wird|werden|wurde|wurden|kann|können|viele|lange|oft|groß|alt|hoch|"
        r"starb|lebte|lebt|liegt|lag|steht|stand|heißt|hieß|beträgt|betrug|dauert|dauerte|kostet|gibt|gab|"
        r"begann|endete|erschien|entstand|spielt|spielte)\b",
        re.IGNORECASE,
    ),
    pronouns=frozenset(
        {
            "es",
            "er",
            "sie",
            "ihm",
            "ihn",
            "ihr",
            "ihre",
            "ihren",
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
        re.compile(rf"^(?:dans|d['’]après)\s+(?:le|ce)\s+{_FR_MATERIAL}\s*,", re.IGNORECASE),
    ),
    interrogative=re.compile(
        r"(?:\b(?:que|quel|quelle|quels|quelles|qui|quand|où|pourquoi|comment|combien|lequel|laquelle|lesquels|"
        r"lesquelles|est-ce)\b|\bqu['’]|-t-(?:il|elle|on)\b|-(?:il|elle|ils|elles|on)\b)",
        re.IGNORECASE,
    ),
    second_question=re.compile(
        r",\s*et\s+(?:que|quel|quelle|quels|quelles|qui|quand|où|pourquoi|comment|combien|qu['’])\s*"
        r"(?:est|sont|était|étaient|a|ont|fait|font|vaut|valent|dure|de|d['’]|en)\b",
        re.IGNORECASE,
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
)

# -- Spanish -----------------------------------------------------------------------------------
_ES_TEXT = r"(?:textos?|pasajes?|contextos?|fragmentos?|extractos?)"
_ES_MATERIAL = rf"(?:{_ES_TEXT}|documentos?|información|materiales?|fuentes?|párrafos?)"
_ES_ENDS = r"(?=\s*(?:[,.;:?!)]|$))"
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
        # "En el texto, ¿qué ..."
        re.compile(rf"^¿?\s*(?:en|según)\s+(?:el|este)\s+{_ES_MATERIAL}\s*,", re.IGNORECASE),
    ),
    interrogative=re.compile(
        r"(?:¿|\b(?:qué|cuál|cuáles|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuánto|cuánta|cuántos|"
        r"cuántas)\b)",
        re.IGNORECASE,
    ),
    second_question=re.compile(
        r",\s*y\s+(?:¿\s*)?(?:qué|cuál|cuáles|quién|quiénes|cuándo|dónde|por\s+qué|cómo|cuánto|cuánta|cuántos|"
        r"cuántas)\s+(?:es|son|era|eran|fue|fueron|tiene|tienen|hay|vale|dura|se|está|están|estaba|nació|murió|"
        r"vivió|vive)\b",
        re.IGNORECASE,
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
            "su",
            "sus",
            "aquel",
            "aquella",
        }
    ),  # fmt: skip
    not_pronoun=None,
    names_after_pronoun=True,
    article=re.compile(r"^(?:el|la|los|las|un|una|unos|unas|lo)\s+", re.IGNORECASE),
    alternatives=_alternatives("o|u"),
)

#: The languages lint has rules for, by ISO 639-1 code.
LINT_RULES = {"en": ENGLISH, "de": GERMAN, "fr": FRENCH, "es": SPANISH}
