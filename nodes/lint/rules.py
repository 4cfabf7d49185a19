"""What lint must know of a language, as one record (`LintRules`), and the builders of the patterns every
language's table shares the shape of: a second question after the first, a comparison's alternatives; and
where a text asks a second question (`second_question`), which lint and the restyle check share.

The tables themselves, one module per language, are in `nodes.lint.languages`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: A failed check: the rule's name and the feedback for the reviser.
Finding = tuple[str, str]


@dataclass(frozen=True)
class LintRules:
    meta_references: tuple[re.Pattern[str], ...]
    """Phrases that can only point at the material a question was written from."""
    interrogative: re.Pattern[str]
    """A question word: the first half of a two-question draft holds one."""
    second_question: tuple[re.Pattern[str], ...]
    """A second interrogative clause joined to the first by a coordinator or punctuation (", and what is ...?",
    "and when was ...", "; what ...", ", and by whom?"), asking for an answer of its own."""
    pronouns: frozenset[str]
    """Words that, opening a question, point at something it never named; not those that can also address the
    asker formally ("Sie", "Ihre", "su"), which only a reader can tell apart."""
    not_pronoun: re.Pattern[str] | None
    """An opening that starts with such a word but names nothing ("Il y a ...", "Es gibt ...")."""
    names_after_pronoun: bool
    """Whether a capitalised word after the opening one makes it a name ("Her Majesty's Theatre"); not in
    German, which capitalises every noun ("Dieser Parameter")."""
    article: re.Pattern[str]
    """A leading article, dropped when an answer is matched against an entity."""
    alternatives: re.Pattern[str]
    """The alternatives at the end of a comparison question: "..., X or Y?"."""
    abbreviations: dict[str, tuple[str, ...]]
    """Short forms a name is written with and what each can stand for ("st" -> "saint", "street"), folded."""
    placeholder_words: frozenset[str]
    """Words a template puts in brackets for an entity ("<entity>", "[Name]"), case-folded: bracketed, they are
    a placeholder even where the chunks use the word."""
    umlauts: bool = False
    """Whether "ä" may be written "ae" (German): both fold to the same letters."""
    second_clause: tuple[re.Pattern[str], ...] = ()
    """A coordinated clause whose question word shows that it asks (followed by an ordinary finite verb, "and who
    composed its score"; or marked as a question word, "y qué opción ..."): a second question, unless the first
    part opens a clause it continues or holds no more than the question word and a noun ("Which setting or which
    variable ...")."""
    opening: re.Pattern[str] | None = None
    """The question's own question word at its start, with a preposition before it ("Which", "¿En qué")."""
    continued: re.Pattern[str] | None = None
    """A relative pronoun or a question word inside the first part, after its opening: a `second_clause` after it
    may be the next relative clause or indirect question of a list ("the author who founded X and who wrote Y",
    "shows which packages are installed and which one ...")."""


def second_questions(
    *,
    coordinators: str,
    prepositions: str,
    wh_words: str,
    wh_phrases: str,
    finite: str,
    after_finite: str = "",
    inverted: str = "",
    after_comma: str = "",
    noun: str = r"(?!(?:it|they|he|she|we|you|i|there|this|es|er|sie|man|il|elle|ils|elles|on)\b)[\w'’-]+",
) -> tuple[re.Pattern[str], ...]:
    """The forms of a second question after a first one, built from the language's words.

    - a semicolon, then a question word: "...; what is its default?";
    - a coordinator ("and"), maybe a preposition, then a question word and a finite verb that opens a main
      clause: "and when was X founded", "and in which year was it built", "und wann wurde", "y cuándo fue".
      A subordinate clause keeps its subject first ("and when they are flushed", "und wann sie aktualisiert
      wurden") and passes. `wh_phrases` (which, how many) may take up to three nouns before the verb;
      `noun` is what such a noun may be; `after_finite`, where given, is what must follow that verb (the subject
      of an inverted clause);
    - `inverted`: a verb with its subject pronoun joined after it ("a-t-il", "se trouve-t-elle");
    - after a comma and a coordinator, a question word and at most three words ending the question (", and by
      whom?", ", and how many years apart?"), or, where
      `after_comma` is given, any of those question words (Spanish and French mark them unmistakably).
    """
    coordinated = rf"\b(?:{coordinators})\s+(?:(?:{prepositions})\s+)?"
    noun_run = rf"(?:{noun}\s+){{0,3}}?"
    verb = rf"(?:{finite})\b" + (rf"(?=\s+(?:{after_finite}))" if after_finite else "")
    patterns = [
        re.compile(rf";\s*(?:(?:{coordinators})\s+)?(?:(?:{prepositions})\s+)?(?:{wh_words}|{wh_phrases})\b", re.I),
        re.compile(rf"{coordinated}(?:(?:{wh_words})\s+{verb}|(?:{wh_phrases})\s+{noun_run}{verb})", re.I),
        re.compile(rf",\s*{coordinated}(?:{wh_words}|{wh_phrases})(?:\s+[\w'’-]+){{0,3}}\s*[?？]\s*$", re.I),
    ]
    if inverted:
        patterns.append(
            re.compile(rf"{coordinated}(?:{wh_words}|{wh_phrases})\s+(?:[\w'’]+\s+){{0,3}}?{inverted}", re.I)
        )
    if after_comma:
        patterns.append(re.compile(rf",\s*{coordinated}(?:¿\s*)?(?:{after_comma})\b", re.I))
    return tuple(patterns)


def coordinated_clauses(
    *, coordinators: str, bare: str, determiners: str = "", noun: str = "", verb: str = ""
) -> tuple[re.Pattern[str], ...]:
    """The forms of a coordinated clause that asks (`second_clause`), with or without a comma before the
    coordinator:
    - `bare`: a question word with what shows that it asks, as the language marks it: its verb ("who composed",
      "qui maintient"), or, where the word itself is marked, the word alone (Spanish "quién", "qué");
    - `determiners`: a question word that takes a noun ("which", "quelle"), one to three `noun` words, then
      `verb` ("what option selects", "quelle option sélectionne")."""
    coordinated = rf"\b(?:{coordinators})\s+"
    patterns = [re.compile(rf"{coordinated}(?:{bare})", re.IGNORECASE)]
    if determiners:
        patterns.append(re.compile(rf"{coordinated}(?:{determiners})\s+(?:{noun}\s+){{1,3}}?(?:{verb})", re.IGNORECASE))
    return tuple(patterns)


def alternatives(conjunction: str) -> re.Pattern[str]:
    """ "..., X or Y?", "...: X, Y or Z?" with the language's "or"."""
    return re.compile(rf"[,:]\s*([^,:?¿]+?(?:\s*,\s*[^,:?¿]+?)*)\s*,?\s+(?:{conjunction})\s+([^,:?]+?)\s*\?*\s*$")


# Quoted text (a title, a message) may hold a question mark of its own.
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|„[^“”]*[“”]|«[^»]*»|‘[^’]*’|「[^」]*」')
# A question mark with a further question after it: "Who founded X? And when ...?", "¿...? ¿Y ...?".
_SECOND_SENTENCE = re.compile(r"(?:\?\s+|？\s*)[¿]?\s*(\S.*?)[?？]\s*$")  # not the "?" of a URL's query


def joined_question(question: str, rules: LintRules) -> str | None:
    """A second question joined to the first in the language's way (", and when ..."), where it starts."""
    second = next((m for pattern in rules.second_question if (m := pattern.search(question))), None)
    if second and rules.interrogative.search(question[: second.start()]) and asks_on(question[: second.start()], rules):
        return second.group(0).strip(" ,;")
    return second_clause(question, rules)


def asks_on(first: str, rules: LintRules) -> bool:
    """Whether the part before a coordinated question word goes on past its own question word and one noun: "Which
    setting or which variable overrides ...", "¿Con qué versiones y qué sistemas ...?" join two subjects of one
    question."""
    opening = rules.opening.match(first) if rules.opening is not None else None
    return opening is None or len(first[opening.end() :].split()) >= 2


def second_clause(question: str, rules: LintRules) -> str | None:
    """A coordinated clause that asks (`LintRules.second_clause`), where it starts, when the first part is a
    question of its own: a verb's worth of words after its question word, and no relative clause or indirect
    question the clause could continue. Quoted text (a title) is read as a name."""
    text = _QUOTED.sub('""', question)
    clause = next((m for pattern in rules.second_clause if (m := pattern.search(text))), None)
    if clause is None:
        return None
    first = text[: clause.start()]
    if not rules.interrogative.search(first):
        return None
    if not asks_on(first, rules):
        return None
    opening = rules.opening.match(first) if rules.opening is not None else None
    inside = first[opening.end() :] if opening else first
    if rules.continued is not None and rules.continued.search(inside):
        return None
    return clause.group(0).strip(" ,;")


def second_sentence(question: str) -> str | None:
    """A second question written as a sentence of its own, in any language: where it starts."""
    match = _SECOND_SENTENCE.search(_QUOTED.sub('""', question))
    return match.group(1) if match else None


def second_question(question: str, rules: LintRules | None) -> str | None:
    """Where a second question starts when the text asks two (joined in the language's way, or as two
    sentences); None when it asks one."""
    return (joined_question(question, rules) if rules is not None else None) or second_sentence(question)
