"""Which language a chunk is written in, and so which language a sample's question is written in.

Detection is offline: py3langid, whose model ships inside its wheel (scripts/compare_language_detectors.py
compares it with lingua on short technical text; docs/languages.md has the figures).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections import Counter
from collections.abc import Iterable

from nodes.run_context import Context
from prompts.generate import UNKNOWN_YES_NO
from state.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, answer_words, language_name
from state.sample import SampleState

#: Characters of a chunk the detector reads (its opening is enough to tell the language).
DETECTED_CHARS = 2000
#: Below this probability a detection is no answer (a chunk of code, numbers or names).
MIN_CONFIDENCE = 0.5

_lock = threading.Lock()


@functools.cache
def _identifier():  # type: ignore[no-untyped-def]
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@functools.lru_cache(maxsize=4096)  # a sample's chunks are detected by several nodes
def detect_language(text: str) -> str | None:
    """The ISO 639-1 code of the language `text` is written in, or None when the text shows none clearly."""
    sample = text[:DETECTED_CHARS]
    if not any(ch.isalpha() for ch in sample):
        return None
    with _lock:  # the identifier keeps scratch arrays: one detection at a time
        code, probability = _identifier().classify(sample)
    return code if probability >= MIN_CONFIDENCE and code in LANGUAGE_NAMES else None


def chunks_language(texts: Iterable[str], lead: str | None = None) -> str:
    """The language of a sample's chunks: theirs when they agree, else the language of `lead` (the seed),
    else the most common one found; English when none shows clearly."""
    found = [code for code in map(detect_language, texts) if code]
    if found and len(set(found)) == 1:
        return found[0]
    lead_language = detect_language(lead) if lead else None
    if lead_language:
        return lead_language
    return Counter(found).most_common(1)[0][0] if found else DEFAULT_LANGUAGE


def sample_language(state: SampleState, context: Context) -> str:
    """The language a sample's question and answer are written in.

    The one recorded in state (set with the first draft, so revisions and judges keep to it); else the
    run's `question_language` when it asks for one; else that of the supporting chunks (the seed's when
    they differ), or of the seed alone.
    """
    if state.get("language"):
        return state["language"]  # type: ignore[return-value]
    if context.question_language:
        return context.question_language
    seed = state.get("seed")
    lead = seed["text"] if seed else None
    supporting = [chunk["text"] for chunk in state.get("supporting") or []]
    return chunks_language(supporting or ([lead] if lead else []), lead)


async def decided_language(state: SampleState, context: Context) -> str:
    """`sample_language`, off the event loop: a first detection loads the detector's model from disk."""
    if state.get("language"):
        return state["language"]  # type: ignore[return-value]
    return await asyncio.to_thread(sample_language, state, context)


def language_shares(texts: Iterable[str]) -> list[tuple[str, float]]:
    """(language, share) of the texts, most common first; texts that show no language count as "und"."""
    found = Counter(detect_language(text) or "und" for text in texts)
    total = sum(found.values())
    return [(code, count / total) for code, count in found.most_common()] if total else []


def quoted_yes_no(language: str) -> dict[str, str]:
    """The language's yes and no as a prompt quotes them ({"yes": '"Ja"', "no": '"Nein"'})."""
    words = answer_words(language)
    if words:
        return {"yes": f'"{words[0]}"', "no": f'"{words[1]}"'}
    name = language_name(language)
    return {"yes": UNKNOWN_YES_NO[0].format(language=name), "no": UNKNOWN_YES_NO[1].format(language=name)}
