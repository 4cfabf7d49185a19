"""What lint knows of French: phrases pointing at the material, second questions, opening pronouns,
articles, abbreviations and the word that joins a comparison's alternatives."""

from __future__ import annotations

import re

from nodes.lint.rules import LintRules, alternatives, coordinated_clauses, second_questions

_FR_TEXT = r"(?:textes?|passages?|contextes?|extraits?|fragments?)"
_FR_MATERIAL = rf"(?:{_FR_TEXT}|documents?|informations?|sources?|paragraphes?)"
_FR_ENDS = r"(?=\s*(?:[,.;:?!)]|$))"
# What follows a noun that names something of the domain: "le texte de la loi", "le passage à l'euro".
_FR_NOT_MATERIAL = r"(?!\s+(?:de|du|des|d['’]|à|au|aux|par|sur)\b|\s+d['’])"

# Words that open a noun phrase or stand as a subject: after "où", "quand" or a noun, they begin the subject of an
# indirect question or a relative clause ("et quand ils ont été mis à jour", "et quelle taille ils occupent").
_FR_NOT_VERB = (
    r"le|la|les|l['’]\w*|un|une|des|du|de|d['’]\w*|ce|cet|cette|ces|son|sa|ses|leur|leurs|mon|ma|mes|notre|nos|"
    r"votre|vos|il|elle|ils|elles|on|je|tu|nous|vous|chacun|chacune|tout|tous|à|au|aux|en|dans|par|pour|sur|"
    r"sous|avec|chez|vers|entre"
)

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
    second_question=second_questions(
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
    # "et qui a composé", "et où se trouve", "et quelle option sélectionne le miroir"
    second_clause=coordinated_clauses(
        coordinators=r"et|ou|mais",
        bare=r"qui\s+(?!(?:il|elle|ils|elles|on|je|tu|nous|vous)\b)[\w’'-]+"
        rf"|(?:où|quand|comment|pourquoi)\s+(?!(?:{_FR_NOT_VERB})\b)(?-i:[a-zàâçéèêëîïôûùüÿœ])[\w’'-]*",
        determiners=r"quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles",
        noun=rf"(?!(?:{_FR_NOT_VERB})\b)[\w’'-]+",
        # a verb in the third person: "sélectionne", "fournit", "prend", "composa"
        verb=rf"(?!(?:{_FR_NOT_VERB})\b)(?-i:[a-zàâçéèêëîïôûùüÿœ])[\w’'-]*[etda]\b",
    ),
    opening=re.compile(
        r"^\W*(?:(?:en|à|par|pour|de|dans|depuis|avec|sur|sous|chez|vers)\s+)?"
        r"(?:quel|quelle|quels|quelles|qui|que|qu['’]|quand|où|comment|pourquoi|combien|lequel|laquelle|lesquels|"
        r"lesquelles|est-ce)\b",
        re.IGNORECASE,
    ),
    # A relative or a question word; or a past participle describing a noun, which "et qui ..." may continue as
    # the next description of it ("le paquet installé par défaut et qui fournit sudo").
    continued=re.compile(
        r"(?:\b(?:qui|que|quoi|dont|où|quel|quelle|quels|quelles|lequel|laquelle|lesquels|lesquelles|quand|comment|"
        r"pourquoi|combien)\b|\bqu['’]"
        r"|\b(?:le|la|les|l['’]|un|une|des)\s*[\w-]+\s+\w+(?:é|ée|és|ées)\b)",
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
    alternatives=alternatives("ou"),
    placeholder_words=frozenset(
        {
            "entité",
            "entités",
            "nom",
            "valeur",
            "chose",
            "sujet",
            "attribut",
            "personne",
            "lieu",
            "date",
            "nombre",
            "entreprise",
            "produit",
            "paramètre",
            "x",
            "y",
            "z",
        }
    ),
    abbreviations={"st": ("saint",), "ste": ("sainte",), "mt": ("mont",), "dr": ("docteur",), "pr": ("professeur",)},
)
