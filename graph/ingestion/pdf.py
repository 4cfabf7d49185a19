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
    """Each page's text cut where an outline heading is printed on it (at the start of a line, its number
    before it or not), so every piece has its section.

    A heading not found on its page (worded otherwise, or drawn) starts where the page does when no heading
    was found before it there; after one, it holds from the next page on.
    """
    segments: list[Segment] = []
    section: tuple[str, ...] = ()
    for number, text in enumerate(pages, start=1):
        cuts: list[tuple[int, tuple[str, ...]]] = [(0, section)]
        position, last = 0, section
        for path in (path for page, path in outline if page == number):
            last = path
            found = _heading_at_line_start(path[-1]).search(text, position)
            if found:
                cuts.append((found.start(), path))
                position = found.end()
            elif position == 0:
                cuts.append((0, path))
        for index, (start, path) in enumerate(cuts):
            end = cuts[index + 1][0] if index + 1 < len(cuts) else len(text)
            piece = text[start:end].strip("\n")
            if piece.strip():
                segments.append(Segment(text=piece, section=path, page=number, opens_section=index > 0))
        section = last
    return segments


def _heading_at_line_start(title: str) -> re.Pattern[str]:
    """A heading's words at the start of a line, its section number ("3.2", "3.2.") before them or not."""
    words = r"\s+".join(map(re.escape, title.split())) or "(?!)"
    return re.compile(rf"^[ \t]*(?:\d+(?:\.\d+)*\.?[ \t]+)?{words}", re.IGNORECASE | re.MULTILINE)


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
