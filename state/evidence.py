"""Evidence: the verbatim sentences of a chunk that a record's answer rests on, and where they stand.

A quote is looked for in a text as it is, then with white space and quote marks folded (a model copies "it’s"
as "it's", a line break as a space, « --force » as "--force"), so that a copy that differs only so is found, at its
place in the original.
"""

from __future__ import annotations

#: Quote marks, single and double, folded to one before a quote is looked for (a copy may swap one for another,
#: and an apostrophe for a typographic one).
_QUOTE_MARKS = str.maketrans(dict.fromkeys("“”„‟«»″〝〞＂‘’‚‛′`´'", '"'))


def folded(text: str) -> str:
    """`text` with every quote mark one plain mark, every run of white space one space, none beside a quote mark
    (French writes « x » where a copy writes "x"), and none at the ends."""
    return _folded_with_places(text)[0]


def _folded_with_places(text: str) -> tuple[str, list[int]]:
    """`folded(text)`, and for each of its characters the index of the character of `text` it stands for."""
    chars: list[str] = []
    places: list[int] = []
    for index, char in enumerate(text.translate(_QUOTE_MARKS)):
        if char.isspace():
            if chars and chars[-1] not in ' "':
                chars.append(" ")
                places.append(index)
            continue
        if char == '"' and chars and chars[-1] == " ":
            chars.pop()
            places.pop()
        chars.append(char)
        places.append(index)
    if chars and chars[-1] == " ":
        chars.pop()
        places.pop()
    return "".join(chars), places


def locate(quote: str, text: str) -> tuple[int, int] | None:
    """Where `quote` stands in `text` as (start, end) offsets of `text`: as written, else after folding white space
    and quote marks; None when it is not there (or is empty)."""
    if not quote.strip():
        return None
    exact = text.find(quote)
    if exact >= 0:
        return exact, exact + len(quote)
    wanted = folded(quote)
    haystack, places = _folded_with_places(text)
    found = haystack.find(wanted)
    if found < 0:
        return None
    return places[found], places[found + len(wanted) - 1] + 1


def contains(text: str, quote: str) -> bool:
    """Whether `quote` stands in `text`, white space and quote marks folded."""
    return locate(quote, text) is not None
