"""Two offline language detectors side by side on short technical text and on whole chunks.

    python scripts/compare_language_detectors.py                   # py3langid (triad's), and lingua when importable
    PYTHONPATH=/path/to/lingua python scripts/compare_language_detectors.py

Texts: the German, French, Spanish and Japanese Debian Reference slices of the tests
(tests/data/manuals) and the English demo corpus (PostgreSQL 15 manual). Short texts are single
sentences of 4 to 25 words (a question's length), whole chunks are the chunks as stored. A
translation keeps some English paragraphs, so a text counts only when its expected language is
evident without a detector (German, French or Spanish function words; Japanese kana).
py3langid is measured as triad calls it (`nodes.language.detect_language`: a text under 50% confidence
gets no language, which counts as wrong here). Prints accuracy, the milliseconds per text and the
seconds to load each detector.
"""

from __future__ import annotations

import argparse
import re
import time
from collections.abc import Callable

import repo_root  # noqa: F401  (tests.support on the path)

from graph.demo import load_demo_chunks
from nodes.language import detect_language
from tests.support.manuals import MANUAL_LANGUAGES, manual_rows

PER_LANGUAGE = 300
#: Words that mark a text as the language without a detector (a rough gate, not the measure).
MARKERS = {
    "de": {"und", "der", "die", "das", "ist", "nicht", "mit", "für", "werden", "eine"},
    "fr": {"et", "le", "la", "les", "est", "des", "une", "pour", "dans", "pas"},
    "es": {"y", "el", "la", "los", "las", "es", "una", "para", "con", "del"},
    "en": {"the", "and", "is", "of", "to", "for", "with", "are", "this", "that"},
}
_KANA = re.compile(r"[\u3040-\u30ff]")


def evident(text: str, language: str) -> bool:
    if language == "ja":
        return len(_KANA.findall(text)) >= 3
    words = re.findall(r"\w+", text.casefold())
    own = sum(word in MARKERS[language] for word in words)
    english = sum(word in MARKERS["en"] for word in words)
    return own >= 2 and (language == "en" or own > english)


def sentences(text: str, language: str) -> list[str]:
    body = text.split("\n", 1)[-1]
    if language == "ja":
        parts = [part + "。" for part in body.replace("\n", "").split("。") if 8 <= len(part) <= 60]
    else:
        parts = [part for part in re.split(r"(?<=[.?!:])\s+", body.replace("\n", " ")) if 4 <= len(part.split()) <= 25]
    return [part for part in parts if evident(part, language)]


def texts() -> dict[str, tuple[list[str], list[str]]]:
    """language -> (short texts, whole chunks)."""
    chunks = {language: [row["text"] for row in manual_rows(language)] for language in MANUAL_LANGUAGES}
    chunks["en"] = [chunk.text for chunk in load_demo_chunks()[:400]]
    result = {}
    for language, found in chunks.items():
        short = [s for text in found for s in sentences(text, language)][:PER_LANGUAGE]
        whole = [text for text in found if evident(text, language)][:PER_LANGUAGE]
        result[language] = (short, whole)
    return result


def py3langid_detector() -> Callable[[str], str]:
    """py3langid as triad uses it: normalised probabilities, no answer under 50% (counted as wrong here)."""
    detect_language("warm up")
    return lambda text: detect_language(text) or "und"


def lingua_detector() -> Callable[[str], str] | None:
    try:
        from lingua import LanguageDetectorBuilder
    except ImportError:
        return None
    detector = LanguageDetectorBuilder.from_all_languages().with_preloaded_language_models().build()

    def detect(text: str) -> str:
        found = detector.detect_language_of(text)
        return found.iso_code_639_1.name.lower() if found else "und"

    return detect


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    corpus = texts()
    print("texts per language (short / whole): " + ", ".join(f"{k} {len(s)}/{len(w)}" for k, (s, w) in corpus.items()))
    header = f"{'detector':<12}{'load s':>8}  {'short acc':>9} {'ms/text':>8}  {'chunk acc':>9} {'ms/text':>8}"
    print(header + "  short acc per language")
    for name, build in (("py3langid", py3langid_detector), ("lingua", lingua_detector)):
        started = time.perf_counter()
        detect = build()
        if detect is None:
            print(f"{name:<12}not importable")
            continue
        load = time.perf_counter() - started
        row, per_language = [], []
        for index in (0, 1):
            right = total = 0
            started = time.perf_counter()
            for language, pair in corpus.items():
                hits = sum(detect(text) == language for text in pair[index])
                right, total = right + hits, total + len(pair[index])
                if index == 0:
                    per_language.append(f"{language} {hits / len(pair[index]):.3f}")
            row.append((right / total, (time.perf_counter() - started) * 1000 / total))
        (short, short_ms), (whole, whole_ms) = row
        figures = f"{name:<12}{load:>8.1f}  {short:>9.3f} {short_ms:>8.2f}  {whole:>9.3f} {whole_ms:>8.2f}"
        print(f"{figures}  {', '.join(per_language)}")


if __name__ == "__main__":
    main()
