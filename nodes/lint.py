"""lint_question: cheap deterministic checks before paying for judges.

A rule here rejects only what it can establish without doubt: a question a careful person would
accept must pass. Rules that need the generator's account of its construction (the compared
entities, the hidden entities) are skipped when the generator gave none, except where the question
itself shows the same fact (a comparison's alternatives joined by "or").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph.runtime import Runtime

from nodes.common import Update, recorded_verdict, unspaced, word_count
from nodes.context import Context
from nodes.language import sample_language
from nodes.lint_rules import LINT_RULES, LintRules
from state.languages import answer_words, polarity
from state.sample import UNANSWERABLE, Draft, SampleState, latest_draft

#: A failed check: the rule's name and the feedback for the reviser.
Finding = tuple[str, str]

_EDGE = " \t\"'“”‘’«»„.,;:!?¿¡()[]「」。？"


def _bare(phrase: str, rules: LintRules | None) -> str:
    """A phrase without surrounding quotes and punctuation or a leading article, case-folded."""
    trimmed = _trimmed(phrase).casefold()
    return rules.article.sub("", trimmed) if rules else trimmed


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


def _words(phrase: str, rules: LintRules | None) -> set[str]:
    """A phrase's words, case-folded, without articles."""
    words = re.findall(r"[^\W_]+", phrase.casefold())
    return {word for word in words if not (rules and rules.article.match(word + " "))}


def same_entity(answer: str, entity: str, rules: LintRules | None = None) -> bool:
    """Whether an answer is the entity: equal once bare, one names the other as whole words, or one's words
    all stand among the other's ("the formation of The Black Keys" is "the formation of the band The Black Keys")."""
    bare_answer, bare_entity = _bare(answer, rules), _bare(entity, rules)
    if not bare_answer or not bare_entity:
        return False
    if bare_answer == bare_entity or names(answer, entity, rules) or names(entity, answer, rules):
        return True
    answer_words, entity_words = _words(answer, rules), _words(entity, rules)
    return bool(answer_words and entity_words) and (answer_words <= entity_words or entity_words <= answer_words)


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
    followed_by_name = following[:1] == "(" or capitalised
    return first if first in rules.pronouns and not followed_by_name else None


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


def _comparison_problems(question: str, answer: str, compared: Sequence[str], rules: LintRules | None) -> list[Finding]:
    """A comparison's answer is one of its compared entities, and the question names each of them."""
    if compared:
        problems = [
            ("comparison_names", f"the comparison does not name the compared entity {entity!r}; name every one")
            for entity in compared
            if not names(question, entity, rules)
        ]
        if not any(same_entity(answer, entity, rules) for entity in compared):
            listed = ", ".join(repr(entity) for entity in compared)
            problems.append(
                (
                    "comparison_answer",
                    f"the answer {answer!r} is none of the compared entities ({listed}); answer with the one the "
                    "comparison selects, written as the question names it",
                )
            )
        return problems
    # Without a declaration, only an answer the question never mentions can be told to be no option.
    alternatives = stated_alternatives(question, rules)
    if (
        alternatives
        and not names(question, answer, rules)
        and not any(same_entity(answer, o, rules) for o in alternatives)
    ):
        listed = ", ".join(repr(option) for option in alternatives)
        return [
            ("comparison_answer", f"the answer {answer!r} is none of the alternatives the question offers ({listed})")
        ]
    return []


def _binary_problems(answer: str, language: str, wanted: str | None) -> list[Finding]:
    """A yes/no answer is the language's own word for yes or no, and the one the sample asks for.

    Unchecked in a language whose words triad does not know (the quality judge reads the answer)."""
    words = answer_words(language)
    if words is None:
        return []
    given = polarity(answer, language)
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
    if binary:
        return _binary_problems(answer, language, wanted)
    rules = LINT_RULES.get(language)
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
    second = rules.second_question.search(question)
    if second and rules.interrogative.search(question[: second.start()]):
        problems.append(
            (
                "two_questions",
                f"the question asks two things ({second.group(0).strip(', ')!r} starts a second question with an "
                "answer of its own); ask one question whose answer combines the facts of every chunk",
            )
        )
    pronoun = _opening_pronoun(question, rules)
    if pronoun:
        problems.append(
            ("opening_pronoun", f"the question starts with the pronoun {pronoun!r}, which refers to nothing; name it")
        )
    return problems


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
    if answer and not unanswerable:
        problems += _answer_problems(
            question, answer, question_type, binary, construction["compared_entities"], wanted, language
        )
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
        max_question_words=context.max_question_words,
        max_answer_words=context.max_procedure_words
        if state["question_type"] == "procedural"
        else context.max_answer_words,
    )
    problems = [message for _, message in findings]
    details = {"failed": problems, "rules": [rule for rule, _ in findings]}
    return recorded_verdict(state, "lint", accepted=not problems, reason="; ".join(problems), details=details)
