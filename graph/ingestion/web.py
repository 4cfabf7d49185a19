"""HTML pages, read with trafilatura (Apache-2.0, the `documents` extra): the page's main content, split at its
headings. Menus, sidebars, breadcrumbs, search forms and permalink marks are removed before trafilatura sees
the page. Without the extra, a plain cleaner drops only the usual navigation elements and splits at headings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

from graph.ingestion.documents import Document, Unreadable, decode_text, read_bytes, sections_from_blocks

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


def read_html(path: Path) -> Document:
    """The page's main content, split at its headings; the title from the page."""
    # lxml takes no XML declaration in a decoded page (XHTML manuals start with one).
    html = re.sub(r"\A\s*<\?xml[^>]*\?>", "", decode_text(read_bytes(path)))
    try:
        import trafilatura
        from lxml import etree
        from lxml import html as lxml_html
    except ImportError:
        return read_html_plainly(html, path)
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
    _mark_tree_list_items(tree)
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


def _mark_tree_list_items(tree: Any) -> None:
    """Start each list item's text with its mark ("1. " from the list's `start`, or "- "), as the tag cleaner
    does (`_mark_list_items`): trafilatura keeps an item's text but not its number."""
    for items in tree.iter("ol", "ul"):
        number = _list_start(items.get("start"))
        for item in (child for child in items if child.tag == "li"):
            mark = f"{number}. " if items.tag == "ol" else "- "
            number += 1
            first = item[0] if len(item) and not (item.text or "").strip() else None
            target = first if first is not None and first.tag in ("p", "div") else item
            target.text = mark + (target.text or "").lstrip()


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
    links = sum(len("".join(link.text_content().split())) for link in tree.xpath("//a[@href]"))
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
    return "\n\n".join(text for _, text in plain_html_blocks(html))


#: Marks a heading's level in the tag cleaner's text until its blocks are split.
_LEVEL_MARK = re.compile(r"\A\x00([1-6])\x00\s*")


def plain_html_blocks(html: str) -> list[tuple[int, str]]:
    """(heading level, text) per block of a page, 0 for body text, the usual navigation elements dropped."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["head", "script", "style", "nav", "header", "footer", "noscript", "aside"]):
        tag.decompose()
    for tag in soup.find_all(role=["navigation", "search", "banner", "contentinfo"]):
        tag.decompose()
    for tag in soup.find_all(class_=["navheader", "navfooter", "toc", "related", "sphinxsidebar", "headerlink"]):
        tag.decompose()
    _mark_list_items(soup)
    for heading in soup.find_all(["h1", "h2", "h3", "h4", "h5", "h6"]):  # its words as one block, level marked
        heading.string = f"\x00{heading.name[1]}\x00" + " ".join(heading.get_text().split())
        heading.insert_after("\n\n")
    for tag in soup.find_all(["p", "pre", "li", "dt", "dd", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "div", "table"]):
        tag.insert_before("\n\n")
    # Block elements were marked with blank lines; line breaks inside a block are only source layout.
    blocks: list[tuple[int, str]] = []
    for raw in re.split(r"\n\s*\n", soup.get_text()):
        text = " ".join(raw.split())
        mark = _LEVEL_MARK.match(text)
        level, text = (int(mark.group(1)), text[mark.end() :]) if mark else (0, text)
        if text:
            blocks.append((level, text))
    return blocks


def _mark_list_items(soup: Any) -> None:
    """Start each list item's text with its mark, as chunk text keeps lists: "1. ", "2. " in an ordered list (from
    its `start`), "- " in another. The mark goes into the item's first block (DocBook wraps an item's text in
    <p>), so that it stays on the item's line."""
    for items in soup.find_all(["ol", "ul"]):
        number = _list_start(items.get("start"))
        for item in items.find_all("li", recursive=False):
            mark = f"{number}. " if items.name == "ol" else "- "
            number += 1
            first = next((child for child in item.children if str(child).strip()), None)
            if first is not None and getattr(first, "name", None) in ("p", "div"):
                first.insert(0, mark)
            else:
                item.insert(0, mark)


def _list_start(start: object) -> int:
    try:
        return int(str(start))
    except ValueError:
        return 1


def read_html_plainly(html: str, path: Path) -> Document:
    """The page split at its headings by the tag cleaner, titled by its <title>."""
    match = re.search(r"<title[^>]*>(.*?)</title>", html, re.S | re.I)
    title = " ".join(unescape(match.group(1)).split()) if match else ""
    return Document(title=title or path.stem, segments=sections_from_blocks(plain_html_blocks(html)))
