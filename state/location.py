"""Where a chunk comes from, in words a reviewer can find it by: "guide.pdf, p. 12, 3.2 Backups"."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Separator between the headings of a chunk's `section` metadata, outermost first.
SECTION_SEPARATOR = " > "


def where(metadata: Mapping[str, Any] | None) -> str:
    """The chunk's file, page (or pages) and innermost section, from its metadata; "" when none is known."""
    metadata = metadata or {}
    parts = [str(metadata["source"])] if metadata.get("source") else []
    page, last = metadata.get("page"), metadata.get("page_end")
    if page is not None:
        parts.append(f"pp. {page}-{last}" if last is not None and last != page else f"p. {page}")
    section = str(metadata.get("section") or "").split(SECTION_SEPARATOR)[-1].strip()
    if section:
        parts.append(section)
    return ", ".join(parts)
