"""PDF files, read with pypdf (BSD-3-Clause, pure Python): the text per page with its page number, running
headers and footers dropped, ligatures as letters, sections from the PDF's outline."""

from __future__ import annotations

import logging
import re
from collections import Counter
from pathlib import Path
from typing import Any

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
    if not any(page.strip() for page in pages):
        raise Unreadable("has no text layer (a scan?); run OCR on it first or remove it")
    return Document(title=metadata_title or path.stem, segments=page_segments(pages, outline))


#: Typographic ligatures PDF text extraction gives for "fi", "fl", ...: the letters, for search and matching.
_LIGATURE_TEXT = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl", "\ufb06": "st"}
_LIGATURES = re.compile("|".join(_LIGATURE_TEXT))


def page_segments(pages: list[str], outline: list[tuple[int, tuple[str, ...]]]) -> list[Segment]:
    """Each page's text cut where an outline heading is printed on it (as a line of its own, its number
    before it or not), so every piece has its section.

    Headings are found in outline order; one whose words are printed only after the next heading's (a parent
    whose title the page never prints as a heading) counts as not found. A heading not found on its page
    (worded otherwise, or drawn) starts where the page does when no heading was found before it there;
    after one, it holds from the next page on.
    """
    segments: list[Segment] = []
    section: tuple[str, ...] = ()
    for number, text in enumerate(pages, start=1):
        cuts: list[tuple[int, tuple[str, ...]]] = [(0, section)]
        position, last = 0, section
        headings = [path for page, path in outline if page == number]
        for index, path in enumerate(headings):
            last = path
            found = _find_heading(path[-1], text, position)
            if found and any(_printed_before(later[-1], text, position, found[0]) for later in headings[index + 1 :]):
                found = None  # a later heading comes first: these words are text here (a file name, an example)
            if found:
                cuts.append((found[0], path))
                position = found[1]
            elif position == 0:
                cuts.append((0, path))
        for index, (start, path) in enumerate(cuts):
            end = cuts[index + 1][0] if index + 1 < len(cuts) else len(text)
            piece = text[start:end].strip("\n")
            if piece.strip():
                segments.append(Segment(text=piece, section=path, page=number, opens_section=index > 0))
        section = last
    return segments


def _printed_before(title: str, text: str, position: int, end: int) -> bool:
    found = _find_heading(title, text, position)
    return found is not None and found[0] < end


#: A printed word for heading matching: letters and digits only, so punctuation an outline leaves out or
#: spells otherwise (quotes, dashes, `<tag>`, `ignore_missing`) does not matter.
_WORD = re.compile(r"[^\W_]+")


def _words(text: str) -> list[str]:
    return [word.casefold() for word in _WORD.findall(text)]


def _find_heading(title: str, text: str, position: int) -> tuple[int, int] | None:
    """Where an outline heading is printed as a line of its own, from `position` on: the line's start and the
    end of its last line (a heading may wrap onto the next line); None when it is not printed there.

    Its section number ("3.2", "3.2.") may be printed before it or not. A line that only begins with the
    heading's words is text, not the heading: "Config" is not "ConfigLoadAndParse reads ...", and "fonts.conf"
    is not "fonts.conf — Font configuration files".
    """
    wanted = "".join(_words(title))
    if not wanted:
        return None
    lines: list[tuple[int, str]] = []
    for line in text[position:].split("\n"):
        lines.append((position, line))
        position += len(line) + 1
    for index, (start, line) in enumerate(lines):
        first = _words(line)
        if not first:
            continue
        following = _words(lines[index + 1][1]) if index + 1 < len(lines) else []
        numbers = next((i for i, word in enumerate(first) if not word.isdigit()), len(first))
        for skip in range(numbers + 1):
            joined = ""
            for used, word in enumerate([*first, *following][skip:], start=skip + 1):
                joined += word
                if joined == wanted and used in (len(first), len(first) + len(following)):
                    last = index if used == len(first) else index + 1
                    return start, lines[last][0] + len(lines[last][1])
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
