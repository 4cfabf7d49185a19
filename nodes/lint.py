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

from nodes.common import Update, recorded_verdict, word_count, yes_or_no
from nodes.context import Context
from state.sample import UNANSWERABLE, Draft, SampleState, latest_draft

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
_META_REFERENCES = (
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
)
# Words a question opens with.
_INTERROGATIVE = r"(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|does|do|did|has|have|had|can|could)"
# ", and what is ...?": a second question joined to the first, with an answer of its own. A clause such as
# "and where Y died" (no auxiliary after the wh-word) is part of one question and passes.
_SECOND_QUESTION = re.compile(
    r",\s*and\s+(?:what|which|who|whom|whose|when|where|why|how)\s+"
    r"(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|many|much|long|often|old|large)\b",
    re.IGNORECASE,
)
# A question opening with one of these words, not followed by a name ("It Follows", "Her Majesty's
# Theatre"), points at something it never named.
_PRONOUNS = {"it", "its", "they", "them", "their", "he", "him", "his", "she", "her", "this", "these", "those"}
# The alternatives at the end of a comparison: "..., X or Y?", "...: X, Y or Z?".
_ALTERNATIVES = re.compile(r"[,:]\s*([^,:?]+?(?:\s*,\s*[^,:?]+?)*)\s*,?\s+or\s+([^,:?]+?)\s*\?*\s*$")
#: A failed check: the rule's name and the feedback for the reviser.
Finding = tuple[str, str]

_EDGE = " \t\"'“”‘’«».,;:!?()[]"


def _bare(phrase: str) -> str:
    """A phrase without surrounding quotes and punctuation or a leading article, case-folded."""
    return re.sub(r"^(?:the|a|an)\s+", "", _trimmed(phrase).casefold())


def _trimmed(phrase: str) -> str:
    """A phrase without surrounding quotes and punctuation, and without a trailing parenthesis."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", phrase.strip()).strip(_EDGE)


def _contains(text: str, needle: str, *, fold: bool) -> bool:
    """`needle` in `text` as whole words ("1" is not in "25.1", "US" not in "bus"), case-folded or as written."""
    if len(needle) < 2:  # a one-letter "phrase" would match the article "a"
        return False
    start = r"(?<![\w.,])" if needle[0].isdigit() else r"(?<!\w)"
    end = r"(?!\w|[.,]\d)" if needle[-1].isdigit() else r"(?!\w)"
    pattern = start + re.escape(needle.casefold() if fold else needle) + end
    return re.search(pattern, text.casefold() if fold else text) is not None


def names(text: str, phrase: str) -> bool:
    """Whether `text` names `phrase`: its words case-folded ("the Danube" in "the danube's source"), or,
    without a leading article, its name as written ("Danube" for "the Danube", but "who" is not "The Who")."""
    trimmed = _trimmed(phrase)
    if _contains(text, trimmed, fold=True):
        return True
    without = re.sub(r"^(?:the|a|an)\s+", "", trimmed, flags=re.IGNORECASE)
    if without == trimmed or not without[:1].isupper():
        return False
    # A capitalised name opening the question is its first word, not a mention ("Who wrote Tommy?").
    rest = text.strip(_EDGE)
    return _contains(rest[rest.find(" ") + 1 :] if " " in rest else "", without, fold=False)


def _words(phrase: str) -> set[str]:
    """A phrase's words, case-folded, without articles."""
    return {word for word in re.findall(r"[^\W_]+", phrase.casefold()) if word not in ("the", "a", "an")}


def same_entity(answer: str, entity: str) -> bool:
    """Whether an answer is the entity: equal once bare, one names the other as whole words, or one's words
    all stand among the other's ("the formation of The Black Keys" is "the formation of the band The Black Keys")."""
    bare_answer, bare_entity = _bare(answer), _bare(entity)
    if not bare_answer or not bare_entity:
        return False
    if bare_answer == bare_entity or names(answer, entity) or names(entity, answer):
        return True
    answer_words, entity_words = _words(answer), _words(entity)
    return bool(answer_words and entity_words) and (answer_words <= entity_words or entity_words <= answer_words)


def stated_alternatives(question: str) -> list[str]:
    """The alternatives a comparison question offers ("..., X or Y?"); empty when it offers none readably."""
    match = _ALTERNATIVES.search(question.strip())
    if not match:
        return []
    before = [part.strip() for part in match.group(1).split(",")]
    return [part for part in (*before, match.group(2).strip()) if part]


def _opening_pronoun(question: str) -> str | None:
    words = question.split()
    if not words or not words[0][0].isalpha():  # a quoted opening is a title
        return None
    first = re.match(r"[^\W\d_]+", words[0]).group(0).casefold()  # type: ignore[union-attr]
    # "Her Majesty's Theatre", "It Follows": a capitalised word with lower case goes on as a name ("Its CEO" does not).
    following = words[1] if len(words) > 1 else ""
    followed_by_name = following[:1] == "(" or (following[:1].isupper() and any(c.islower() for c in following))
    return first if first in _PRONOUNS and not followed_by_name else None


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


def _comparison_problems(question: str, answer: str, compared: Sequence[str]) -> list[Finding]:
    """A comparison's answer is one of its compared entities, and the question names each of them."""
    if compared:
        problems = [
            ("comparison_names", f"the comparison does not name the compared entity {entity!r}; name every one")
            for entity in compared
            if not names(question, entity)
        ]
        if not any(same_entity(answer, entity) for entity in compared):
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
    alternatives = stated_alternatives(question)
    if alternatives and not names(question, answer) and not any(same_entity(answer, o) for o in alternatives):
        listed = ", ".join(repr(option) for option in alternatives)
        return [
            ("comparison_answer", f"the answer {answer!r} is none of the alternatives the question offers ({listed})")
        ]
    return []


def _answer_problems(
    question: str, answer: str, question_type: str, binary: bool, compared: Sequence[str], wanted: str | None
) -> list[Finding]:
    """The answer's form, and whether the question gives it away."""
    if binary:
        given = yes_or_no(answer)
        if given is None:
            return [("binary_answer", f'a yes/no question\'s answer must be exactly "Yes" or "No", not {answer!r}')]
        if wanted and given.casefold() != wanted:
            asked = wanted.capitalize()
            how = "the chunks' facts confirm it" if wanted == "yes" else "a fact the chunks state contradicts it"
            return [
                (
                    "wanted_answer",
                    f'this sample asks for a yes/no question whose answer is "{asked}", not "{given}"; '
                    f"rephrase the question so that {how}",
                )
            ]
        return []
    offered = compared or stated_alternatives(question)
    is_an_option = question_type == "comparison" and any(same_entity(answer, option) for option in offered)
    if yes_or_no(answer) is not None and not is_an_option:  # a band called Yes may still be the answer
        return [
            (
                "yes_no_answer",
                f"the answer is {answer!r}, but this is not a yes/no question; "
                "ask for a name, number, date or short phrase instead",
            )
        ]
    if question_type == "comparison":  # naming the alternatives is the type's shape, not a leak
        return _comparison_problems(question, answer, compared)
    if names(question, answer):
        return [
            (
                "answer_in_question",
                f"the question contains its own answer {answer!r}; rephrase so it does not give it away",
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
) -> list[Finding]:
    """Every failed check: the rule it breaks and what to fix.

    `wanted` is a yes/no sample's asked-for answer ("yes" or "no"), when it has one.

    A generated unanswerable question (`question_type` unanswerable) has no answer: only the question's
    own checks apply.
    """
    question, answer = draft["question"].strip(), draft["answer"].strip()
    construction = draft.get("construction") or {"compared_entities": [], "hidden_entities": []}
    unanswerable = question_type == UNANSWERABLE
    problems = _length_problems(question, None if unanswerable else answer, max_question_words, max_answer_words)
    meta = next((m.group(0) for pattern in _META_REFERENCES if (m := pattern.search(question))), None)
    if meta:
        problems.append(
            (
                "meta_reference",
                f"the question refers to the material it was written from ({meta!r}); "
                "ask about the subject itself, naming its entities",
            )
        )
    second = _SECOND_QUESTION.search(question)
    if second and re.match(rf"{_INTERROGATIVE}\b", question, re.IGNORECASE):
        problems.append(
            (
                "two_questions",
                f"the question asks two things ({second.group(0).strip(', ')!r} starts a second question with an "
                "answer of its own); ask one question whose answer combines the facts of every chunk",
            )
        )
    pronoun = _opening_pronoun(question)
    if pronoun:
        problems.append(
            ("opening_pronoun", f"the question starts with the pronoun {pronoun!r}, which refers to nothing; name it")
        )
    if answer and not unanswerable:
        problems += _answer_problems(
            question, answer, question_type, binary, construction["compared_entities"], wanted
        )
    if question_type == "composition":
        problems += [
            (
                "hidden_entity",
                f"the composition question names the hidden intermediate entity {hidden['entity']!r}; "
                "describe it through the chunk that identifies it instead",
            )
            for hidden in construction["hidden_entities"]
            if names(question, hidden["entity"])
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
        max_question_words=context.max_question_words,
        max_answer_words=context.max_answer_words,
    )
    problems = [message for _, message in findings]
    details = {"failed": problems, "rules": [rule for rule, _ in findings]}
    return recorded_verdict(state, "lint", accepted=not problems, reason="; ".join(problems), details=details)
