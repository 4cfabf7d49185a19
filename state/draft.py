"""A draft as the generator writes it: the question and answer, how it says it built them (`Construction`, its
`HiddenEntity`s), and the sentences it quotes as the evidence (`QuoteRef`)."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict


class HiddenEntity(TypedDict):
    """An intermediate entity of a composition chain, which the question must not name."""

    entity: str
    chunk_id: str
    """The supporting chunk that identifies it ("" when the generator named no known chunk)."""


class QuoteRef(TypedDict):
    """A sentence of a supporting chunk that a draft's answer needs, as the generator copied it."""

    chunk_id: str
    """The supporting chunk it is copied from ("" when the generator named no known chunk)."""
    quote: str


class Construction(TypedDict):
    """What the generator declares about how it built a question; lint checks the draft against it.

    Empty lists mean the generator did not declare that fact (for example a model that fills only
    the question and the answer); the checks that need it are then skipped.
    """

    compared_entities: list[str]
    """Comparison: the entities compared, one per supporting chunk, as the question names them."""
    hidden_entities: list[HiddenEntity]
    """Composition: the intermediate entities of the chain, in order."""
    unanswerable_kind: NotRequired[str]
    """Generated unanswerable: `missing_attribute` or `false_premise`."""
    missing: NotRequired[str]
    """Generated unanswerable: what the question asks for that the collection never states."""


class Draft(TypedDict):
    """A question and answer as written by generate_question or revise_question."""

    question: str
    answer: str
    """As written; a yes/no answer is normalised to the language's own word ("Yes", "Ja", "Oui")."""
    origin: Literal["generate", "revise"]
    revision: int
    """0 for the first draft, then 1, 2, ... per revision."""
    construction: NotRequired[Construction]
    """The generator's own account of the draft's construction."""
    plan: NotRequired[str]
    """The generator's plan, written before the question: which fact it took from which chunk."""
    evidence: NotRequired[list[QuoteRef]]
    """The sentences of the supporting chunks the answer needs, as the generator copied them; absent from a draft
    written before drafts carried evidence (lint then asks for none)."""
    answer_note: NotRequired[str]
    """What followed the yes/no word of a binary answer ("Yes, because 1962 is earlier" keeps "because 1962 is
    earlier" here and "Yes" as the answer)."""
