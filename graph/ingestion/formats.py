"""Readers for PDF, Word and HTML files (plain text and Markdown are read in `graph.ingestion.documents`).

PDF is read with pypdf (BSD-3-Clause, pure Python): text per page, running headers and footers
dropped, sections from the PDF's outline. Word .docx with python-docx (MIT): paragraphs, tables and
the "Heading N" styles. HTML with trafilatura (Apache-2.0), which keeps a page's main content; menus,
sidebars, breadcrumbs and permalink marks are removed before it sees the page. python-docx and
trafilatura come with the `documents` extra; without it a Word file is skipped with the command
that installs it, and HTML falls back to a plain cleaner that drops only the usual navigation
elements.
"""

from __future__ import annotations

import logging
import re
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from graph.ingestion.documents import Document, Segment, Unreadable, decode_text, read_bytes, sections_from_blocks

INSTALL_DOCUMENTS = "pip install 'triad[documents]'"

#: Elements that are never a page's content: landmarks, Sphinx and DocBook navigation, permalink marks.
_BOILERPLATE_XPATH = (
    "//nav | //header[not(ancestor::article or ancestor::main)] | //footer | //aside | //script | //style"
    " | //noscript | //form[@role='search' or .//input[@type='search']]"
    " | //*[@role='navigation' or @role='search' or @role='banner' or @role='contentinfo']"
    + "".join(
        f" | //*[contains(concat(' ', normalize-space(@class), ' '), ' {name} ')]"
        for name in (
            "related",
            "sphinxsidebar",
            "headerlink",
            "toctree-wrapper",
            "breadcrumb",
            "breadcrumbs",
            "navheader",
            "navfooter",
            "toc",
            "skip-link",
        )
    )
)


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


def read_html(path: Path) -> Document:
    """The page's main content, split at its headings; the title from the page."""
    # lxml takes no XML declaration in a decoded page (XHTML manuals start with one).
    html = re.sub(r"\A\s*<\?xml[^>]*\?>", "", decode_text(read_bytes(path)))
    try:
        import trafilatura
        from lxml import etree
        from lxml import html as lxml_html
    except ImportError:
        return _read_html_plainly(html, path)
    try:
        tree = lxml_html.document_fromstring(html)
    except (etree.ParserError, ValueError) as error:
        raise Unreadable(f"is not readable HTML ({error}); remove it") from None
    page_title = " ".join((tree.findtext(".//title") or "").split())
    for element in tree.xpath(_BOILERPLATE_XPATH):
        element.drop_tree()
    if _link_share(tree) > LINK_PAGE_SHARE:  # an index or a table of contents: nothing to ask about
        return Document(title=page_title or path.stem)
    _unwrap_headings(tree)
    _mark_main(tree)
    for pre in tree.iter("pre"):  # trafilatura keeps the line breaks of <pre><code> only
        if not list(pre.iter("code")):
            code = etree.SubElement(pre, "code")
            code.text, pre.text = pre.text_content(), None
            for child in [child for child in pre if child is not code]:
                pre.remove(child)
    extracted = trafilatura.extract(
        tree, output_format="xml", include_formatting=False, include_tables=True, favor_recall=True, with_metadata=True
    )
    if not extracted:
        return Document(title=page_title or path.stem)
    root = etree.fromstring(extracted.encode())
    main = root.find("main")
    blocks = list(_xml_blocks(main)) if main is not None else []
    return Document(title=page_title or root.get("title") or path.stem, segments=sections_from_blocks(blocks))


def _unwrap_headings(tree: Any) -> None:
    """Lift each heading out of the <div>s that hold nothing else (DocBook's "titlepage" nesting), and unwrap
    link targets (`<a id=...>` without href): trafilatura drops a heading nested so, or one that reads as a link."""
    for anchor in tree.xpath("//a[not(@href)]"):  # an anchor is no link: its text is the heading's own
        anchor.drop_tag()
    for heading in list(tree.iter("h1", "h2", "h3", "h4", "h5", "h6")):
        wrapper = heading
        while (parent := wrapper.getparent()) is not None and parent.tag == "div" and len(parent) == 1:
            if (parent.text or "").strip() or (wrapper.tail or "").strip():
                break
            wrapper = parent
        if wrapper is not heading:
            heading.tail = None
            wrapper.addprevious(heading)
            wrapper.drop_tree()


def _mark_main(tree: Any) -> None:
    """Put a page without a <main>, <article> or role="main" (DocBook, hand-written pages) in an <article>:
    without one, trafilatura falls back to a plain reading that loses the headings."""
    body = tree.find("body")
    if body is None or tree.xpath("//main | //article | //*[@role='main']"):
        return
    article = body.makeelement("article", {})
    article.text, body.text = body.text, None
    for child in list(body):
        article.append(child)
    body.append(article)


#: A page whose text is more than this share link text is a page of links (an index, a table of contents).
LINK_PAGE_SHARE = 0.5


def _link_share(tree: Any) -> float:
    """The share of the page's text that is the text of links."""
    total = len("".join(tree.text_content().split()))
    links = sum(len("".join(link.text_content().split())) for link in tree.iter("a"))
    return links / total if total else 0.0


_CONTAINERS = {"list", "item", "table", "quote", "div", "main", "cell"}


def _xml_blocks(element: Any) -> Iterator[tuple[int, str]]:
    """(heading level, text) per block of trafilatura's XML: headings, paragraphs, list items, table rows, code."""
    for child in element:
        tag = child.tag
        if tag == "head":
            level = int((child.get("rend") or "h2").lstrip("h") or 2)
            yield level, " ".join("".join(child.itertext()).split())
        elif tag == "code":
            yield 0, "".join(child.itertext()).strip("\n")
        elif tag == "row":  # empty cells (an admonition's icon, layout) say nothing
            cells = (" ".join("".join(cell.itertext()).split()) for cell in child)
            yield 0, " | ".join(cell for cell in cells if cell)
        elif tag in _CONTAINERS:
            own = " ".join(
                (
                    (child.text or "") + "".join(_inline_text(c) for c in child if c.tag not in _CONTAINERS | _LEAVES)
                ).split()
            )
            if own:
                yield 0, own
            yield from _xml_blocks(child)
        elif tag == "p":
            text = " ".join("".join(child.itertext()).split())
            if text:
                yield 0, text


_LEAVES = {"head", "code", "row", "p"}
"""Block elements of trafilatura's XML; any other element inside a container is inline text."""


def _inline_text(element: Any) -> str:
    """An inline element's text and the text after it, up to the next element."""
    return "".join(element.itertext()) + (element.tail or "")


def plain_html_text(html: str) -> str:
    """A page's text with the usual navigation elements dropped, one block per paragraph (no trafilatura)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["head", "script", "style", "nav", "header", "footer", "noscript", "aside"]):
        tag.decompose()
    for tag in soup.find_all(role=["navigation", "search", "banner", "contentinfo"]):
        tag.decompose()
    for tag in soup.find_all(class_=["navheader", "navfooter", "toc", "related", "sphinxsidebar", "headerlink"]):
        tag.decompose()
    for tag in soup.find_all(["p", "pre", "li", "dt", "dd", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "div", "table"]):
        tag.insert_before("\n\n")
    # Block elements were marked with blank lines; line breaks inside a block are only source layout.
    blocks = (" ".join(block.split()) for block in re.split(r"\n\s*\n", soup.get_text()))
    return "\n\n".join(block for block in blocks if block)


def _read_html_plainly(html: str, path: Path) -> Document:
    """The page as one segment of the tag cleaner's text, titled by its <title>."""
    match = re.search(r"<title[^>]*>(.*?)</title>", html, re.S | re.I)
    title = " ".join(match.group(1).split()) if match else ""
    text = plain_html_text(html)
    return Document(title=title or path.stem, segments=[Segment(text=text)] if text else [])
