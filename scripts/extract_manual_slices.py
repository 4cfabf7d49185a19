"""Cut the test corpora in other languages from Debian's translated Debian Reference.

    apt-get install debian-reference-de debian-reference-fr debian-reference-es debian-reference-ja
    python scripts/extract_manual_slices.py       # writes tests/data/manuals/debian-reference.<lang>.jsonl.gz
    python scripts/extract_manual_slices.py --vectors-only    # their first chunks' MiniLM vectors (.minilm.npy)

One chunk per section of chapters 1 and 2 (the section heading its first line, its paragraphs joined),
long sections cut at paragraphs; tables and figures dropped, since their box drawing is no prose. The
manual is GPL-2+ (see tests/data/manuals/NOTICE). The tests ingest each slice's first `VECTOR_CHUNKS`
chunks with the vectors shipped beside it, so that they embed nothing.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
from pathlib import Path

import repo_root  # noqa: F401  (tests.support on the path)

from tests.support.manuals import MANUAL_LANGUAGES, MANUALS, VECTOR_CHUNKS

SOURCE = Path("/usr/share/debian-reference")
OUTPUT = MANUALS
LANGUAGES = MANUAL_LANGUAGES
CHAPTERS = ("1", "2")
#: A section heading: at the start of a line, numbered with at least two parts ("1.2.6. Zeitstempel").
HEADING = re.compile(r"^(\d+(?:\.\d+)+)\.\s+(\S.*)$")
MAX_CHARS = 1800
_WIDE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def joined(lines: list[str]) -> str:
    """Wrapped lines of one paragraph as one line; no space between two lines of a script without spaces."""
    text = ""
    for line in (line.strip() for line in lines):
        if text and not (_WIDE.search(text[-1]) and _WIDE.search(line[:1] or " ")):
            text += " "
        text += line
    return text


def paragraphs(body: list[str]) -> list[str]:
    """The section's prose paragraphs: boxes (tables) and their captions left out."""
    kept, current = [], []
    for line in [*body, ""]:
        if not line.strip():
            if current and not any(mark in "".join(current) for mark in ("+--", "|")):
                kept.append(joined(current))
            current = []
        else:
            current.append(line)
    return [p for p in kept if len(p) > 20]


def sections(text: str) -> list[tuple[str, str, list[str]]]:
    """(number, title, paragraphs) of each numbered section of the body (the table of contents skipped)."""
    lines = text.splitlines()
    found = []
    for index, line in enumerate(lines):
        match = HEADING.match(line)
        # In the body a heading stands alone, a blank line after it; in the contents the entries follow each other.
        if match and index + 1 < len(lines) and not lines[index + 1].strip():
            found.append((index, match.group(1), match.group(2).strip()))
    result = []
    for (start, number, title), nxt in zip(found, [*found[1:], (len(lines), "", "")], strict=True):
        result.append((number, title, paragraphs(lines[start + 1 : nxt[0]])))
    return result


def chunks(language: str) -> list[dict]:
    text = gzip.decompress((SOURCE / f"debian-reference.{language}.txt.gz").read_bytes()).decode("utf-8")
    out = []
    for number, title, paras in sections(text):
        if number.split(".")[0] not in CHAPTERS or not paras:
            continue
        part, parts = [], []
        for para in paras:
            if part and sum(map(len, part)) + len(para) > MAX_CHARS:
                parts.append(part)
                part = []
            part.append(para)
        parts.append(part)
        for position, piece in enumerate(parts):
            body = f"{number}. {title}\n" + "\n".join(piece)
            source = f"debian-reference/ch{int(number.split('.')[0]):02d}.{language}.html#{number}"
            key = hashlib.sha256(f"{source}/{position}".encode()).hexdigest()[:16]
            out.append({"id": f"dr-{language}-{key}", "text": body, "metadata": {"source": source, "title": title}})
    return out


def write_vectors() -> None:
    """The MiniLM vectors of each slice's first `VECTOR_CHUNKS` chunks, as float32 rows in chunk order."""
    import numpy as np

    from graph.store.embeddings import load_embeddings

    model = load_embeddings("minilm")
    for language in LANGUAGES:
        path = OUTPUT / f"debian-reference.{language}.jsonl.gz"
        texts = [json.loads(line)["text"] for line in gzip.decompress(path.read_bytes()).decode().splitlines()]
        vectors = np.asarray(model.embed_documents(texts[:VECTOR_CHUNKS]), dtype=np.float32)
        target = OUTPUT / f"debian-reference.{language}.minilm.npy"
        np.save(target, vectors)
        print(f"{target}: {len(vectors)} vectors")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vectors-only", action="store_true", help="write only the vectors of the slices")
    if parser.parse_args().vectors_only:
        write_vectors()
        return
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        rows = chunks(language)
        path = OUTPUT / f"debian-reference.{language}.jsonl.gz"
        lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        path.write_bytes(gzip.compress(lines.encode("utf-8"), mtime=0))
        print(f"{path}: {len(rows)} chunks, {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
