"""Cut a document into chunks: at its headings first, then by size; each chunk knows its place.

A chunk starts at every heading, unless the chunk so far is shorter than a quarter of the chunk size
(a heading with a line under it), which then takes the next section in too. Pages do not cut: text
flows across them, and a chunk is on the page it starts on. Within a section the text is cut by
LangChain's recursive character splitter, at paragraphs, then lines, then words.
"""

from __future__ import annotations

import bisect
import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from graph.ingestion.documents import Document, Segment
from state.location import SECTION_SEPARATOR

#: Namespace of the UUIDv5 chunk ids, so the same chunk always gets the same id.
CHUNK_ID_NAMESPACE = uuid.UUID("6f1d3c2e-8a4b-5e7f-9c0d-1a2b3c4d5e6f")

#: What goes between a section and the next; a page and the next page of one section go on the next line.
SECTION_BREAK, PAGE_BREAK = "\n\n", "\n"


@dataclass(frozen=True)
class ChunkRecord:
    """A chunk to write: its id in the store, its text and its metadata."""

    id: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


def stable_id(*parts: str) -> str:
    """A UUIDv5 from the parts: re-ingesting the same content yields the same id."""
    return str(uuid.uuid5(CHUNK_ID_NAMESPACE, "\x1f".join(parts)))


def _stretches(segments: list[Segment], chunk_size: int) -> list[list[Segment]]:
    """Runs of segments that chunks may span: a new run at each heading, unless the run is still short."""
    runs: list[list[Segment]] = []
    length = 0
    for segment in segments:
        if not runs or (segment.opens_section and length >= chunk_size // 4):
            runs.append([])
            length = 0
        runs[-1].append(segment)
        length += len(segment.text) + len(SECTION_BREAK)
    return runs


def _joined(run: list[Segment]) -> tuple[str, list[int]]:
    """The run's text and where each of its segments starts in it."""
    text, starts = "", []
    for segment in run:
        if text:
            text += SECTION_BREAK if segment.opens_section else PAGE_BREAK
        starts.append(len(text))
        text += segment.text
    return text, starts


def chunk_document(document: Document, source: str, chunk_size: int, chunk_overlap: int) -> list[ChunkRecord]:
    """The document's chunks with `source`, `title`, `section` and `page` (where known), offset and index."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, add_start_index=True)
    records: list[ChunkRecord] = []
    offset = 0  # of the stretch in the whole document's text, the segments joined
    for run in _stretches(document.segments, chunk_size):
        text, starts = _joined(run)
        local = 0
        for piece in splitter.create_documents([text]):
            # The splitter finds each piece in the text; should it not (-1), the piece takes the last one's place.
            local = int(piece.metadata["start_index"]) if piece.metadata["start_index"] >= 0 else local
            first = run[bisect.bisect_right(starts, local) - 1]
            last = run[bisect.bisect_right(starts, local + len(piece.page_content) - 1) - 1]
            start = offset + local
            metadata: dict[str, Any] = {"source": source, "title": document.title}
            if first.section:
                metadata["section"] = SECTION_SEPARATOR.join(first.section)
            if first.page is not None:
                metadata["page"] = first.page
                if last.page is not None and last.page != first.page:
                    metadata["page_end"] = last.page
            metadata |= {"start_index": start, "chunk_index": len(records)}
            digest = hashlib.sha1(piece.page_content.encode()).hexdigest()
            records.append(
                ChunkRecord(id=stable_id(source, str(start), digest), text=piece.page_content, metadata=metadata)
            )
        offset += len(text) + len(SECTION_BREAK)
    return records
