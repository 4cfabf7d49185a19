"""The evidence rule of lint: a draft's quotes held to its supporting chunks, word for word (`state.evidence`
says how the characters are folded)."""

from __future__ import annotations

from collections.abc import Sequence

from nodes.common import letter_labels
from nodes.lint.rules import Finding
from state.draft import Draft
from state.evidence import locate


def evidence_problems(draft: Draft, supporting: Sequence[tuple[str, str]]) -> list[Finding]:
    """The draft's quotes against its supporting chunks: every chunk quoted, every quote standing in its chunk word
    for word (white space and quote marks folded). A draft written before drafts carried evidence has none to hold."""
    if "evidence" not in draft or not supporting:
        return []
    quotes = draft["evidence"]
    labels = dict(zip((chunk_id for chunk_id, _ in supporting), letter_labels(len(supporting)), strict=True))
    problems: list[Finding] = []
    for chunk_id, text in supporting:
        label = labels[chunk_id]
        mine = [quote["quote"] for quote in quotes if quote["chunk_id"] == chunk_id]
        if not mine:
            problems.append(
                ("evidence", f"the evidence quotes nothing of chunk {label}; copy the sentence(s) of chunk {label} "
                 "that the answer needs, word for word")
            )  # fmt: skip
        problems += [
            ("evidence", f"the quote {_shortened(quote)!r} is not in chunk {label} word for word; copy the sentence "
             f"from chunk {label} as it stands")
            for quote in mine
            if locate(quote, text) is None
        ]  # fmt: skip
    if any(quote["chunk_id"] not in labels for quote in quotes):
        problems.append(("evidence", "a quote names no supporting chunk; label each quote with its chunk (A, B, ...)"))
    return problems


def _shortened(quote: str, words: int = 12) -> str:
    parts = quote.split()
    return " ".join(parts[:words]) + (" ..." if len(parts) > words else "")
