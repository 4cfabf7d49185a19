"""PDF files, read with pypdf (BSD-3-Clause, pure Python): the text per page with its page number, running
headers and footers dropped, ligatures as letters, sections from the PDF's outline."""

from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from graph.ingestion.documents import Document, Segment, Unreadable


def read_pdf(path: Path) -> Document:
    """Text per page (1-based page numbers), the outline's heading path per page, the title from the metadata."""
    from pypdf import PdfReader
    from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # font-encoding notes per page say nothing to a user
    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise Unreadable("is encrypted with a password; save an unencrypted copy (qpdf --decrypt) or remove it")
        pages = [page.extract_text() or "" for page in reader.pages]
        outline = _outline_pages(reader)
        metadata_title = str(reader.metadata.get("/Title") or "").strip() if reader.metadata else ""
    except (DependencyError, FileNotDecryptedError):
        raise Unreadable("is encrypted; save an unencrypted copy (qpdf --decrypt) or remove it") from None
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as error:
        raise Unreadable(
            f"is not a readable PDF ({type(error).__name__}: {error}); re-export it or remove it"
        ) from None
    pages = [_LIGATURES.sub(lambda m: _LIGATURE_TEXT[m.group()], page) for page in _without_running_lines(pages)]
    pages = [list_marks(page) for page in pages]
    if not any(page.strip() for page in pages):
        raise Unreadable("has no text layer (a scan?); run OCR on it first or remove it")
    return Document(title=metadata_title or path.stem, segments=page_segments(pages, outline))


#: A bulleted item's glyph at a line's start, written as chunk text keeps lists ("- "); a numbered item's
#: number ("1.", "2)") is printed as text and stays as it is.
_BULLET = re.compile(r"(?m)^([ \t]*)[•◦▪▫‣⁃∙●○■□➢➤►](?:[ \t]+|(?=\w))")


def list_marks(page: str) -> str:
    """A page's text with each bulleted item's glyph written as "- "."""
    return _BULLET.sub(r"\1- ", page)


#: Typographic ligatures PDF text extraction gives for "fi", "fl", ...: the letters, for search and matching.
_LIGATURE_TEXT = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb06": "st"}
_LIGATURES = re.compile("|".join(_LIGATURE_TEXT))


def page_segments(pages: list[str], outline: list[tuple[int, tuple[str, ...]]]) -> list[Segment]:
    """Each page's text cut where an outline heading is printed on it (see `_find_heading`), so every piece
    has its section.

    Headings are found in outline order. One found only after a place where the next heading is printed,
    and that heading nowhere after it, counts as not found: its words are text there (a parent whose title
    the page prints only as a file name). A heading not found on its page (worded otherwise, or drawn)
    starts where the page does when no heading was found before it there; after one, it holds from the
    next page on.
    """
    segments: list[Segment] = []
    section: tuple[str, ...] = ()
    for number, text in enumerate(pages, start=1):
        lines = _page_lines(text)
        cuts: list[tuple[int, tuple[str, ...]]] = [(0, section)]
        position, last = 0, section
        headings = [path for page, path in outline if page == number]
        for index, path in enumerate(headings):
            last = path
            found = _find_heading(path[-1], lines, position)
            if found and index + 1 < len(headings):
                following = headings[index + 1][-1]
                if _find_heading(following, lines, position, stop=found[0]) and not _find_heading(
                    following, lines, found[1] + 1
                ):
                    found = None
            if found:
                cuts.append((lines[found[0]].start, path))
                position = found[1] + 1
            elif position == 0:
                cuts.append((0, path))
        for index, (start, path) in enumerate(cuts):
            end = cuts[index + 1][0] if index + 1 < len(cuts) else len(text)
            piece = text[start:end].strip("\n")
            if piece.strip():
                segments.append(Segment(text=piece, section=path, page=number, opens_section=index > 0))
        section = last
    return segments


#: A printed word for heading matching: letters and digits only, so punctuation an outline leaves out or
#: spells otherwise (quotes, dashes, `<tag>`, `ignore_missing`) does not matter.
_WORD = re.compile(r"[^\W_]+")
#: How many lines one printed heading may take.
_HEADING_LINES = 3


class _Line(NamedTuple):
    start: int
    words: tuple[str, ...]


def _page_lines(text: str) -> list[_Line]:
    """A page's lines: where each starts in the text, and its words for heading matching."""
    lines, start = [], 0
    for line in text.split("\n"):
        lines.append(_Line(start, tuple(word.casefold() for word in _WORD.findall(line))))
        start += len(line) + 1
    return lines


def _find_heading(title: str, lines: list[_Line], first: int, stop: int | None = None) -> tuple[int, int] | None:
    """The first and last line of a page where an outline heading is printed, looking at lines `first` to
    `stop`; None when it is not printed there.

    A heading is a line of its own (wrapped onto up to two more lines or not), its section number ("3.2",
    "3.2.") printed before it or not; only where no such line holds it, a line that begins with its words
    and goes on (a run-in heading). Either way it ends where a printed word does: "Config" is not the
    start of "ConfigLoadAndParse reads ...".
    """
    wanted = "".join(word.casefold() for word in _WORD.findall(title))
    if not wanted:
        return None
    end = len(lines) if stop is None else stop
    for whole in (True, False):
        for index in range(first, end):
            last = _heading_end(wanted, lines, index, whole=whole)
            if last is not None:
                return index, last
    return None


def _heading_end(wanted: str, lines: list[_Line], index: int, *, whole: bool) -> int | None:
    """The last line of heading `wanted` when it is printed from line `index` on, else None."""
    words = lines[index].words
    numbers = 0 if wanted.isdigit() else next((n for n, word in enumerate(words) if not word.isdigit()), len(words))
    skips = [skip for skip in range(min(numbers, len(words) - 1) + 1) if wanted.startswith(words[skip])]
    if not skips:
        return None
    span = [
        (word, row, place == len(lines[row].words) - 1)
        for row in range(index, min(index + _HEADING_LINES, len(lines)))
        for place, word in enumerate(lines[row].words)
    ]
    for skip in skips:
        joined = ""
        for word, row, line_end in span[skip:]:
            joined += word
            if joined == wanted:
                if line_end or not whole:
                    return row
                break
            if not wanted.startswith(joined):
                break
    return None


def _outline_pages(reader: Any) -> list[tuple[int, tuple[str, ...]]]:
    """(1-based page, heading path) per outline entry, in outline order; empty where the PDF has none."""
    entries: list[tuple[int, tuple[str, ...]]] = []

    def walk(items: list[Any], parents: tuple[str, ...]) -> None:
        last: tuple[str, ...] = parents
        for item in items:
            if isinstance(item, list):
                walk(item, last)
                continue
            title = " ".join(str(getattr(item, "title", "") or "").split())
            page = reader.get_destination_page_number(item)
            last = (*parents, title)
            if title and page is not None and page >= 0:
                entries.append((page + 1, last))

    try:
        walk(reader.outline, ())
    except Exception:  # noqa: BLE001 - a broken outline costs the sections, never the text
        return []
    return entries


_DIGITS = re.compile(r"\d+")


def _without_running_lines(pages: list[str]) -> list[str]:
    """Drop running headers and footers: a first or last line that recurs (numbers aside) on most pages."""
    if len(pages) < 3:
        return pages

    def edges(text: str) -> set[str]:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return {_DIGITS.sub("#", line) for line in lines[:2] + lines[-2:]}

    counts = Counter(key for page in pages for key in edges(page))
    running = {key for key, count in counts.items() if count >= max(3, len(pages) // 2)}

    def trimmed(text: str) -> str:
        lines = text.splitlines()
        content = [i for i, line in enumerate(lines) if line.strip()]
        edge = set(content[:2] + content[-2:])
        return "\n".join(
            line for i, line in enumerate(lines) if not (i in edge and _DIGITS.sub("#", line.strip()) in running)
        )

    return [trimmed(page) for page in pages]
