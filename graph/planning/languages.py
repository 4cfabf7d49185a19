"""Before a run starts: which languages the collection is written in, and what that means for the run.

A random sample of chunks is detected (the collection's shares, printed and kept in run.json); a
language lint has no rules for, and an English-only embedding model that would re-embed text of
another language, are each said once.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Any

from graph.folder.run_document import LanguageShares
from graph.planning.options import RunOptions
from graph.store.embeddings import ENGLISH_ONLY_EMBEDDINGS
from nodes.language import language_shares
from nodes.lint.languages import LINT_RULES
from state.languages import language_name
from state.record import DatasetRecord

#: Chunks read to estimate the collection's languages.
SURVEYED_CHUNKS = 200
#: A language under this share of the sampled chunks is listed, but no note is made about it.
NOTABLE_SHARE = 0.05


@dataclass(frozen=True)
class LanguageSurvey:
    shares: list[tuple[str, float]]
    """(ISO 639-1 code or "und", share of the sampled chunks), most common first."""
    sampled: int

    def as_json(self) -> LanguageShares:
        return LanguageShares(
            sampled_chunks=self.sampled, shares={code: round(share, 4) for code, share in self.shares}
        )

    def line(self, collection: str) -> str:
        listed = ", ".join(
            f"{language_name(code) if code != 'und' else 'unknown'} {share:.0%}" for code, share in self.shares
        )
        return f"languages of {collection!r} ({self.sampled} chunks sampled): {listed or 'none'}"

    def notable(self) -> list[str]:
        return [code for code, share in self.shares if code != "und" and share >= NOTABLE_SHARE]


async def survey_languages(corpus: Any, n: int = SURVEYED_CHUNKS, random_seed: int = 0) -> LanguageSurvey:
    """The languages of up to `n` random chunks of the collection."""
    ids = await corpus.sample_ids(n, rng=random.Random(random_seed))
    chunks = await corpus.get(ids)
    shares = await asyncio.to_thread(language_shares, [chunk.text for chunk in chunks])
    return LanguageSurvey(shares, len(chunks))


def language_notes(survey: LanguageSurvey, options: RunOptions, embedding: str) -> list[str]:
    """What the run says once about its languages: lint without rules, an English-only embedding re-embedding."""
    written = [options.question_language] if options.question_language else survey.notable()
    notes = []
    unruled = [code for code in written if code not in LINT_RULES]
    if unruled:
        names = ", ".join(f"{language_name(code)} ({code})" for code in unruled)
        notes.append(
            f"note: lint has wording rules for {', '.join(sorted(LINT_RULES))} only; questions in {names} get its "
            "language-neutral checks (lengths, yes/no words, answer leakage, declared entities) and the judges"
        )
    uses = [
        use
        for use, applies in (
            ("the duplicate check", options.dedup_threshold > 0),
            ("query seeds", options.queries is not None),
            ("the unanswerable retrieval check", options.unanswerable_share > 0),
        )
        if applies
    ]
    # Questions are embedded in their language; with queries or the unanswerable check they are matched
    # against the collection's vectors, so its languages count too.
    meeting_store = options.queries is not None or options.unanswerable_share > 0
    embedded = dict.fromkeys([*written, *(survey.notable() if meeting_store else [])])
    other = [code for code in embedded if code != "en"]
    if embedding in ENGLISH_ONLY_EMBEDDINGS and other and uses:
        names = ", ".join(language_name(code) for code in other)
        notes.append(
            f"note: the embedding model {embedding!r} knows English only, and this run embeds {names} text for "
            f"{', '.join(uses)}; give a multilingual model with --embedding (the neighbour search uses the "
            "store's own vectors and is unaffected)"
        )
    return notes


def evaluation_note(records: list[DatasetRecord], embedding: str) -> str | None:
    """What an evaluation says once when the English-only model embeds its questions and answers of another
    language (the built-in setups' retrieval, graded correctness's similarity); None when it does not."""
    other = sorted({r.language for r in records if r.language is not None and r.language != "en"})
    if embedding not in ENGLISH_ONLY_EMBEDDINGS or not other:
        return None
    names = ", ".join(language_name(code) for code in other)
    return (
        f"note: the embedding model {embedding!r} knows English only, and this evaluation embeds {names} questions "
        "and answers (the built-in setups' retrieval, graded correctness); give a multilingual model with "
        "--embedding or a setup's embedding="
    )
