"""Whether a question copies a prompt's example: it holds a placeholder where an entity belongs, it names an
entity of an example that no supporting chunk names, or it is an example that names nothing.

A placeholder is a letter the examples stand entities with (X, Y, Z), a bracketed slot ("<entity>",
"[Name]") or an ellipsis between words ("both ... and ..."). The same letters and signs are parts of real
names and syntax ("Mac OS X", "the X server", "servidor X", "union(X, Y)", "<dir>", "ALTER TABLE ... DETACH"):
one the supporting chunks write too, or one that sits inside a name or in code, is not a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from nodes.lint.entities import names
from nodes.lint.rules import LintRules
from prompts import examples, generate

#: A failed check: the rule's name and the feedback for the reviser.
Finding = tuple[str, str]

_LETTERS = "XYZ"
# A letter standing alone: not part of a word, an identifier ("X11", "x-axis", "X.Org", "X_OK") or a path. The
# word characters are those of scripts that space their words: beside a Japanese or Chinese character, X stands
# alone ("XとY").
_SPACED = r"0-9A-Za-z_\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff"
_DASHES = "\\-\u2010\u2011\u2012\u2013\u2014"
_LETTER = re.compile(rf"(?<![{_SPACED}.{_DASHES}/\\'’])([{_LETTERS}])(?![{_SPACED}{_DASHES}/\\]|\.[{_SPACED}])")
# The letter as the chunks may write it: either case, alone or joined to a dash, a digit or an identifier
# ("x-axis", "X11Forwarding", "X-rays", "el eje x"), though not inside a word of lower-case letters.
_USED = re.compile(rf"(?<![A-Za-z\u00c0-\u024f])([{_LETTERS}{_LETTERS.lower()}])(?![a-z\u00df-\u00ff])")
# Two slot letters offered side by side ("X or Y", "Company X or Company Y", "Verein X oder Verein Y").
_PAIR = re.compile(
    rf"(?<![{_SPACED}])([{_LETTERS}])\s*(?:,|\b(?:or|and|oder|und|ou|et|o|y|e)\b)\s*(?:\w+\s+)?([{_LETTERS}])(?![{_SPACED}])"
)
# A bracketed slot: a few words inside <>, [] or {}, with nothing of markup or code in them.
_BRACKETED = re.compile(r"<([^\W\d_][\w -]{0,40})>|\[([^\W\d_][\w -]{0,40})\]|\{([^\W\d_][\w -]{0,40})\}")
_ELLIPSIS = re.compile(r"(?<![\w.])(?:\.\.\.|…)(?![\w.])")
_WORD_BEFORE = re.compile(r"([^\s\"'“”«»„(]+)\s*$")
_WORD_AFTER = re.compile(r"^\s*([^\s\"'“”«»„)?？!]+)")


def _part_of_name(question: str, start: int, end: int) -> bool:
    """Whether a letter at question[start:end] sits in a name: beside a capitalised word that is not the
    question's first ("Mac OS X", "X Window System") or beside a number ("X 11")."""
    before = _WORD_BEFORE.search(question[:start])
    after = _WORD_AFTER.search(question[end:])
    neighbours = []
    if before and question[: before.start()].strip(" ¿¡"):  # the opening word is capitalised as any opening is
        neighbours.append(before.group(1))
    if after:
        neighbours.append(after.group(1))
    adjacent = [word for word in neighbours if not re.search(r"[,;:]$", word)]
    return any(word[:1].isupper() and len(word) > 1 or word[:1].isdigit() for word in adjacent)


def _placeholder_letter(question: str, source: str) -> str | None:
    used = {match.group(1).upper() for match in _USED.finditer(source)}
    for pair in _PAIR.finditer(question):
        if pair.group(1) != pair.group(2) and not {pair.group(1), pair.group(2)} <= used:
            return pair.group(1)
    for match in _LETTER.finditer(question):
        letter = match.group(1)
        if letter not in used and not _part_of_name(question, match.start(), match.end()):
            return letter
    return None


def _placeholder_slot(question: str, source: str, rules: LintRules | None) -> str | None:
    folded = source.casefold()
    words = rules.placeholder_words if rules is not None else frozenset()
    for match in _BRACKETED.finditer(question):
        content = next(group for group in match.groups() if group is not None).strip()
        opening = match.group(0)[0] + content
        if opening.casefold() in folded:  # a tag or a slot of the chunks' own syntax ("<dir prefix=...>")
            continue
        if content.casefold() not in words and (not source or names(source, content)):
            continue  # a term the chunks write, put in brackets ("-D <directory>"); without chunks, any but a slot word
        return match.group(0)
    return None


def _placeholder_ellipsis(question: str, source: str) -> str | None:
    """An ellipsis with a plain word or the question's edge on both sides ("Which ... both ... and ...?"), where
    the chunks write no ellipsis beside the same word; not one eliding code ("CREATE TABLE ... INHERITS")."""
    elided = source.replace("…", "...")
    for match in _ELLIPSIS.finditer(question):
        before = _WORD_BEFORE.search(question[: match.start()])
        after = _WORD_AFTER.search(question[match.end() :])
        sides = [side.group(1) for side in (before, after) if side]
        if any(f"{word} ..." in elided or f"... {word}" in elided for word in sides):
            continue
        opening = before is not None and not question[: before.start()].strip(" ¿¡")
        if _plain(before, capitalised=opening) and _plain(after, capitalised=False):
            return match.group(0)
    return None


def _plain(side: re.Match[str] | None, *, capitalised: bool) -> bool:
    """Whether the word beside an ellipsis is a plain word (or there is none): lower case, or the question's
    capitalised first word; not code, a name or a number."""
    if side is None:
        return True
    word = side.group(1)
    return re.fullmatch(r"[^\W\d_]+", word) is not None and (word.islower() or capitalised)


def _normal(question: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", question.casefold()))


#: Every example question a prompt shows, with the names a copy carries: the criteria's and the judges', and each
#: question type's (which name nothing).
EXAMPLES: dict[str, tuple[str, ...]] = {**examples.EXAMPLES, **dict.fromkeys(generate.TYPE_EXAMPLES, ())}

#: Each example that names nothing, by its words (a question copies it when its words are the same).
_WORDED_EXAMPLES = {_normal(example): example for example, example_names in EXAMPLES.items() if not example_names}


def _copied_example(question: str, source: str, rules: LintRules | None) -> str | None:
    if (copied := _WORDED_EXAMPLES.get(_normal(question))) is not None:
        return copied
    for example, example_names in EXAMPLES.items():
        if (
            example_names
            and source
            and any(names(question, name, rules) and not names(source, name, rules) for name in example_names)
        ):
            return example
    return None


def example_problems(question: str, chunks: Sequence[str], rules: LintRules | None) -> list[Finding]:
    """The finding (rule `prompt_example`) for a question that copies a prompt's example or holds its
    placeholders; none for a question about the chunks' own entities.

    Without chunks, what only they can settle is left alone: a bracketed term other than a slot word, an example's
    names."""
    source = "\n".join(chunks)
    placeholder = (
        _placeholder_letter(question, source)
        or _placeholder_slot(question, source, rules)
        or _placeholder_ellipsis(question, source)
    )
    if placeholder:
        return [
            (
                "prompt_example",
                f"the question holds the placeholder {placeholder!r} where an entity belongs; name the entity "
                "the chunks give",
            )
        ]
    copied = _copied_example(question, source, rules)
    if copied:
        return [
            (
                "prompt_example",
                f"the question copies the prompt's example {copied!r}; ask about the entities of the supporting "
                "chunks instead",
            )
        ]
    return []
