"""lint_question: cheap deterministic checks before paying for judges.

A rule here rejects only what it can establish without doubt: a question a careful person would
accept must pass. Rules that need the generator's account of its construction (the compared
entities, the hidden entities) are never skipped: a draft that declares fewer compared entities than
chunks, or no hidden entity, is sent back for them (`construction`). How a question or an answer names
an entity is `nodes.lint.entities`; what lint knows of each language, `nodes.lint.languages`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from langgraph.runtime import Runtime

from nodes.common import Update, recorded_verdict, word_count
from nodes.language import sample_language
from nodes.lint.entities import folded_forms, names, names_entity, same_entity, stated_alternatives
from nodes.lint.evidence import evidence_problems
from nodes.lint.examples import example_problems
from nodes.lint.languages import LINT_RULES
from nodes.lint.rules import Finding, LintRules, joined_question, second_sentence
from nodes.question_types import type_spec
from nodes.run_context import Context
from state.draft import Draft
from state.languages import answer_words, leading_polarity, polarity
from state.sample import UNANSWERABLE, ChunkRef, SampleState, latest_draft


def opening_pronoun(question: str, rules: LintRules) -> str | None:
    """The pronoun a question opens with that refers to nothing before it; None when it opens otherwise."""
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
    spec = type_spec(question_type)
    alternatives = spec is not None and spec.names_alternatives
    if binary:
        named = _names_compared(question, compared, rules) if alternatives else []
        return _binary_problems(answer, language, wanted) + named
    offered = compared or stated_alternatives(question, rules)
    is_an_option = alternatives and any(same_entity(answer, option, rules) for option in offered)
    if polarity(answer, language) is not None and not is_an_option:  # a band called Yes may still be the answer
        return [
            (
                "yes_no_answer",
                f"the answer is {answer!r}, but this is not a yes/no question; "
                "ask for a name, number, date or short phrase instead",
            )
        ]
    if alternatives:  # naming the alternatives is the type's shape, not a leak
        return _comparison_problems(question, answer, compared, rules)
    if names(question, answer, rules):
        return [
            (
                "answer_in_question",
                f"the question contains its own answer {answer!r}; rephrase so it does not give it away",
            )
        ]
    return []


def _two_questions(second: str) -> Finding:
    return (
        "two_questions",
        f"the question asks two things ({second!r} starts a second question with an answer of its own); ask one "
        "question whose answer combines the facts of every chunk",
    )


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
    if joined := joined_question(question, rules):
        problems.append(_two_questions(joined))
    pronoun = opening_pronoun(question, rules)
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
    chunks: Sequence[str] = (),
    supporting: Sequence[tuple[str, str]] = (),
) -> list[Finding]:
    """Every failed check: the rule it breaks and what to fix.

    `wanted` is a yes/no sample's asked-for answer ("yes" or "no"), when it has one. `language` is the
    question's (ISO 639-1): the wording rules are those of `nodes.lint.languages` for it; a language without
    rules gets the language-neutral ones only.

    A generated unanswerable question (`question_type` unanswerable) has no answer: only the question's
    own checks apply. `chunks` are the supporting chunks' texts: a letter or a bracketed word they use is no
    placeholder of a prompt's example. `supporting` are the supporting chunks as (id, text), labelled A, B, ...
    in order: the draft's evidence is held to them.
    """
    question, answer = draft["question"].strip(), draft["answer"].strip()
    construction = draft.get("construction") or {"compared_entities": [], "hidden_entities": []}
    unanswerable = question_type == UNANSWERABLE
    rules = LINT_RULES.get(language)
    problems = _length_problems(question, None if unanswerable else answer, max_question_words, max_answer_words)
    if rules is not None:
        problems += _wording_problems(question, rules)
    problems += example_problems(question, chunks, rules)
    if not any(rule == "two_questions" for rule, _ in problems) and (split := second_sentence(question)):
        problems.append(_two_questions(split))
    if answer and not unanswerable:
        problems += _answer_problems(
            question, answer, question_type, binary, construction["compared_entities"], wanted, language
        )
    spec = type_spec(question_type)
    for rule in spec.lint if spec else ():
        problems += rule(question, construction, hops, rules)
    problems += evidence_problems(draft, supporting)
    return problems


def steps_answer(state: SampleState) -> bool:
    """Whether the sample's answer lists steps (its type's `steps_answer`)."""
    spec = type_spec(state["question_type"])
    return spec is not None and spec.steps_answer


def chunks_read(state: SampleState) -> list[ChunkRef]:
    """The chunks a draft was written from: the supporting ones, or an unanswerable question's seed and neighbours."""
    if state.get("supporting"):
        return state["supporting"]
    return ([state["seed"]] if state.get("seed") else []) + list(state.get("neighbours") or [])


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
        chunks=[chunk["text"] for chunk in chunks_read(state)],
        supporting=[(chunk["id"], chunk["text"]) for chunk in state.get("supporting") or []],
        max_question_words=context.max_question_words,
        max_answer_words=context.max_procedure_words if steps_answer(state) else context.max_answer_words,
    )
    problems = [message for _, message in findings]
    details: dict[str, object] = {"failed": problems, "rules": [rule for rule, _ in findings]}
    if note := latest_draft(state).get("answer_note"):
        details["answer_note"] = note  # the explanation a yes/no answer came with, kept in the validation history
    return recorded_verdict(state, "lint", accepted=not problems, reason="; ".join(problems), details=details)
