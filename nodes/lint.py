"""lint_question: cheap deterministic checks before paying for judges.

A rule here rejects only what it can establish without doubt: a question a careful person would
accept must pass. Rules that need the generator's account of its construction (the compared
entities, the hidden entities) are skipped when the generator gave none, except where the question
itself shows the same fact (a comparison's alternatives joined by "or").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from langgraph.runtime import Runtime

from nodes.common import Update, recorded_verdict, unspaced, word_count
from nodes.context import Context
from nodes.language import sample_language
from nodes.lint_rules import LINT_RULES, LintRules
from state.languages import answer_words, leading_polarity, polarity
from state.sample import UNANSWERABLE, Construction, Draft, SampleState, latest_draft

#: A failed check: the rule's name and the feedback for the reviser.
Finding = tuple[str, str]

_EDGE = " \t\"'“”‘’«»„.,;:!?¿¡()[]「」。？"


def _trimmed(phrase: str) -> str:
    """A phrase without surrounding quotes and punctuation, and without a trailing parenthesis."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", phrase.strip()).strip(_EDGE)


def _contains(text: str, needle: str, *, fold: bool) -> bool:
    """`needle` in `text` as whole words ("1" is not in "25.1", "US" not in "bus"), case-folded or as written."""
    if len(needle) < 2 and not unspaced(needle):  # a one-letter "phrase" would match the article "a"
        return False
    # In a script without spaces a word has no edge to find: the phrase is looked for as it is.
    start = "" if unspaced(needle[0]) else r"(?<![\w.,])" if needle[0].isdigit() else r"(?<!\w)"
    end = "" if unspaced(needle[-1]) else r"(?!\w|[.,]\d)" if needle[-1].isdigit() else r"(?!\w)"
    pattern = start + re.escape(needle.casefold() if fold else needle) + end
    return re.search(pattern, text.casefold() if fold else text) is not None


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


def _opening_pronoun(question: str, rules: LintRules) -> str | None:
    opening = question.lstrip("¿¡ ")  # Spanish opens a question with its mark
    words = opening.split()
    if not words or not words[0][0].isalpha():  # a quoted opening is a title
        return None
    if rules.not_pronoun is not None and rules.not_pronoun.match(opening):
        return None
    first = re.match(r"[^\W\d_]+", words[0]).group(0).casefold()  # type: ignore[union-attr]
    # "Her Majesty's Theatre", "It Follows": a capitalised word with lower case goes on as a name ("Its CEO" does not).
    following = words[1] if len(words) > 1 else ""
    capitalised = rules.names_after_pronoun and following[:1].isupper() and any(c.islower() for c in following)
    followed_by_name = following[:1] == "(" or capitalised or (rules.names_after_pronoun and _opens_with_title(opening))
    return first if first in rules.pronouns and not followed_by_name else None


def _opens_with_title(opening: str) -> bool:
    """Whether the words before the first break are a title in title case ("It's a Wonderful Life or Vertigo: ..."):
    every word of four letters or more capitalised, and at least one such word after the first."""
    head = re.split(r"[:,;?]|\s(?:or|and|ou|et|o|y)\s", opening, maxsplit=1)[0].split()[1:]
    long_words = [word for word in head if len(word.strip("'’\"")) >= 4]
    return bool(long_words) and all(word[:1].isupper() for word in long_words)


def _length_problems(
    question: str, answer: str | None, max_question_words: int, max_answer_words: int
) -> list[Finding]:
    problems = []
    if not question:
        problems.append(("length", "the question is empty; write one"))
    elif word_count(question) > max_question_words:
        problems.append(
            ("length", f"the question has {word_count(question)} words; keep it under {max_question_words + 1}")
        )
    if answer is None:  # a generated unanswerable question has no answer to check
        pass
    elif not answer:
        problems.append(("length", "the answer is empty; give the short answer"))
    elif word_count(answer) > max_answer_words:
        problems.append(
            ("length", f"the answer has {word_count(answer)} words; make it a short fact (at most {max_answer_words})")
        )
    return problems


def _names_compared(question: str, compared: Sequence[str], rules: LintRules | None) -> list[Finding]:
    """The question names each compared entity (folded, so "St. Petersburg" names "Saint Petersburg")."""
    return [
        ("comparison_names", f"the comparison does not name the compared entity {entity!r}; name every one")
        for entity in compared
        if not names(question, entity, rules) and not names_entity(question, entity, rules)
    ]


def _one_alternative(answer: str, offered: Sequence[str], rules: LintRules | None, what: str) -> list[Finding]:
    """A comparison's answer is exactly one of the alternatives: not none, not two, not a part shared by two."""
    listed = ", ".join(repr(option) for option in offered)
    answer_forms = set(folded_forms(answer, rules))
    if any(answer_forms & set(folded_forms(option, rules)) for option in offered):
        return []  # exactly one of them, once folded ("West Virginia" beside "Virginia")
    named = [option for option in offered if names_entity(answer, option, rules)]
    # An option inside another that the answer names is not named on its own ("Virginia" in "West Virginia").
    named = [o for o in named if not any(o != other and names_entity(other, o, rules) for other in named)]
    if len(named) >= 2:
        return [
            (
                "comparison_answer",
                f"the answer {answer!r} names more than one of the {what} ({listed}); answer with the one the "
                "comparison selects, alone",
            )
        ]
    matching = [option for option in offered if same_entity(answer, option, rules)]
    if len(matching) >= 2:
        return [
            (
                "comparison_answer",
                f"the answer {answer!r} could be any of {', '.join(repr(o) for o in matching)}; answer with the "
                "selected one's name as the question writes it",
            )
        ]
    if not matching:
        return [
            (
                "comparison_answer",
                f"the answer {answer!r} is none of the {what} ({listed}); answer with the one the comparison "
                "selects, written as the question names it",
            )
        ]
    return []


def _comparison_problems(question: str, answer: str, compared: Sequence[str], rules: LintRules | None) -> list[Finding]:
    """A comparison's answer is one of its compared entities, and the question names each of them."""
    if compared:
        named = _names_compared(question, compared, rules)
        # "How many more moons does Jupiter have than Saturn?" answers with a quantity, not an alternative.
        if re.search(r"\d", answer) and not stated_alternatives(question, rules):
            return named
        return named + _one_alternative(answer, compared, rules, "compared entities")
    # Without a declaration, only an answer the question never mentions can be told to be no option.
    alternatives = stated_alternatives(question, rules)
    if alternatives and not names(question, answer, rules):
        return _one_alternative(answer, alternatives, rules, "alternatives the question offers")
    return []


def _binary_problems(answer: str, language: str, wanted: str | None) -> list[Finding]:
    """A yes/no answer is the language's own word for yes or no, and the one the sample asks for.

    Unchecked in a language whose words triad does not know (the quality judge reads the answer)."""
    words = answer_words(language)
    if words is None:
        return []
    given, _ = leading_polarity(answer, language)  # "Yes, because ..." is a Yes; the record keeps the word
    if given is None:
        return [
            (
                "binary_answer",
                f'a yes/no question\'s answer must be exactly "{words[0]}" or "{words[1]}", not {answer!r}',
            )
        ]
    if wanted and given != wanted:
        asked, written = (words[0], words[1]) if wanted == "yes" else (words[1], words[0])
        how = "the chunks' facts confirm it" if wanted == "yes" else "a fact the chunks state contradicts it"
        return [
            (
                "wanted_answer",
                f'this sample asks for a yes/no question whose answer is "{asked}", not "{written}"; '
                f"rephrase the question so that {how}",
            )
        ]
    return []


def _answer_problems(
    question: str,
    answer: str,
    question_type: str,
    binary: bool,
    compared: Sequence[str],
    wanted: str | None,
    language: str,
) -> list[Finding]:
    """The answer's form, and whether the question gives it away."""
    rules = LINT_RULES.get(language)
    if binary:
        named = _names_compared(question, compared, rules) if question_type == "comparison" else []
        return _binary_problems(answer, language, wanted) + named
    offered = compared or stated_alternatives(question, rules)
    is_an_option = question_type == "comparison" and any(same_entity(answer, option, rules) for option in offered)
    if polarity(answer, language) is not None and not is_an_option:  # a band called Yes may still be the answer
        return [
            (
                "yes_no_answer",
                f"the answer is {answer!r}, but this is not a yes/no question; "
                "ask for a name, number, date or short phrase instead",
            )
        ]
    if question_type == "comparison":  # naming the alternatives is the type's shape, not a leak
        return _comparison_problems(question, answer, compared, rules)
    if names(question, answer, rules):
        return [
            (
                "answer_in_question",
                f"the question contains its own answer {answer!r}; rephrase so it does not give it away",
            )
        ]
    return []


# Quoted text (a title, a message) may hold a question mark of its own.
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^“”]*[“”]|«[^»]*»|‘[^’]*’|「[^」]*」')
# A question mark with a further question after it: "Who founded X? And when ...?", "¿...? ¿Y ...?".
_SECOND_SENTENCE = re.compile(r"(?:\?\s+|？\s*)[¿]?\s*(\S.*?)[?？]\s*$")  # not the "?" of a URL's query


def _two_questions(second: str) -> Finding:
    return (
        "two_questions",
        f"the question asks two things ({second!r} starts a second question with an answer of its own); ask one "
        "question whose answer combines the facts of every chunk",
    )


def _second_sentence(question: str) -> Finding | None:
    """Two questions written as two sentences, in any language."""
    match = _SECOND_SENTENCE.search(_QUOTED.sub('""', question))
    return _two_questions(match.group(1)) if match else None


def _wording_problems(question: str, rules: LintRules) -> list[Finding]:
    """The language's own rules: phrases pointing at the material, two questions in one, an opening pronoun."""
    problems: list[Finding] = []
    meta = next((m.group(0) for pattern in rules.meta_references if (m := pattern.search(question))), None)
    if meta:
        problems.append(
            (
                "meta_reference",
                f"the question refers to the material it was written from ({meta!r}); "
                "ask about the subject itself, naming its entities",
            )
        )
    second = next(
        (m for pattern in rules.second_question if (m := pattern.search(question))),
        None,
    )
    if second and rules.interrogative.search(question[: second.start()]):
        problems.append(_two_questions(second.group(0).strip(" ,;")))
    pronoun = _opening_pronoun(question, rules)
    if pronoun:
        problems.append(
            ("opening_pronoun", f"the question starts with the pronoun {pronoun!r}, which refers to nothing; name it")
        )
    return problems


def _construction_problems(question_type: str, construction: Construction, hops: int) -> list[Finding]:
    """The construction fields the later rules need: one compared entity per chunk, a composition's hidden entity."""
    compared = construction["compared_entities"]
    if question_type == "comparison" and len(compared) < hops:
        return [
            (
                "construction",
                f"the comparison declares {len(compared)} compared entities for {hops} chunks; list in "
                "compared_entities every entity the question compares, one per chunk, as the question names it",
            )
        ]
    if question_type == "composition" and not construction["hidden_entities"]:
        return [
            (
                "construction",
                "the composition declares no hidden entity; give in hidden_entities the intermediate entity the "
                "first chunk identifies and that chunk's label",
            )
        ]
    return []


def lint_problems(
    draft: Draft,
    *,
    question_type: str,
    binary: bool,
    max_question_words: int,
    max_answer_words: int,
    wanted: str | None = None,
    language: str = "en",
    hops: int = 2,
) -> list[Finding]:
    """Every failed check: the rule it breaks and what to fix.

    `wanted` is a yes/no sample's asked-for answer ("yes" or "no"), when it has one. `language` is the
    question's (ISO 639-1): the wording rules are those of `nodes.lint_rules` for it; a language without
    rules gets the language-neutral ones only.

    A generated unanswerable question (`question_type` unanswerable) has no answer: only the question's
    own checks apply.
    """
    question, answer = draft["question"].strip(), draft["answer"].strip()
    construction = draft.get("construction") or {"compared_entities": [], "hidden_entities": []}
    unanswerable = question_type == UNANSWERABLE
    rules = LINT_RULES.get(language)
    problems = _length_problems(question, None if unanswerable else answer, max_question_words, max_answer_words)
    if rules is not None:
        problems += _wording_problems(question, rules)
    if not any(rule == "two_questions" for rule, _ in problems) and (split := _second_sentence(question)):
        problems.append(split)
    if answer and not unanswerable:
        problems += _answer_problems(
            question, answer, question_type, binary, construction["compared_entities"], wanted, language
        )
    problems += _construction_problems(question_type, construction, hops)
    if question_type == "composition":
        problems += [
            (
                "hidden_entity",
                f"the composition question names the hidden intermediate entity {hidden['entity']!r}; "
                "describe it through the chunk that identifies it instead",
            )
            for hidden in construction["hidden_entities"]
            if names(question, hidden["entity"], rules)
        ]
    return problems


async def lint_question(state: SampleState, runtime: Runtime[Context]) -> Update:
    """Deterministic checks of the latest draft; a failure is feedback and costs a revision."""
    context = runtime.context
    findings = lint_problems(
        latest_draft(state),
        question_type=state["question_type"],
        binary=state["binary"],
        wanted=state.get("wanted_answer"),
        language=sample_language(state, context),
        hops=len(state.get("supporting") or []) or state.get("hops", 2),
        max_question_words=context.max_question_words,
        max_answer_words=context.max_procedure_words
        if state["question_type"] == "procedural"
        else context.max_answer_words,
    )
    problems = [message for _, message in findings]
    details: dict[str, object] = {"failed": problems, "rules": [rule for rule, _ in findings]}
    if note := latest_draft(state).get("answer_note"):
        details["answer_note"] = note  # the explanation a yes/no answer came with, kept in the validation history
    return recorded_verdict(state, "lint", accepted=not problems, reason="; ".join(problems), details=details)
