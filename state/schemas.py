"""Pydantic schemas of every model output. Field descriptions reach the model as the JSON schema."""

from __future__ import annotations

from pydantic import BaseModel, Field


class ChunkEntities(BaseModel):
    """Candidate bridging entities found in one chunk."""

    chunk: str = Field(description="The chunk's label, e.g. C1.")
    entities: list[str] = Field(
        default_factory=list, description="Named entities or concepts exactly as written in the chunk."
    )


class BridgeProposal(BaseModel):
    """The bridge proposer's answer: a topic shared by several chunks, and entities per chunk."""

    topic: str = Field(description="The shared entity or concept; empty when no topic links enough chunks.")
    chunks: list[str] = Field(default_factory=list, description="Labels of the chunks that mention the topic.")
    entities: list[ChunkEntities] = Field(default_factory=list, description="Candidate bridging entities per chunk.")


class HiddenEntity(BaseModel):
    """An intermediate entity of a composition chain: found through one chunk, never named in the question."""

    entity: str = Field(description="The intermediate entity, as the chunk writes it.")
    chunk: str = Field(description="The label of the chunk that identifies it, e.g. A.")


class Quote(BaseModel):
    """A sentence (or a few) of one supporting chunk that the answer needs, copied from it."""

    chunk: str = Field(description="The label of the chunk it is copied from, e.g. A.")
    quote: str = Field(
        description="The sentence(s) of that chunk the answer needs, copied word for word, whole enough to name "
        'what they are about ("It defaults to 60 s" alone names nothing: copy the sentence that names it too).'
    )


class QuestionDraft(BaseModel):
    """The plan first, then the question, its answer, and the facts of its construction that later checks rely on.

    Every field is required (the lists may be empty), and the plan comes first: a model without hidden
    reasoning still works out which fact each chunk gives before it writes the question.
    """

    plan: str = Field(description="Before the question: the facts it rests on, as the request's question type asks.")
    question: str = Field(description="One self-contained question sentence.")
    answer: str = Field(description="The short factual answer.")
    evidence: list[Quote] = Field(
        description="The evidence: for each supporting chunk, the sentence(s) of it that the answer needs, copied "
        "word for word, one entry per chunk at least."
    )
    compared_entities: list[str] = Field(
        description="Comparison: the entities compared, one per chunk, written as the question names them; "
        "empty for the other types.",
    )
    hidden_entities: list[HiddenEntity] = Field(
        description="Composition: each intermediate entity of the chain (one for two chunks), never named in the "
        "question, with the chunk that identifies it; empty for the other types.",
    )


class QualityVerdict(BaseModel):
    """The quality judge's verdict: reasoning first (required), then one boolean per dimension."""

    reasoning: str = Field(
        description="Step by step: what the question asks for, each quality criterion, the pieces of information "
        "and the chunk holding each, the possible readings and answers.",
    )
    asks_for: list[str] = Field(
        description="Each thing the question asks for, one entry per answer it wants: one entry for one question, "
        'two for "Which setting controls X, and what is its default?".'
    )
    quality: bool = Field(
        description="All of criteria A-F: correct; answerable from the chunks alone (comparing or intersecting "
        "stated values is fine); clear standalone; every critical entity named or pinned down through the "
        "anchor; the reference answer exactly what the chunks give; written in the language asked for."
    )
    multi_hop: bool = Field(
        description="It asks one thing, and every supporting chunk is needed for that one answer; no smaller set "
        "of them answers it, and it is not two questions each answered by its own chunk."
    )
    unambiguous: bool = Field(description="One interpretation, and the chunks support exactly one answer.")
    accepted: bool = Field(
        description="True only when asks_for has one entry and quality, multi_hop and unambiguous all hold."
    )
    reason: str = Field(description="Each failed dimension with a concrete suggestion to fix it; empty when accepted.")


class SingleHopVerdict(BaseModel):
    """The quality judge's verdict on a single-hop question: reasoning first, then one boolean per dimension."""

    reasoning: str = Field(
        description="Step by step: what the question asks for, each quality criterion, the statement of the chunk "
        "that answers it, the possible readings and answers.",
    )
    asks_for: list[str] = Field(
        description="Each thing the question asks for, one entry per answer it wants: one entry for one question."
    )
    quality: bool = Field(
        description="Criteria A-F: correct (A), answerable from the chunk alone (B), clear standalone (C), every "
        "critical entity named or pinned down through a named anchor (D), the reference answer exactly what the "
        "chunk gives (E), written in the language asked for (F)."
    )
    unambiguous: bool = Field(description="One interpretation, and exactly one answer in the chunk.")
    accepted: bool = Field(description="True only when asks_for has one entry and quality and unambiguous both hold.")
    reason: str = Field(description="Each failed dimension with a concrete suggestion to fix it; empty when accepted.")


class SufficiencyVerdict(BaseModel):
    """Whether the given text alone answers the question: reasoning first (required), then the verdict."""

    reasoning: str = Field(
        description="Each piece of information the question needs, and whether the text states it explicitly.",
    )
    sufficient: bool = Field(
        description="True only when the text alone states every needed fact and relation and yields the answer."
    )
    reason: str = Field(description="The missing fact or relation, or what makes the text enough.")


class TemporalLabel(BaseModel):
    """Whether answering needs reasoning over time."""

    temporal: bool = Field(description="True when the question needs dates, order, durations or time spans.")
    reason: str = Field(default="", description="One short sentence.")


class RelevanceVerdict(BaseModel):
    """Whether a candidate context states a fact the answer needs."""

    relevant: bool = Field(description="True when the candidate states a fact the answer needs.")
    reason: str = Field(default="", description="One short sentence.")


class BatchRelevanceItem(BaseModel):
    """One candidate's label inside a batched relevance answer."""

    candidate: str = Field(description="The candidate's label, e.g. X1.")
    relevant: bool


class BatchRelevanceVerdict(BaseModel):
    """Labels for every candidate in one call."""

    labels: list[BatchRelevanceItem]


class CandidateAnswer(BaseModel):
    """What one candidate alone gives towards the answer (indirect relevance labelling)."""

    answerable: bool = Field(description="True when the text states a fact that answering the question needs.")
    answer: str = Field(default="", description="The facts the text gives towards the answer, in a few words.")


class RagAnswer(BaseModel):
    """The answer of the built-in RAG setup."""

    answer: str = Field(
        description="The short answer, in the question's language; when the contexts lack it, the words for \"I don't "
        "know\" in the question's language and nothing else."
    )


class CorrectnessVerdict(BaseModel):
    """The candidate's statements against the reference's (as RAGAS's answer_correctness classifies them),
    then whether the candidate is correct."""

    true_positive: list[str] = Field(
        description="Statements of the candidate answer that the reference answer also makes (or directly implies)."
    )
    false_positive: list[str] = Field(
        description="Statements of the candidate answer that the reference answer does not make."
    )
    false_negative: list[str] = Field(
        description="Statements of the reference answer that the candidate answer leaves out."
    )
    correct: bool = Field(
        description="True when the answer gives the same facts as the reference, without contradiction."
    )
    reason: str = Field(default="", description="One short sentence.")


class FaithfulnessVerdict(BaseModel):
    """Whether every claim of an answer is supported by the contexts it was given."""

    faithful: bool = Field(description="True when the contexts support every claim of the answer.")
    reason: str = Field(default="", description="One short sentence.")


class AbstentionVerdict(BaseModel):
    """Whether an answer declines to answer."""

    abstained: bool = Field(description="True when the answer declines or says the information is missing.")


class UnanswerableDraft(BaseModel):
    """A plausible question about the collection's domain that the collection does not answer."""

    question: str = Field(description="One self-contained question sentence naming real entities of the chunks.")
    kind: str = Field(
        description='"missing_attribute" (asks for a fact the chunks never state about a real entity) or '
        '"false_premise" (assumes something about real entities that the chunks never say).'
    )
    missing: str = Field(description="What the question needs that the chunks do not state, in one short sentence.")


class UnanswerableVerdict(BaseModel):
    """Whether a question is a fair unanswerable question, judged against the chunks a retriever returned for it;
    reasoning first (required)."""

    reasoning: str = Field(
        description="What the question asks for, then for each retrieved chunk whether it states it or settles it.",
    )
    plausible: bool = Field(
        description="A real user of this collection could ask it: meaningful, clear without the chunks, every "
        "entity named explicitly, in the collection's domain."
    )
    answered_by: list[str] = Field(
        description="Labels of the retrieved chunks that answer the question or settle it (e.g. by stating that "
        "its premise is false), alone or together; empty when none does.",
    )
    answerable: bool = Field(description="True when the retrieved chunks, alone or together, answer or settle it.")
    accepted: bool = Field(description="True only when plausible holds and the retrieved chunks do not answer it.")
    reason: str = Field(description="What fails and how to fix it; empty when accepted.")


class RestyledQuestion(BaseModel):
    """The accepted question rewritten in a query style; what changed is written first."""

    changes: str = Field(description="In one sentence: what the rewrite changes and what it keeps.")
    first_turn: str = Field(
        default="", description="Follow-up style only: the user's opening message naming the entity; else empty."
    )
    assistant_turn: str = Field(
        default="", description="Follow-up style only: the assistant's short acknowledgement, no fact; else empty."
    )
    question: str = Field(description="The rewritten question, as a user of this style types it.")


class RestyleVerdict(BaseModel):
    """Whether a restyled question keeps the original's meaning; reasoning first (required)."""

    reasoning: str = Field(
        description="What each question asks, which words changed, and whether a change alters the request, the "
        "answer or the chunks needed."
    )
    same_request: bool = Field(description="The rewrite asks for exactly what the original asks for.")
    same_answer: bool = Field(
        description="The reference answer answers the rewrite correctly and completely, and the rewrite does not "
        "give it away."
    )
    same_sources: bool = Field(description="Answering the rewrite needs the same supporting chunks as the original.")
    in_style: bool = Field(description="The rewrite reads as the style asks and is not a copy of the original.")
    accepted: bool = Field(description="True only when same_request, same_answer, same_sources and in_style hold.")
    reason: str = Field(description="What changed the meaning and how to fix it; empty when accepted.")


class PersonaDraft(BaseModel):
    name: str = Field(description="One or two lower-case words naming the kind of asker.")
    description: str = Field(description="One sentence, starting with an article: who they are and what they ask.")


class PersonaSet(BaseModel):
    """The kinds of people who ask a collection's questions (`--personas auto`); reasoning first (required)."""

    reasoning: str = Field(description="What the collection covers and who would need it.")
    personas: list[PersonaDraft] = Field(description="Three to five kinds of askers.")


class PreflightReply(BaseModel):
    """A model server's answer to the preflight's small structured request (`graph.preflight`)."""

    ready: bool = Field(description="True.")
    word: str = Field(description="The word asked for.")
