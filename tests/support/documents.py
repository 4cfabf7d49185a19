"""A folder of real documents for the ingestion tests: a PDF manual, a Sphinx HTML manual, a Word file made
here, Markdown with nested headings, and an encrypted copy of the PDF (tests/data/documents; see the
NOTICE there for where the real files come from and their licences)."""

from __future__ import annotations

import gzip
import re
import shutil
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tests.support.commands import REPO_ROOT

DOCUMENTS = REPO_ROOT / "tests" / "data" / "documents"
SPHINX_MANUAL = DOCUMENTS / "cachelib-html"
PDF_MANUAL = DOCUMENTS / "fontconfig-user.pdf.gz"

#: Strings of a Sphinx manual's page template (menus, "next"/"previous" links, the sidebar, the footer)
#: that a manual's own text does not hold.
SPHINX_NAVIGATION = (
    "Navigation",
    "Quick search",
    "Created using",
    "© Copyright",
    "modules |",
    "next |",
    "previous |",
    "Previous:",
    "Next:",
    "Show Source",
    "View page source",
)

GUIDE_MARKDOWN = """\
---
title: Backup operations
---
# Backups

Backups are taken by the nightly job.

## Schedules

The nightly job starts at 02:00 and keeps seven copies.

### Retention

Copies older than seven days are pruned at 03:00 by the pruning job.

```
# restore --latest   (a comment in a code block, not a heading)
```

## Restores
Restores read the newest copy unless `--at` names another.
"""


def real_pdf(folder: Path, name: str = "fontconfig-user.pdf") -> Path:
    """The fontconfig user manual (15 pages, with an outline) as a PDF file in `folder`."""
    target = folder / name
    with gzip.open(PDF_MANUAL, "rb") as packed, target.open("wb") as out:
        shutil.copyfileobj(packed, out)
    return target


def encrypted_pdf(source: Path, target: Path, password: str = "secret") -> Path:
    """A copy of `source` that opens only with a password."""
    from pypdf import PdfWriter

    writer = PdfWriter(clone_from=source)
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="AES-256")
    with target.open("wb") as out:
        writer.write(out)
    return target


def word_file(target: Path) -> Path:
    """A .docx with a title, two heading levels, paragraphs and a table."""
    import docx

    document = docx.Document()
    document.core_properties.title = "Replication handbook"
    document.add_paragraph("Replication handbook", style="Title")
    document.add_heading("1 Streaming replication", level=1)
    document.add_paragraph("A standby replays the primary's write-ahead log as it arrives over the network.")
    document.add_heading("1.1 Slots", level=2)
    document.add_paragraph("A replication slot keeps the WAL a standby still needs, even while it is offline. " * 3)
    table = document.add_table(rows=2, cols=2)
    for (row, column), text in {(0, 0): "setting", (0, 1): "default", (1, 0): "max_wal_senders", (1, 1): "10"}.items():
        table.cell(row, column).text = text
    document.add_heading("2 Logical replication", level=1)
    document.add_paragraph("Logical replication sends row changes of chosen tables to subscribers. " * 4)
    document.save(str(target))
    return target


#: The documents of `mixed_folder` that hold text, by source (the path below the folder).
MIXED_FOLDER_SOURCES = frozenset(
    {
        "backups.md",
        "cachelib/changes.html",
        "cachelib/file.html",
        "cachelib/redis.html",
        "fontconfig-user.pdf",
        "replication.docx",
    }
)


def mixed_folder(folder: Path) -> Path:
    """A PDF, three pages of the Sphinx manual, a Word file and a Markdown file in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    real_pdf(folder)
    (folder / "cachelib").mkdir(exist_ok=True)
    for page in ("file.html", "redis.html", "changes.html"):
        shutil.copy(SPHINX_MANUAL / page, folder / "cachelib" / page)
    word_file(folder / "replication.docx")
    (folder / "backups.md").write_text(GUIDE_MARKDOWN, encoding="utf-8")
    return folder


#: A manual's numbered heading ("25.1.6. The Autovacuum Daemon"), written back as a Markdown heading.
_NUMBERED_HEADING = re.compile(r"^(\d+(?:\.\d+)+)\.\s+\S")


def manual_pages(folder: Path, pages: Iterable[str]) -> Path:
    """Pages of the demo corpus (the PostgreSQL manual) written back as Markdown documents, one per page
    (`postgresql-15/<page>.html` -> `<page>.md`): its chunks in their order, numbered headings as headings."""
    from graph.demo import load_demo_chunks

    by_page: dict[str, list[Any]] = defaultdict(list)
    for chunk in load_demo_chunks():
        by_page[chunk.metadata["source"]].append(chunk)
    folder.mkdir(parents=True, exist_ok=True)
    for page in pages:
        chunks = sorted(by_page[f"postgresql-15/{page}.html"], key=lambda chunk: chunk.metadata["start_index"])
        lines = [
            "#" * line.split(" ")[0].count(".") + " " + line if _NUMBERED_HEADING.match(line) else line
            for chunk in chunks
            for line in [*chunk.text.split("\n"), ""]
        ]
        (folder / f"{page}.md").write_text("\n".join(lines), encoding="utf-8")
    return folder
