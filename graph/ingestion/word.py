"""Word .docx files, read with python-docx (MIT, the `documents` extra): paragraphs and tables in order,
the "Heading N" styles as sections."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from graph.ingestion.documents import Document, Unreadable, sections_from_blocks

#: The command that installs the readers of the `documents` extra.
INSTALL_DOCUMENTS = "pip install 'triad[documents]'"


_HEADING_STYLE = re.compile(r"^heading\s*(\d)$", re.IGNORECASE)


def read_docx(path: Path) -> Document:
    """Paragraphs and tables in document order; "Heading N" paragraphs open sections; "Title" names the document."""
    try:
        import docx
        from docx.opc.exceptions import PackageNotFoundError
        from docx.table import Table
    except ImportError:
        raise Unreadable(f"is a Word file, read with the documents extra: {INSTALL_DOCUMENTS}") from None
    try:
        word = docx.Document(str(path))
        blocks: list[tuple[int, str]] = []
        title = (word.core_properties.title or "").strip()
        numbering = _Numbering(word)
        for item in word.iter_inner_content():
            if isinstance(item, Table):
                numbering.restart()
                blocks += [(0, " | ".join(_unique_cells(row.cells))) for row in item.rows]
                continue
            style = (item.style.name if item.style is not None else "") or ""
            text = item.text.strip()
            if not text:
                continue
            heading = _HEADING_STYLE.match(style)
            if style.lower() == "title":
                title = title or text
                blocks.append((1, text))
            elif heading:
                blocks.append((int(heading.group(1)) + 1, text))
            else:
                blocks.append((0, numbering.mark(item, style) + text))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise Unreadable(
            f"is not a readable Word file ({type(error).__name__}); re-save it as .docx or remove it"
        ) from None
    return Document(title=title or path.stem, segments=sections_from_blocks(blocks))


class _Numbering:
    """The marks of list paragraphs, as chunk text keeps lists: "1. ", "2. " for a numbered item, "- " for a
    bulleted one. A paragraph is an item when it has numbering properties (its own or its style's: "List
    Number", "List Bullet"); whether it is numbered comes from the document's numbering definitions, else from
    its style's name. A paragraph that is no item ends the list."""

    def __init__(self, word: Any) -> None:
        self._formats = _number_formats(word)
        self._counts: dict[tuple[str, int], int] = {}

    def restart(self) -> None:
        self._counts.clear()

    def mark(self, paragraph: Any, style: str) -> str:
        num_id, level = _numbering_of(paragraph)
        if num_id == "0":  # numbering taken off the paragraph
            return ""
        if num_id is None and not re.search(r"\blist (?:number|bullet)", style, re.IGNORECASE):
            # A list numbered by its style alone ends here; one with a numbering id goes on counting, as Word does.
            self._counts = {key: count for key, count in self._counts.items() if not key[0].startswith("style:")}
            return ""
        kind = self._formats.get((num_id or "", level)) or ("decimal" if "number" in style.lower() else "bullet")
        if kind == "bullet":
            return "- "
        key = (num_id or f"style:{style}", level)
        self._counts = {k: v for k, v in self._counts.items() if k[0] != key[0] or k[1] <= level}
        self._counts[key] = self._counts.get(key, 0) + 1
        return f"{self._counts[key]}. "


_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


def _numbering_of(paragraph: Any) -> tuple[str | None, int]:
    """The numbering id and level of a paragraph, its own or else its style's ("List Number" carries one), or
    (None, 0)."""
    for element in (paragraph._p, getattr(paragraph.style, "element", None)):
        props = element.pPr if element is not None else None
        num = props.numPr if props is not None else None
        if num is not None and num.numId is not None:
            return str(num.numId.val), int(num.ilvl.val) if num.ilvl is not None else 0
    return None, 0


def _number_formats(word: Any) -> dict[tuple[str, int], str]:
    """numFmt ("decimal", "bullet", ...) per (numbering id, level), from the document's numbering part."""
    try:
        root = word.part.numbering_part.element
    except (KeyError, NotImplementedError, AttributeError):
        return {}
    abstract = {
        node.get(f"{_W}abstractNumId"): {
            int(lvl.get(f"{_W}ilvl") or 0): (
                fmt.get(f"{_W}val") if (fmt := lvl.find(f"{_W}numFmt")) is not None else ""
            )
            for lvl in node.findall(f"{_W}lvl")
        }
        for node in root.findall(f"{_W}abstractNum")
    }
    formats: dict[tuple[str, int], str] = {}
    for num in root.findall(f"{_W}num"):
        ref = num.find(f"{_W}abstractNumId")
        levels = abstract.get(ref.get(f"{_W}val") if ref is not None else None, {})
        formats.update({(str(num.get(f"{_W}numId")), level): fmt for level, fmt in levels.items()})
    return formats


def _unique_cells(cells: list[Any]) -> list[str]:
    """Cell texts of a table row; a merged cell is listed once."""
    texts: list[str] = []
    seen: set[int] = set()
    for cell in cells:
        if id(cell._tc) in seen:
            continue
        seen.add(id(cell._tc))
        texts.append(" ".join(cell.text.split()))
    return texts
