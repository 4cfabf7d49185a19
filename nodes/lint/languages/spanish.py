"""What lint knows of Spanish: phrases pointing at the material, second questions, opening pronouns,
articles, abbreviations and the word that joins a comparison's alternatives."""

from __future__ import annotations

import re

from nodes.lint.rules import LintRules, alternatives, coordinated_clauses, second_questions

_ES_TEXT = r"(?:textos?|pasajes?|contextos?|fragmentos?|extractos?)"
_ES_MATERIAL = rf"(?:{_ES_TEXT}|documentos?|información|materiales?|fuentes?|párrafos?)"
_ES_ENDS = r"(?=\s*(?:[,.;:?!)]|$))"
# Words that may stand between a participle and the source it names: "se cita con más frecuencia en ...".
_ES_ADVERBS = r"(?:\s+(?:con|más|menos|frecuencia|menudo|también|sobre|todo|mucho|muy|sobre\s+todo))*"
_ES_NOT_MATERIAL = r"(?!\s+(?:de|del|sobre|por)\b)"

# Question words written with their accent: interrogative, in a direct question or an indirect one; without it
# ("que", "quien", "donde") they are relative pronouns or conjunctions.
_ES_WH = r"qué|quién|quiénes|cuál|cuáles|cuándo|dónde|adónde|cómo|cuánto|cuánta|cuántos|cuántas|por\s+qué"

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
    second_question=second_questions(
        coordinators=r"y|e|o|u",
        prepositions=r"en|a|por|para|de|desde|con|hasta|sobre|entre",
        wh_words=r"qué|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuál|cuáles",
        wh_phrases=r"qué|cuál|cuáles|cuánto|cuánta|cuántos|cuántas",
        finite=r"es|son|era|eran|fue|fueron|tiene|tienen|tenía|hay|había|ha|han|está|están|estaba|vale|dura|"
        r"nació|murió|vivió|vive|apareció|salió",
        after_comma=r"qué|quién|quiénes|cuándo|dónde|adónde|por\s+qué|cómo|cuál|cuáles|cuánto|cuánta|cuántos|"
        r"cuántas",
    ),
    # "y quién escribió", "y qué opción selecciona", "y dónde guarda": an accented question word after "y" asks,
    # whatever follows it, unless it continues an indirect question of the first part.
    second_clause=coordinated_clauses(
        coordinators=r"y|e|o|u",
        bare=rf"(?:(?:en|a|por|para|de|desde|con|hasta|sobre|entre)\s+)?(?:{_ES_WH})\b(?:\s+[\w-]+){{0,2}}",
    ),
    opening=re.compile(rf"^\W*(?:(?:en|a|por|para|de|desde|con|hasta|sobre|entre)\s+)?(?:{_ES_WH})\b", re.IGNORECASE),
    continued=re.compile(rf"\b(?:{_ES_WH}|que|quien|quienes|donde|cuando|cual|cuales)\b", re.IGNORECASE),
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
    alternatives=alternatives("o|u"),
    placeholder_words=frozenset(
        {
            "entidad",
            "entidades",
            "nombre",
            "valor",
            "cosa",
            "tema",
            "atributo",
            "persona",
            "lugar",
            "fecha",
            "número",
            "empresa",
            "producto",
            "parámetro",
            "x",
            "y",
            "z",
        }
    ),
    abbreviations={
        "s": ("san",),
        "sta": ("santa",),
        "sto": ("santo",),
        "dr": ("doctor",),
        "dra": ("doctora",),
        "univ": ("universidad",),
    },
)
