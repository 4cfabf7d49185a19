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
        for item in word.iter_inner_content():
            if isinstance(item, Table):
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
            else:
                blocks.append((int(heading.group(1)) + 1 if heading else 0, text))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise Unreadable(
            f"is not a readable Word file ({type(error).__name__}); re-save it as .docx or remove it"
        ) from None
    return Document(title=title or path.stem, segments=sections_from_blocks(blocks))


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
