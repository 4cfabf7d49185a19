"""Reading real documents: PDF pages and outline, Word headings and tables, HTML main content, Markdown sections."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from graph.ingestion.chunking import chunk_document
from graph.ingestion.documents import Unreadable, decode_text, read_markdown
from graph.ingestion.loaders import load_chunks
from graph.ingestion.pdf import page_segments, read_pdf
from graph.ingestion.web import read_html
from graph.ingestion.word import read_docx
from state.location import where
from tests.support.documents import (
    GUIDE_MARKDOWN,
    MIXED_FOLDER_SOURCES,
    SPHINX_MANUAL,
    SPHINX_NAVIGATION,
    encrypted_pdf,
    mixed_folder,
    real_pdf,
    word_file,
)


def test_markdown_is_cut_at_its_headings_with_the_heading_path_kept(tmp_path: Path) -> None:
    path = tmp_path / "backups.md"
    path.write_text(GUIDE_MARKDOWN)
    document = read_markdown(path)
    assert document.title == "Backup operations"  # the front matter's, which is not in the text
    assert [segment.section for segment in document.segments] == [
        ("Backups",),
        ("Backups", "Schedules"),
        ("Backups", "Schedules", "Retention"),
        ("Backups", "Restores"),
    ]
    retention = document.segments[2].text
    assert retention.startswith("### Retention") and "# restore --latest" in retention  # code is not a heading
    chunks = chunk_document(document, "backups.md", chunk_size=120, chunk_overlap=0)
    assert [chunk.metadata["section"] for chunk in chunks] == [
        "Backups",
        "Backups > Schedules",
        "Backups > Schedules > Retention",
        "Backups > Schedules > Retention",
        "Backups > Restores",
    ]
    assert all(chunk.metadata["title"] == "Backup operations" for chunk in chunks)
    assert chunks[-1].text.startswith("## Restores")  # a section starts its own chunk


def test_short_sections_share_a_chunk_and_it_carries_the_first_section(tmp_path: Path) -> None:
    path = tmp_path / "backups.md"
    path.write_text(GUIDE_MARKDOWN)
    chunks = chunk_document(read_markdown(path), "backups.md", chunk_size=1600, chunk_overlap=160)
    assert len(chunks) == 1 and chunks[0].metadata["section"] == "Backups"
    assert "Restores read the newest copy" in chunks[0].text


def test_a_setext_heading_opens_a_section(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("Install\n=======\n\nRun the installer.\n\nUpgrade\n-------\n\nStop the service first.\n")
    document = read_markdown(path)
    assert [segment.section for segment in document.segments] == [("Install",), ("Install", "Upgrade")]
    assert document.title == "Install"


def test_pdf_pages_and_outline_sections_are_kept(tmp_path: Path) -> None:
    document = read_pdf(real_pdf(tmp_path))
    pages = [segment.page for segment in document.segments]
    assert pages == sorted(pages) and pages[0] == 1 and pages[-1] == 15
    chunks = chunk_document(document, "fontconfig-user.pdf", 1600, 160)
    first = chunks[0]
    assert first.metadata["page"] == 1 and first.metadata["section"] == "fontsconf > Name"
    assert first.text.startswith("Name\nfonts.conf")
    matching = next(chunk for chunk in chunks if chunk.text.startswith("Font Matching"))
    assert matching.metadata["section"].endswith("Functional Overview > Font Matching")
    assert where(matching.metadata) == "fontconfig-user.pdf, pp. 2-3, Font Matching"  # text flows across pages
    element = next(chunk for chunk in chunks if chunk.text.startswith('<include ignore_missing="no"'))
    assert element.metadata["section"].endswith('File Format > include ignoremissing="no" prefix="default"')
    text = "".join(chunk.text for chunk in chunks)
    assert "\ufb01" not in text and "configuration" in text  # the "fi" ligature is two letters


def test_an_encrypted_or_broken_pdf_is_unreadable_with_the_fix(tmp_path: Path) -> None:
    locked = encrypted_pdf(real_pdf(tmp_path), tmp_path / "locked.pdf")
    with pytest.raises(Unreadable, match="encrypted with a password.*qpdf --decrypt"):
        read_pdf(locked)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\n" + b"\x00garbage" * 50)
    with pytest.raises(Unreadable, match="not a readable PDF"):
        read_pdf(broken)


def test_word_headings_paragraphs_and_tables_are_read(tmp_path: Path) -> None:
    document = read_docx(word_file(tmp_path / "handbook.docx"))
    assert document.title == "Replication handbook"
    sections = [segment.section for segment in document.segments]
    assert sections[1:] == [
        ("Replication handbook", "1 Streaming replication"),
        ("Replication handbook", "1 Streaming replication", "1.1 Slots"),
        ("Replication handbook", "2 Logical replication"),
    ]
    slots = document.segments[2].text
    assert "max_wal_senders | 10" in slots and slots.startswith("1.1 Slots")
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 not a zip archive")
    with pytest.raises(Unreadable, match="not a readable Word file"):
        read_docx(broken)


def test_html_keeps_the_main_content_and_drops_the_manual_template() -> None:
    document = read_html(SPHINX_MANUAL / "redis.html")
    assert document.title == "Redis Backend — CacheLib Documentation (0.9.x)"
    text = "\n\n".join(segment.text for segment in document.segments)
    assert text.startswith("Redis Backend\n\nclass cachelib.redis.RedisCache(")
    assert 'foo, bar = cache.get_many("foo", "bar")' in text  # a code block, whole
    assert not [marker for marker in SPHINX_NAVIGATION if marker in text]
    assert "¶" not in text  # Sphinx's permalink marks
    changes = read_html(SPHINX_MANUAL / "changes.html")
    assert ("Changes", "Version 0.9.0") in [segment.section for segment in changes.segments]


def test_without_trafilatura_html_is_read_by_the_tag_cleaner(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trafilatura", None)  # import fails as if the extra were not installed
    document = read_html(SPHINX_MANUAL / "file.html")
    assert document.title == "File Backend — CacheLib Documentation (0.9.x)"
    text = document.segments[0].text
    assert text.startswith("File Backend") and "class cachelib.file.FileSystemCache" in text
    assert "Quick search" not in text and "Navigation" not in text
    changes = read_html(SPHINX_MANUAL / "changes.html")
    assert ("Changes", "Version 0.9.0") in [segment.section for segment in changes.segments]


def test_no_chunk_of_the_html_manual_holds_navigation_text() -> None:
    chunks = load_chunks(SPHINX_MANUAL, 1600, 160).chunks
    assert len(chunks) > 20
    assert [chunk.metadata["source"] for chunk in chunks if any(m in chunk.text for m in SPHINX_NAVIGATION)] == []


def test_text_that_is_not_utf8_is_decoded_when_its_encoding_is_clear() -> None:
    assert decode_text("Café au lait, résumé, crème brûlée. ".encode("latin-1") * 4).startswith("Café au lait")
    assert decode_text("\ufeffBOM first".encode("utf-8")) == "BOM first"
    assert decode_text("Übersicht".encode("utf-16")) == "Übersicht"
    with pytest.raises(Unreadable, match="encoding is unclear; convert it to UTF-8"):
        decode_text(bytes(range(128, 256)) * 8)


def test_a_folder_of_every_format_reads_what_it_can_and_names_the_rest(tmp_path: Path) -> None:
    folder = mixed_folder(tmp_path / "docs")
    encrypted_pdf(folder / "fontconfig-user.pdf", folder / "locked.pdf")
    (folder / "empty.txt").write_text("   \n")
    seen: list[str] = []
    loaded = load_chunks(folder, 1600, 160, observe=lambda result: seen.append(result.source))
    assert seen == sorted(seen) and len(seen) == loaded.files == 8
    assert [(result.source, result.skipped) for result in loaded.skipped] == [
        ("locked.pdf", "is encrypted with a password; save an unencrypted copy (qpdf --decrypt) or remove it")
    ]
    assert loaded.empty == ["empty.txt"]
    by_source: dict[str, list] = {}
    for chunk in loaded.chunks:
        by_source.setdefault(chunk.metadata["source"], []).append(chunk)
    assert set(by_source) == MIXED_FOLDER_SOURCES
    assert all(chunk.metadata["title"] for chunk in loaded.chunks)
    assert all("page" in chunk.metadata for chunk in by_source["fontconfig-user.pdf"])
    assert all("section" in chunk.metadata for source, chunks in by_source.items() for chunk in chunks)
    again = load_chunks(folder, 1600, 160)
    assert [chunk.id for chunk in again.chunks] == [chunk.id for chunk in loaded.chunks]  # stable ids


def test_a_reader_failing_on_an_odd_file_skips_that_file_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from graph.ingestion import loaders

    def failing(path: Path) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setitem(loaders.READERS, ".pdf", failing)
    real_pdf(tmp_path)
    (tmp_path / "notes.txt").write_text("Checkpoints flush dirty pages to disk.")
    loaded = load_chunks(tmp_path, 1600, 160)
    assert [chunk.metadata["source"] for chunk in loaded.chunks] == ["notes.txt"]
    assert loaded.skipped[0].skipped == (
        "could not be read (RecursionError: maximum recursion depth exceeded); re-save it or remove it"
    )


def test_markdown_edge_cases_windows_lines_hashes_fences_and_lists(tmp_path: Path) -> None:
    path = tmp_path / "edge.md"
    path.write_bytes(
        b"---\r\ntitle: Edge cases\r\n---\r\n## Using C#\r\n\r\n~~~\r\n```\r\n# a comment\r\n~~~\r\n\r\n"
        b"# Real heading\r\n\r\n- a list item\r\n---\r\n\r\nText.\r\n\r\n***\r\nAfter a break\r\n----\r\nMore.\r\n"
    )
    document = read_markdown(path)
    assert document.title == "Edge cases"
    assert [segment.section for segment in document.segments] == [
        ("Using C#",),
        ("Real heading",),
        ("Real heading", "After a break"),
    ]
    assert "\r" not in "".join(segment.text for segment in document.segments)


def test_pdf_headings_are_cut_at_line_starts_and_each_found_once() -> None:
    pages = [
        "Intro text that says see Backups below.\n1 Backups\nBackups run nightly.\n",
        "Examples\nfirst example\n2 Restores\nExamples\nsecond example\n",
        "Drawn heading text, not found.\nMore text.\n",
    ]
    outline = [
        (1, ("Backups",)),
        (2, ("Backups", "Examples")),
        (2, ("Restores",)),
        (2, ("Restores", "Examples")),
        (2, ("Restores", "Not printed")),
    ]
    segments = page_segments(pages, outline)
    assert [(segment.page, segment.section, segment.text.split("\n")[0]) for segment in segments] == [
        (1, (), "Intro text that says see Backups below."),
        (1, ("Backups",), "1 Backups"),
        (2, ("Backups", "Examples"), "Examples"),
        (2, ("Restores",), "2 Restores"),
        (2, ("Restores", "Examples"), "Examples"),
        (3, ("Restores", "Not printed"), "Drawn heading text, not found."),  # a heading not found: next page on
    ]


def test_pdf_headings_match_on_their_words_alone_as_whole_lines_first() -> None:
    pages = [
        'Manual\nSynopsis\n~/.fonts.conf\n<include ignore_missing="no">\nReads a file.\n'
        "ConfigLoadAndParse reads it.\nConfig files are read first.\n<config>\nHolds settings.\n"
        "3.2. Backups and\nRestores\nCopies.\nSee Notes below.\nNotes\nUsage\nuse it\nNotes\nnote text\n",
        "Intro.\n4 Retention Keep copies a week.\n",
    ]
    outline = [
        (1, ("fontsconf",)),  # a parent the page prints only as a file name, after its child
        (1, ("fontsconf", "Synopsis")),
        (1, ("fontsconf", 'include ignoremissing="no"')),  # the outline drops "<", ">" and "_"
        (1, ("fontsconf", "config")),
        (1, ("fontsconf", "Backups and Restores")),  # wrapped onto a second line, numbered
        (1, ("fontsconf", "Usage")),  # "Notes" is printed before it, and again after it
        (1, ("fontsconf", "Notes")),
        (2, ("fontsconf", "Retention")),  # printed only as the start of a line of text
    ]
    segments = page_segments(pages, outline)
    assert [(segment.section[-1], segment.text.split("\n")[0]) for segment in segments] == [
        ("fontsconf", "Manual"),
        ("Synopsis", "Synopsis"),
        ('include ignoremissing="no"', '<include ignore_missing="no">'),
        ("config", "<config>"),  # not "ConfigLoadAndParse", not the line of text that begins "Config"
        ("Backups and Restores", "3.2. Backups and"),
        ("Usage", "Usage"),
        ("Notes", "Notes"),
        ("Notes", "Intro."),
        ("Retention", "4 Retention Keep copies a week."),
    ]


def test_docbook_xhtml_pages_keep_their_nested_headings(tmp_path: Path) -> None:
    def section(level: int, title: str, body: str) -> str:
        return (
            f'<div class="section"><div class="titlepage"><div><div><h{level} class="title"><a id="s{level}"/>'
            f"{title}</h{level}></div></div></div><p>{body}</p>"
        )

    html = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
        "<title>Kapitel 2. Paketmanagement</title></head><body>"
        '<div class="navheader">Zurück | Weiter</div><div class="chapter">'
        + section(2, "2.1. Grundlagen", "Debian verteilt vorkompilierte Binärpakete über sein Archiv. " * 4)
        + section(3, "2.1.1. Konfiguration", "Die Paketkonfiguration folgt einigen wichtigen Regeln. " * 4)
        + "</div></div></div>"
        + '<table><tr><td><img src="note.png"/></td><td>Anmerkung</td></tr></table>'
        + '</div><div class="navfooter">Zurück | Nach oben | Weiter</div></body></html>'
    )
    path = tmp_path / "ch02.de.html"
    path.write_text(html)
    document = read_html(path)
    assert document.title == "Kapitel 2. Paketmanagement"
    assert [segment.section for segment in document.segments] == [
        ("2.1. Grundlagen",),
        ("2.1. Grundlagen", "2.1.1. Konfiguration"),
    ]
    text = "\n".join(segment.text for segment in document.segments)
    assert "Zurück" not in text and "\nAnmerkung" in text  # the table row without its empty cell


def test_a_header_inside_the_article_is_content(tmp_path: Path) -> None:
    path = tmp_path / "slots.html"
    path.write_text(
        "<html><head><title>Slots</title></head><body><header>Site menu: Home | Docs</header><main><article>"
        "<header><h1>Replication slots</h1></header><p>" + "A slot keeps the WAL a standby still needs. " * 6 + "</p>"
        "<h2>Dropping a slot</h2><p>" + "An unused slot holds WAL forever; drop it. " * 4 + "</p></article></main>"
        "</body></html>"
    )
    document = read_html(path)
    assert [segment.section for segment in document.segments] == [
        ("Replication slots",),
        ("Replication slots", "Dropping a slot"),
    ]
    assert "Site menu" not in "".join(segment.text for segment in document.segments)


def test_a_page_of_links_gives_no_chunks() -> None:
    assert read_html(SPHINX_MANUAL / "genindex.html").segments == []  # the manual's index
    assert read_html(SPHINX_MANUAL / "py-modindex.html").segments == []
    loaded = load_chunks(SPHINX_MANUAL, 1600, 160)
    assert {"genindex.html", "py-modindex.html"} <= set(loaded.empty)


LIST_PAGE = """<html><head><title>Upgrading</title></head><body><main>
<h1>Upgrading</h1><p>Follow these steps to upgrade the cluster to the next major release of the server.</p>
<ol start="3"><li><p>Stop the old server.</p></li><li>Run pg_upgrade --check.</li></ol>
<ul><li>Keep the old data directory.</li><li><p>Read the release notes.</p></li></ul>
</main></body></html>"""


@pytest.mark.parametrize("reader", ["trafilatura", "tag cleaner"])
def test_html_list_items_keep_their_numbers_and_bullets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: str
) -> None:
    if reader == "tag cleaner":
        monkeypatch.setitem(sys.modules, "trafilatura", None)
    page = tmp_path / "upgrading.html"
    page.write_text(LIST_PAGE, encoding="utf-8")
    text = "\n\n".join(segment.text for segment in read_html(page).segments)
    lines = [line for line in text.splitlines() if line]
    assert "3. Stop the old server." in lines and "4. Run pg_upgrade --check." in lines
    assert "- Keep the old data directory." in lines and "- Read the release notes." in lines


def test_word_numbered_and_bulleted_paragraphs_keep_their_marks(tmp_path: Path) -> None:
    import docx

    word = docx.Document()
    word.add_heading("Upgrading", 1)
    for step in ("Stop the old server.", "Run pg_upgrade --check.", "Start the new server."):
        word.add_paragraph(step, style="List Number")
    word.add_paragraph("Keep in mind:")
    for note in ("the old data directory", "the release notes"):
        word.add_paragraph(note, style="List Bullet")
    word.save(tmp_path / "upgrading.docx")
    text = read_docx(tmp_path / "upgrading.docx").segments[0].text
    assert "1. Stop the old server.\n\n2. Run pg_upgrade --check.\n\n3. Start the new server." in text
    assert "Keep in mind:\n\n- the old data directory\n\n- the release notes" in text


def test_pdf_bullet_glyphs_become_list_marks() -> None:
    from graph.ingestion.pdf import list_marks

    page = "Things to notice:\n• There is a lot of information.\n  ◦ nested item\n•Stuck to its text\n– 5 °C stays"
    assert list_marks(page) == (
        "Things to notice:\n- There is a lot of information.\n  - nested item\n- Stuck to its text\n– 5 °C stays"
    )


def test_word_numbering_goes_on_after_a_note_between_its_items(tmp_path: Path) -> None:
    import docx

    word = docx.Document()
    word.add_paragraph("Stop the old server.", style="List Number")
    word.add_paragraph("Keep its data directory until the new server runs.")
    word.add_paragraph("Run pg_upgrade --check.", style="List Number")
    word.save(tmp_path / "steps.docx")
    text = read_docx(tmp_path / "steps.docx").segments[0].text
    assert "1. Stop the old server." in text and "2. Run pg_upgrade --check." in text
