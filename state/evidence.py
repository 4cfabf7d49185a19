"""Evidence: the verbatim sentences of a chunk that a record's answer rests on, and where they stand.

A quote is looked for in a text as it is, then with white space and quote marks folded (a model copies "it’s"
as "it's", a line break as a space, « --force » as "--force"), so that a copy that differs only so is found, at its
place in the original.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Required

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

#: What folding makes of a character (after its compatibility decomposition: "ﬁ" is "fi", "…" is "...", "é" is
#: "e" and its accent): every quote mark, single or double, one plain mark (a copy may swap one for another, and an
#: apostrophe for a typographic one); every dash a hyphen; soft hyphens and zero-width characters nothing.
_FOLDS = (
    dict.fromkeys("“”„‟«»″〝〞＂‘’‚‛′`´'", '"')
    | dict.fromkeys("‐‑‒–—―−", "-")
    | dict.fromkeys("\u00ad\u200b\u200c\u200d\u2060\ufeff", "")
)


def folded(text: str) -> str:
    """`text` folded for finding a quote: each character decomposed and folded (`_FOLDS`), every run of white space
    one space, none beside a quote mark (French writes « x » where a copy writes "x"), none after a hyphen that
    ends a line (a word split over two lines, "cross-\nreference"), and none at the ends."""
    return _folded_with_places(text)[0]


def _folded_with_places(text: str) -> tuple[str, list[int]]:
    """`folded(text)`, and for each of its characters the index of the character of `text` it stands for."""
    chars: list[str] = []
    places: list[int] = []
    space: tuple[int, bool] | None = None  # a run of white space not written yet: where it starts, a line break in it
    for index, original in enumerate(text):
        for char in unicodedata.normalize("NFKD", original):
            char = _FOLDS.get(char, char)
            if not char:
                continue
            if char.isspace():
                space = (space[0] if space else index, (space is not None and space[1]) or char in "\n\r")
                continue
            if space is not None and chars and not (chars[-1] == '"' or char == '"' or (chars[-1] == "-" and space[1])):
                chars.append(" ")
                places.append(space[0])
            space = None
            chars.append(char)
            places.append(index)
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


class DocumentPlace(TypedDict, total=False):
    """Where a chunk stands in its document, as its metadata says: each key only where the metadata holds it."""

    source: str
    """The document (`metadata.source`)."""
    start_index: int
    """Where the chunk starts in the document's text (`metadata.start_index`, as `graph.ingest` writes it)."""


class Passage(DocumentPlace):
    """A text a retriever returned, as it is scored: its chunk id (None where the retriever gave none: it is then
    matched by its text), its text, and its place in its document where its metadata gives it."""

    id: Required[str | None]
    text: Required[str]


class LabelledPassage(TypedDict):
    """A context that retrieval is scored against: a record's, or a retrieved chunk the judge labelled."""

    id: str
    text: str
    relevant: bool


def offset(value: Any) -> int | None:
    """`value` as an offset into a text: a whole number from 0 up, else None (a flag, a string, a negative)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def document_place(metadata: Any) -> DocumentPlace:
    """The `source` and `start_index` a chunk's metadata gives, each where it gives a usable one."""
    metadata = metadata if isinstance(metadata, Mapping) else {}
    place = DocumentPlace()
    if isinstance(source := metadata.get("source"), str) and source:
        place["source"] = source
    if (start := offset(metadata.get("start_index"))) is not None:
        place["start_index"] = start
    return place


def laid_out(pieces: Sequence[tuple[int, str]]) -> str:
    """Texts laid at their places (start offset, text) in one text: overlapping pieces write the same characters
    once, a gap between two stays blank. Offsets count from the first piece's start."""
    if not pieces:
        return ""
    first = min(start for start, _ in pieces)
    characters = [" "] * (max(start + len(text) for start, text in pieces) - first)
    for start, text in pieces:
        characters[start - first : start - first + len(text)] = text
    return "".join(characters)


class Location(BaseModel):
    """Where a fact stands: a span of a chunk's text and, where the chunk's place in its document is known, of
    the document's text (`metadata.source`). Offsets count characters; the end is not included."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: str
    chunk_start: int = Field(ge=0)
    chunk_end: int = Field(ge=0)
    source: str | None = None
    """The document (`metadata.source`), where the chunk names it."""
    document_start: int | None = Field(default=None, ge=0)
    document_end: int | None = Field(default=None, ge=0)
    """In the document's text, where the chunk's place in it is known (`start_index`); None elsewhere."""


class Evidence(BaseModel):
    """One fact the answer needs: the sentence(s) of its supporting chunk that state it, verbatim, where they stand
    (`location`), and the other chunks that state it too (`also_in`: a relevant context holding the same words)."""

    model_config = ConfigDict(extra="forbid")

    quote: str = Field(min_length=1)
    location: Location
    also_in: list[Location] = Field(default_factory=list)

    def locations(self) -> list[Location]:
        """Every place the fact stands: its supporting chunk's, then the others."""
        return [self.location, *self.also_in]
