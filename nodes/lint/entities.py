"""How a question or an answer names an entity, as lint compares them: whole words, case-folded; names folded
for accents, articles, the language's spellings and its abbreviations; a comparison's stated alternatives."""

from __future__ import annotations

import re
import unicodedata

from nodes.common import unspaced
from nodes.lint.rules import LintRules

_EDGE = " \t\"'“”‘’«»„.,;:!?¿¡()[]「」。？"


def _trimmed(phrase: str) -> str:
    """A phrase without surrounding quotes and punctuation, and without a trailing parenthesis."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", phrase.strip()).strip(_EDGE)


def _contains(text: str, needle: str, *, fold: bool) -> bool:
    """`needle` in `text` as whole words ("1" is not in "25.1", "US" not in "bus"), case-folded or as written."""
    if len(needle) < 2 and not unspaced(needle):  # a one-letter "phrase" would match the article "a"
        return False
    sought, haystack = (needle.casefold(), text.casefold()) if fold else (needle, text)
    if sought not in haystack:  # the words' edges are worth looking at only where the phrase is
        return False
    # In a script without spaces a word has no edge to find: the phrase is looked for as it is.
    start = "" if unspaced(needle[0]) else r"(?<![\w.,])" if needle[0].isdigit() else r"(?<!\w)"
    end = "" if unspaced(needle[-1]) else r"(?!\w|[.,]\d)" if needle[-1].isdigit() else r"(?!\w)"
    return re.search(start + re.escape(sought) + end, haystack) is not None


def names(text: str, phrase: str, rules: LintRules | None = None) -> bool:
    """Whether `text` names `phrase`: its words case-folded ("the Danube" in "the danube's source"), or,
    without a leading article, its name as written ("Danube" for "the Danube", but "who" is not "The Who")."""
    trimmed = _trimmed(phrase)
    if _contains(text, trimmed, fold=True):
        return True
    without = rules.article.sub("", trimmed) if rules else trimmed
    if without == trimmed or not without[:1].isupper():
        return False
    # A capitalised name opening the question is its first word, not a mention ("Who wrote Tommy?").
    rest = text.strip(_EDGE)
    return _contains(rest[rest.find(" ") + 1 :] if " " in rest else "", without, fold=False)


def folded_forms(phrase: str, rules: LintRules | None) -> list[tuple[str, ...]]:
    """A phrase's words as names are compared: case-folded, without accents (NFKD) or articles, "ae" for "ä"
    where the language writes both, and each short form written out in every way it can be read
    ("St. Petersburg" -> saint petersburg, street petersburg)."""
    text = phrase.translate(_UMLAUTS) if rules is not None and rules.umlauts else phrase
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    words = [word for word in re.findall(r"[^\W_]+", text.casefold()) if not _is_article(word, rules)]
    forms: list[tuple[str, ...]] = [()]
    for word in words:
        readings = rules.abbreviations.get(word, (word,)) if rules is not None else (word,)
        forms = [(*form, reading) for form in forms for reading in readings][:_MAX_FORMS]
    return forms if words else []


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss"})
_MAX_FORMS = 8


def _is_article(word: str, rules: LintRules | None) -> bool:
    # French elides its article ("l'Académie" folds to "l", "academie").
    return rules is not None and (rules.article.match(word + " ") is not None or word in ("l", "d"))


def _within(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    """Whether `part` stands in `whole` as a run of whole words."""
    return any(whole[i : i + len(part)] == part for i in range(len(whole) - len(part) + 1))


def same_entity(answer: str, entity: str, rules: LintRules | None = None) -> bool:
    """Whether an answer is the entity: equal once folded (`folded_forms`), one names the other as whole words, or
    one's words all stand among the other's ("the formation of The Black Keys" is "the formation of the band The
    Black Keys", "Royal Society" is "the Royal Society of London")."""
    if names(answer, entity, rules) or names(entity, answer, rules):
        return True
    for given in folded_forms(answer, rules):
        for form in folded_forms(entity, rules):
            if set(given) <= set(form) or set(form) <= set(given):
                return True
    return False


def names_entity(answer: str, entity: str, rules: LintRules | None) -> bool:
    """Whether an answer holds the whole entity ("Moscow, not St. Petersburg" holds both of its cities)."""
    return any(
        _within(form, given) for given in folded_forms(answer, rules) for form in folded_forms(entity, rules) if form
    )


def stated_alternatives(question: str, rules: LintRules | None) -> list[str]:
    """The alternatives a comparison question offers ("..., X or Y?"); empty when it offers none readably
    (always, in a language lint has no rules for)."""
    match = rules.alternatives.search(question.strip()) if rules else None
    if not match:
        return []
    before = [part.strip() for part in match.group(1).split(",")]
    return [part for part in (*before, match.group(2).strip()) if part]
