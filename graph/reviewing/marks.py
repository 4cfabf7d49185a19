"""How a review page marks a chunk's text: the bridge topic, the answer and the quotes the answer rests on; and
the list of those quotes, each with the field a reviewer corrects it in. Text is escaped before it is marked, so a
chunk holding markup shows as text."""

from __future__ import annotations

import re

from graph.reviewing.labels import Labels, SavedLabels
from graph.reviewing.quotes import quote_votes
from graph.webpage import esc
from nodes.common import letter_labels
from state.languages import DEFAULT_LANGUAGE, polarity
from state.record import DatasetRecord


def marked(text: str, bridge: str, answer: str, language: str = DEFAULT_LANGUAGE) -> str:
    """`text` escaped, with the bridge topic and the answer marked (whole words, any case); a yes/no answer
    ("Yes", "Ja", "Oui") is no phrase of the text and is not marked."""
    html = esc(text)
    for term, kind in ((bridge, "bridge"), (answer, "answer")):
        if not term or len(term) < 2 or (kind == "answer" and polarity(term, language) is not None):
            continue
        pattern = re.compile(rf"(?<!\w)({re.escape(esc(term))})(?!\w)", re.IGNORECASE)
        html = pattern.sub(rf'<mark class="{kind}">\1</mark>', html)
    return html


def quoted_html(text: str, spans: list[tuple[int, int]], bridge: str, answer: str, language: str) -> str:
    """`text` escaped and marked as `marked` marks it, each span of `spans` (a quote's place) marked as evidence."""
    pieces, at = [], 0
    for start, end in sorted(spans):
        start = max(start, at)
        if end <= start:
            continue
        pieces.append(marked(text[at:start], bridge, answer, language))
        pieces.append(f'<mark class="quote">{marked(text[start:end], bridge, answer, language)}</mark>')
        at = end
    pieces.append(marked(text[at:], bridge, answer, language))
    return "".join(pieces)


def evidence_list(
    record: DatasetRecord, fixes: dict[str, dict[str, str]], others: list[SavedLabels], saved: bool
) -> str:
    """The facts the answer needs, where each stands, and a field per quote for the reviewer's correction; the
    other reviewers' corrections beside it, and a tie among them said."""
    labels = dict(zip((c.id for c in record.supporting), letter_labels(len(record.supporting)), strict=True))
    mine = [Labels(evidence=fixes)] if saved else []  # a reviewer who has saved nothing casts no vote
    votes = {(v.chunk_id, v.original): v for v in quote_votes(record, [*mine, *(o["labels"] for o in others)])}
    items = []
    for chunk in record.supporting:
        for fact in chunk.evidence:
            place = fact.location
            where_ = f"chunk {labels[chunk.id]}"
            if place.source:
                where_ += f" · {place.source}"
            if place.document_start is not None:
                where_ += f", characters {place.document_start}-{place.document_end}"
            shown = fixes.get(chunk.id, {}).get(fact.quote, fact.quote)
            theirs = [
                f"{esc(r['reviewer'])}: {esc(fixed)}"
                for r in others
                if (fixed := ((r["labels"].get("evidence") or {}).get(chunk.id) or {}).get(fact.quote)) is not None
            ]
            vote = votes.get((chunk.id, fact.quote))
            items.append(
                f"<li><span class=meta>{esc(where_)}"
                + (f" · also in {len(fact.also_in)} other context(s)" if fact.also_in else "")
                + "</span>"
                f'<input class="quote" type="text" data-chunk-id="{esc(chunk.id)}" data-quote="{esc(fact.quote)}"'
                f' value="{esc(shown)}" aria-label="quote of chunk {labels[chunk.id]}">'
                + (f"<div class=meta>other reviewers: {'; '.join(theirs)}</div>" if theirs else "")
                + ("<div class=tie>reviewers disagree without a majority: the record's quote is kept</div>"
                   if vote is not None and vote.tie else "")
                + "</li>"
            )  # fmt: skip
    return (
        "<h2>Evidence</h2><p class=meta>the facts the answer needs, each a quote of its supporting chunk (marked in "
        "it); correct a quote by copying the right sentence of the chunk</p>"
        f"<ol class=facts>{''.join(items)}</ol>"
    )
