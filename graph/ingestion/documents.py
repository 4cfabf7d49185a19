"""A document as its readers hand it to the chunker: a title and segments of text, each with its place.

A segment is the text of one section (a heading and its body) or of one PDF page. Its `section` is
the heading path it sits under; its `page` is the 1-based page it is printed on. `opens_section`
says the segment starts with a heading, where a chunk should start too.

Plain text and Markdown are read here; PDF, Word and HTML in `graph.ingestion.pdf`, `.word` and `.web`.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path


class Unreadable(Exception):
    """A file that cannot be read; the message says why and what to do, the ingest goes on without it."""


@dataclass(frozen=True)
class Segment:
    """A stretch of a document's text with one place in it."""

    text: str
    section: tuple[str, ...] = ()
    """The heading path, outermost first; empty before the first heading or where the format has none."""
    page: int | None = None
    """The 1-based page (PDF), else None."""
    opens_section: bool = False
    """True when the segment begins with its section's heading: a chunk boundary is wanted here."""


@dataclass(frozen=True)
class Document:
    """One file's readable content."""

    title: str
    segments: list[Segment] = field(default_factory=list)


class HeadingPath:
    """The headings open at a point of a document: a heading closes those at its level and deeper."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []

    def enter(self, level: int, text: str) -> tuple[str, ...]:
        """Open a heading of `level` titled `text`; the path now open."""
        self._open = [(lvl, title) for lvl, title in self._open if lvl < level] + [(level, text)]
        return self.path

    @property
    def path(self) -> tuple[str, ...]:
        """The open headings' titles, outermost first."""
        return tuple(title for _, title in self._open)


def sections_from_blocks(
    blocks: Iterable[tuple[int, str]], joiner: str = "\n\n", name: Callable[[str], str] = str.strip
) -> list[Segment]:
    """Segments from (heading level, text) blocks, level 0 for body text: one per heading and its body.

    The heading's text stays in its segment; `name` turns it into the words of the heading path.
    """
    headings = HeadingPath()
    segments: list[Segment] = []
    body: list[str] = []
    path: tuple[str, ...] = ()
    opens = False
    for level, text in [*blocks, (-1, "")]:
        if not level:
            body.append(text)
            continue
        joined = joiner.join(body).strip("\n")
        if joined.strip():
            segments.append(Segment(text=joined, section=path, opens_section=opens))
        if level < 0:
            break
        path, opens, body = headings.enter(level, name(text)), True, [text]
    return segments


_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode_text(raw: bytes) -> str:
    """UTF-8 (or UTF-16 with its byte order mark); else the encoding charset detection is sure of.

    Detection needs some text to go on and is not trusted for UTF-16/32 without a byte order mark.
    """
    return _unix_lines(_decoded(raw))


def _unix_lines(text: str) -> str:
    """Windows and old Mac line ends as \\n, so headings, front matter and paragraphs are found alike."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decoded(raw: bytes) -> str:
    for bom, encoding in _BOMS:
        if raw.startswith(bom):
            return raw.decode(encoding)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        position = error.start
    from charset_normalizer import from_bytes

    best = from_bytes(raw).best() if len(raw) >= 32 else None
    if best is None or best.chaos > 0.1 or best.encoding.startswith(("utf_16", "utf_32")):
        raise Unreadable(f"is not UTF-8 text (byte {position}) and its encoding is unclear; convert it to UTF-8")
    return str(best)


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a file the system will not give is unreadable."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise Unreadable(f"cannot be read ({error.strerror}); check its permissions") from None


def read_plain_text(path: Path) -> Document:
    """A text file: one segment, titled by its file name."""
    text = decode_text(read_bytes(path))
    return Document(title=path.stem, segments=[Segment(text=text)] if text.strip() else [])


_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^\s{0,3}(#{1,6})[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)[ \t]*$")
#: Lines that a setext underline does not make a heading: list items, quotes, table rows.
_NOT_SETEXT = re.compile(r"^\s{0,3}([-*+][ \t]|\d+[.)][ \t]|>|\|)")
#: A thematic break (`---`, `***`, `___`): it ends a paragraph, so a line after it may be a setext heading.
_BREAK = re.compile(r"^\s{0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*\n", re.DOTALL)
_FRONT_TITLE = re.compile(r"^title:[ \t]*(.+?)[ \t]*$", re.MULTILINE)


def markdown_blocks(text: str) -> list[tuple[int, str]]:
    """(level, line) per heading and (0, line) per other line; headings inside fenced code do not count."""
    lines = text.split("\n")
    blocks: list[tuple[int, str]] = []
    fence = ""  # the open fence; a fence closes with the same character, at least as long
    for number, line in enumerate(lines):
        marker = _FENCE.match(line)
        if marker and not fence:
            fence = marker.group(1)
        elif marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
            fence = ""
        fenced = bool(fence) or bool(marker)
        atx = None if fenced else _ATX.match(line)
        following = lines[number + 1] if number + 1 < len(lines) else ""
        plain = line.strip() and not fenced and not _NOT_SETEXT.match(line)
        setext = _SETEXT.match(following) if plain else None
        if atx:
            blocks.append((len(atx.group(1)), line))
        elif setext and not (blocks and blocks[-1][0] == 0 and _continues_paragraph(blocks[-1][1])):
            # A setext heading is one line of text underlined by = (level 1) or - (level 2).
            blocks.append((1 if setext.group(1).startswith("=") else 2, f"{line}\n{following}"))
            lines[number + 1] = ""
        else:
            blocks.append((0, line))
    return blocks


def _continues_paragraph(previous: str) -> bool:
    """Whether a line after `previous` continues its paragraph (then an underline below it is no heading)."""
    return bool(previous.strip()) and not _BREAK.match(previous)


def heading_text(markdown_heading: str) -> str:
    """The words of a Markdown heading, without its # or underline."""
    first = markdown_heading.split("\n")[0]
    match = _ATX.match(first)
    return (match.group(2) if match else first).strip()


def read_markdown(path: Path) -> Document:
    """A Markdown file split at its headings; the title from front matter, the first level-1 heading or the name."""
    text = decode_text(read_bytes(path))
    title = ""
    front = _FRONT_MATTER.match(text)
    if front:
        named = _FRONT_TITLE.search(front.group(1))
        title = named.group(1).strip("\"'") if named else ""
        text = text[front.end() :]
    blocks = markdown_blocks(text)
    if not title:
        title = next((heading_text(line) for level, line in blocks if level == 1), path.stem)
    return Document(title=title, segments=sections_from_blocks(blocks, "\n", heading_text))
