"""What lint knows of German: phrases pointing at the material, second questions, opening pronouns,
articles, abbreviations and the word that joins a comparison's alternatives."""

from __future__ import annotations

import re

from nodes.lint.rules import LintRules, alternatives, second_questions

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
    second_question=second_questions(
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
    alternatives=alternatives("oder"),
    placeholder_words=frozenset(
        {
            "entität",
            "entitäten",
            "name",
            "wert",
            "ding",
            "thema",
            "attribut",
            "person",
            "ort",
            "datum",
            "zahl",
            "firma",
            "produkt",
            "einstellung",
            "x",
            "y",
            "z",
        }
    ),
    abbreviations={"st": ("sankt",), "dr": ("doktor",), "prof": ("professor",), "univ": ("universitaet",)},
    umlauts=True,
)
