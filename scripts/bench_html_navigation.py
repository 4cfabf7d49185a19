"""The share of chunks that hold navigation text, per way of reading an HTML manual.

    python scripts/bench_html_navigation.py                       # the CacheLib Sphinx manual in tests/data
    python scripts/bench_html_navigation.py /usr/share/doc/python3-cachelib/html --markers "Quick search"

Every page is read three ways and cut by the same chunker (1,600 characters, 160 shared):
  page text      the page's text with <nav>, <header>, <footer>, scripts and styles dropped
  tag cleaner    also drops ARIA navigation landmarks and Sphinx/DocBook navigation classes
                 (what ingestion uses when the documents extra is not installed)
  main content   what `graph.ingest` reads: trafilatura's main content of the cleaned page
A chunk holds navigation text when it contains one of the markers: strings of the manual's page
template (menus, breadcrumbs, "next"/"previous" links, the sidebar search, the footer).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

import repo_root  # noqa: F401  (tests.support on the path)

from graph.ingestion.chunking import chunk_document
from graph.ingestion.documents import Document, Segment
from graph.ingestion.web import read_html, read_html_plainly
from tests.support.documents import SPHINX_MANUAL, SPHINX_NAVIGATION


def page_text(html: str) -> str:
    """The text a page shows, without the HTML5 navigation elements."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(["head", "script", "style", "nav", "header", "footer", "noscript"]):
        tag.decompose()
    blocks = (" ".join(block.split()) for block in re.split(r"\n\s*\n", soup.get_text("\n\n")))
    return "\n\n".join(block for block in blocks if block)


def as_document(text_of: Callable[[str], str]) -> Callable[[Path], Document]:
    return lambda path: Document(title=path.stem, segments=[Segment(text=text_of(path.read_text("utf-8")))])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, default=SPHINX_MANUAL, help="a folder of HTML pages")
    parser.add_argument("--markers", nargs="+", default=list(SPHINX_NAVIGATION), help="strings of the page template")
    args = parser.parse_args()
    pages = sorted(args.folder.glob("*.html"))
    readers = {
        "page text": as_document(page_text),
        "tag cleaner": lambda page: read_html_plainly(page.read_text("utf-8"), page),
        "main content": read_html,
    }
    print(f"{len(pages)} pages of {args.folder}")
    print(f"{'read as':<14}{'characters':>11}{'chunks':>8}{'with navigation':>17}{'share':>8}")
    for name, read in readers.items():
        documents = {page.name: read(page) for page in pages}
        chunks = [
            chunk for source, document in documents.items() for chunk in chunk_document(document, source, 1600, 160)
        ]
        flagged = [chunk for chunk in chunks if any(marker in chunk.text for marker in args.markers)]
        share = len(flagged) / len(chunks) if chunks else 0.0
        characters = sum(len(segment.text) for document in documents.values() for segment in document.segments)
        print(f"{name:<14}{characters:>11,}{len(chunks):>8}{len(flagged):>17}{share:>8.0%}")


if __name__ == "__main__":
    main()
