"""The deterministic part of a restyle's check: what a rewrite of an accepted question must keep, and what it must
not bring in, before the validator is asked whether it still means the same.

A rule here refuses only what it can establish from the two questions' words: a rewrite that a careful
reader would accept passes. The canonical question has passed lint already, so a rule fires only on what
the rewrite changed (a meta reference or a name it brought in, a number or a key term it lost). Rules that
do not fit a style are adapted to it: a keyword query is no question sentence and may drop a question's
opening words; a misspelled one may misspell a name, but not a number.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence

from nodes.common import normalise_question, word_count
from nodes.lint.entities import names
from nodes.lint.languages import LINT_RULES
from nodes.lint.question import Finding, opening_pronoun
from nodes.lint.rules import LintRules, second_question
from state.draft import Construction
from state.sample import UNANSWERABLE

#: How much of the canonical question's letters a misspelled rewrite keeps (difflib's ratio, accents folded):
#: two to four typos in a question keep about 0.9; a reworded question falls well below.
MISSPELLED_MIN_RATIO = 0.75
#: How close a misspelled key term must stay to the canonical's (a lost or swapped letter keeps about 0.8).
MISSPELLED_TERM_RATIO = 0.7
#: Words a verbose rewrite may add around the question, beyond the question's own limit.
VERBOSE_EXTRA_WORDS = 40

# A number as written: digits with inner separators ("25.1", "1,000", "10:30", "2023-04-01").
_NUMBER = re.compile(r"(?<![\w.-])\d+(?:[.,:/-]\d+)*(?![\w])")
# An identifier a user types as it is: a word with a digit, an underscore or an inner capital ("pg_dump",
# "vault-7", "PostgreSQL", "--resume").
_IDENTIFIER = re.compile(r"(?<![\w-])-{0,2}(?=[\w-]*(?:\d|_|[a-z][A-Z]))[^\W\d_][\w-]*\w|(?<![\w-])--[a-z][\w-]*")
# Text between quotes: a title or a message the question quotes.
_QUOTED = re.compile(r'"([^"]{2,})"|“([^”]{2,})”|„([^“”]{2,})[“”]|«\s?([^»]{2,}?)\s?»|‘([^’]{2,})’|「([^」]{2,})」')


def _folded(text: str) -> str:
    """Case-folded, accents dropped: a misspelled rewrite may leave them out."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def numbers(text: str) -> list[str]:
    return _NUMBER.findall(text)


def key_terms(question: str) -> list[str]:
    """What picks out the answer and a user types as it is: quoted titles and identifiers."""
    quoted = [next(group for group in match.groups() if group) for match in _QUOTED.finditer(question)]
    identifiers = [term for term in _IDENTIFIER.findall(question) if not any(term in q for q in quoted)]
    return [term.strip() for term in quoted + identifiers if term.strip()]


def recognisable(term: str, text: str) -> bool:
    """A misspelled rewrite still names `term`: some run of as many words is close to it, accents and case aside."""
    wanted = _folded(term)
    words = _folded(text).split()
    size = max(1, len(wanted.split()))
    runs = (" ".join(words[i : i + size]).strip("?!.,;:\"'«»“”„") for i in range(len(words)))
    return any(difflib.SequenceMatcher(None, wanted, run).ratio() >= MISSPELLED_TERM_RATIO for run in runs)


def _kept(term: str, restyled: str, style: str, rules: LintRules | None) -> bool:
    if style == "misspelled":
        return recognisable(term, restyled)
    if names(restyled, term, rules) or _folded(term) in _folded(restyled):
        return True
    # A keyword or clipped query may drop a title's short words ("Backup Restore Guide" for "Backup and Restore
    # Guide"): its words of four letters or more, and its numbers, all still there name it.
    if style in ("keyword", "short", "poor-grammar"):
        long_words = [w for w in re.findall(r"\w+", _folded(term)) if len(w) >= 4 or w.isdigit()]
        written = set(re.findall(r"\w+", _folded(restyled)))
        return bool(long_words) and all(w in written for w in long_words)
    return False


def _length_problems(canonical: str, restyled: str, style: str, max_question_words: int) -> list[Finding]:
    words, before = word_count(restyled), word_count(canonical)
    if style in ("keyword", "short") and words >= before:
        return [
            (
                "style_length",
                f"a {style} rewrite has fewer words than the question, but this one has {words} (the question "
                f"{before}); drop the words that only make it a sentence",
            )
        ]
    if style == "verbose" and words <= before:
        return [("style_length", "a verbose rewrite puts the question inside the asker's situation; add it")]
    most = max_question_words + (VERBOSE_EXTRA_WORDS if style == "verbose" else 0)
    if words > most:
        return [("style_length", f"the rewrite has {words} words; keep it under {most + 1}")]
    return []


def _question_sentence(text: str, rules: LintRules) -> bool:
    """Whether `text` is written as a question: it opens with the language's question word and ends with its mark."""
    opening = text.strip().lstrip("¿¡ ")
    return text.rstrip().endswith(("?", "？")) and rules.interrogative.match(opening) is not None


def _misspelling_problems(canonical: str, restyled: str) -> list[Finding]:
    ratio = difflib.SequenceMatcher(None, _folded(canonical), _folded(restyled)).ratio()
    if ratio < MISSPELLED_MIN_RATIO:
        return [
            (
                "style_misspelled",
                f"a misspelled rewrite keeps the question's words with a few typos, but this one keeps {ratio:.0%} of "
                "its letters; type the same question with two to four typing mistakes",
            )
        ]
    return []


#: Numbers written as words, so that "three-node" and "3-node", "second step" and "step 2" are the same number.
NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    number: tuple(words.split())
    for number, words in {
        "1": "one first eins erste erster premier première uno primero primera",
        "2": "two second zwei zweite zweiter deux deuxième seconde dos segundo segunda",
        "3": "three third drei dritte dritter trois troisième tres tercero tercera",
        "4": "four fourth vier vierte quatre quatrième cuatro cuarto cuarta",
        "5": "five fifth fünf fünfte cinq cinquième cinco quinto quinta",
        "6": "six sixth sechs sechste sixième seis sexto sexta",
        "7": "seven seventh sieben siebte sept septième siete séptimo séptima",
        "8": "eight eighth acht achte huit huitième ocho octavo octava",
        "9": "nine ninth neun neunte neuf neuvième nueve noveno novena",
        "10": "ten tenth zehn zehnte dix dixième diez décimo décima",
        "11": "eleven elf onze once",
        "12": "twelve zwölf douze doce",
    }.items()
}


def _holds_number(text: str, number: str) -> bool:
    """Whether `text` holds `number`: its digits as a number or inside a word ("vault-7"), or its word ("seven")."""
    if number in numbers(text) or re.search(rf"(?<!\d){re.escape(number)}(?!\d)", text):
        return True
    words = set(re.findall(r"[^\W\d_]+", text.casefold()))
    return bool(words & set(NUMBER_WORDS.get(number, ())))


def _kept_problems(canonical: str, restyled: str, style: str, rules: LintRules | None) -> list[Finding]:
    """Numbers stay (as digits, or as the number's word); titles and identifiers stay (recognisably, when
    misspelled)."""
    problems: list[Finding] = []
    for number in numbers(canonical):
        if not _holds_number(restyled, number):
            problems.append(("number_dropped", f"the rewrite drops or changes {number!r}; keep it exactly"))
    if style != "verbose":  # the asker's situation may hold numbers of its own
        problems += [
            ("number_added", f"the rewrite adds {number!r}, which the question does not hold; add no constraint")
            for number in numbers(restyled)
            if not _holds_number(canonical, number)
        ]
    problems += [
        ("term_dropped", f"the rewrite drops {term!r}, which picks out the answer; keep it")
        for term in key_terms(canonical)
        if not _kept(term, restyled, style, rules)
    ]
    return problems


def _named_anew(canonical: str, restyled: str, phrase: str, rules: LintRules | None) -> bool:
    """Whether the rewrite names `phrase` where the canonical question did not."""
    return bool(phrase.strip()) and names(restyled, phrase, rules) and not names(canonical, phrase, rules)


def _leak_problems(
    canonical: str,
    restyled: str,
    *,
    answer: str,
    binary: bool,
    question_type: str,
    construction: Construction,
    rules: LintRules | None,
) -> list[Finding]:
    problems: list[Finding] = []
    if answer and not binary and question_type != UNANSWERABLE and _named_anew(canonical, restyled, answer, rules):
        problems.append(("answer_in_question", f"the rewrite gives away the answer {answer!r}; leave it out"))
    problems += [
        (
            "hidden_entity",
            f"the rewrite names the hidden intermediate entity {hidden['entity']!r}; describe it as the question does",
        )
        for hidden in construction.get("hidden_entities", [])
        if _named_anew(canonical, restyled, hidden["entity"], rules)
    ]
    return problems


def _wording_problems(canonical: str, restyled: str, style: str, rules: LintRules | None) -> list[Finding]:
    """A meta reference, a second question, an opening pronoun: each only where the rewrite brought it in."""
    problems: list[Finding] = []
    if rules is not None:
        brought = next(
            (
                m.group(0)
                for pattern in rules.meta_references
                if (m := pattern.search(restyled)) and not pattern.search(canonical)
            ),
            None,
        )
        if brought:
            problems.append(
                (
                    "meta_reference",
                    f"the rewrite refers to the material ({brought!r}); a user asks about the subject itself",
                )
            )
        pronoun = opening_pronoun(restyled, rules)
        # A follow-up's pronoun refers to its opening turn; a verbose rewrite opens with the asker's situation.
        if pronoun and style not in ("follow-up", "verbose") and opening_pronoun(canonical, rules) != pronoun:
            problems.append(("opening_pronoun", f"the rewrite opens with {pronoun!r}, which refers to nothing"))
    if (split := second_question(restyled, rules)) and not second_question(canonical, rules):
        problems.append(("two_questions", f"the rewrite asks a second question ({split!r}); ask only the one"))
    return problems


def restyle_problems(
    canonical: str,
    restyled: str,
    style: str,
    *,
    answer: str = "",
    binary: bool = False,
    question_type: str = "factual",
    construction: Construction | None = None,
    language: str = "en",
    max_question_words: int = 40,
    compared: Sequence[str] = (),
    turns: Sequence[str] = (),
) -> list[Finding]:
    """Every failed check of a rewrite of `canonical` in query style `style`: the rule and what to fix.

    `turns` are a follow-up's turns before its question (the user's opening, the assistant's reply): what the
    question must keep may be said in the opening instead."""
    restyled = restyled.strip()
    if not restyled:
        return [("empty", "the rewrite is empty; write the question in the style")]
    if style == "follow-up":
        return follow_up_problems(
            canonical, restyled, list(turns), answer=answer, binary=binary, question_type=question_type,
            construction=construction, language=language, max_question_words=max_question_words,
        )  # fmt: skip
    if restyled == canonical.strip() or (
        style != "misspelled" and normalise_question(restyled) == normalise_question(canonical)
    ):
        return [("unchanged", f"the rewrite is the question itself; write it as a {style} query")]
    rules = LINT_RULES.get(language)
    construction = construction or Construction(compared_entities=list(compared), hidden_entities=[])
    problems = _length_problems(canonical, restyled, style, max_question_words)
    if style == "keyword" and rules is not None and _question_sentence(restyled, rules):
        problems.append(
            ("style_keyword", "a keyword query is key terms, not a question sentence; drop the question words")
        )
    if style == "misspelled":
        problems += _misspelling_problems(canonical, restyled)
    problems += _kept_problems(canonical, restyled, style, rules)
    problems += [
        ("term_dropped", f"the rewrite drops the compared entity {entity!r}; name every one")
        for entity in construction.get("compared_entities", [])
        if not _kept(entity, restyled, style, rules)
    ]
    problems += _leak_problems(
        canonical, restyled, answer=answer, binary=binary, question_type=question_type,
        construction=construction, rules=rules,
    )  # fmt: skip
    return problems + _wording_problems(canonical, restyled, style, rules)


def follow_up_problems(
    canonical: str,
    question: str,
    turns: list[str],
    *,
    answer: str,
    binary: bool,
    question_type: str,
    construction: Construction | None,
    language: str,
    max_question_words: int,
) -> list[Finding]:
    """A follow-up conversation: the user's opening names what the question is about, the assistant states no fact,
    and the question leans on the opening; together they keep every number, title and entity, and give away
    nothing the question did not."""
    opening, reply = (turns + ["", ""])[:2]
    if not opening.strip():
        return [("follow_up_turns", "a follow-up needs the user's opening turn naming what the question is about")]
    rules = LINT_RULES.get(language)
    construction = construction or Construction(compared_entities=[], hidden_entities=[])
    together = f"{opening} {question}"
    if normalise_question(question) == normalise_question(canonical):
        return [("unchanged", "the follow-up repeats the question; refer back to the opening turn instead")]
    problems = _kept_problems(canonical, together, "follow-up", rules)
    problems += [
        ("term_dropped", f"the conversation drops the compared entity {entity!r}; name every one")
        for entity in construction.get("compared_entities", [])
        if not _kept(entity, together, "follow-up", rules)
    ]
    anchors = key_terms(canonical) + list(construction.get("compared_entities", []))
    if anchors and all(_kept(anchor, question, "follow-up", rules) for anchor in anchors):
        problems.append(
            ("follow_up_standalone", "the follow-up names everything itself; let it refer back to the opening turn")
        )
    new_numbers = [n for n in numbers(reply) if not _holds_number(f"{canonical} {opening}", n)]
    if new_numbers or (answer and not binary and _named_anew(canonical, reply, answer, rules)):
        problems.append(("assistant_fact", "the assistant's turn states a fact; let it only acknowledge"))
    for text in (opening, question):
        problems += _leak_problems(
            canonical, text, answer=answer, binary=binary, question_type=question_type,
            construction=construction, rules=rules,
        )  # fmt: skip
        problems += _wording_problems(canonical, text, "follow-up", rules)
    if word_count(question) > max_question_words:
        problems.append(("style_length", f"the follow-up has {word_count(question)} words; keep it short"))
    return list(dict.fromkeys(problems))
