"""Scoring one RAG setup on a dataset (SPEC section 7): retrieval precision and recall, correctness and
faithfulness by the judge, abstention on the simulated unanswerable variant (given only non-relevant
contexts), and abstention on generated unanswerable questions (with the setup's own retriever).
"""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph

from graph.config.errors import UserError
from graph.config.settings import Settings
from graph.evaluation.evidence import EVIDENCE_METRICS
from graph.evaluation.metrics import cosine, graded_correctness, says_abstain
from graph.evaluation.pipeline_output import as_context
from graph.evaluation.pipelines import Pipeline
from graph.evaluation.retrieval import (
    DocumentsAtHand,
    QuestionVectors,
    RetrievalScoring,
    retrieval_scoring,
    with_collection_documents,
)
from graph.evaluation.setups import Setup
from graph.llm.gateway import LLMGateway
from graph.services import open_collection, open_gateway, open_services
from graph.store.embeddings import DeferredEmbeddings, embedding_keys
from nodes.common import instructed, normalise_text
from nodes.extract import care_messages
from nodes.rag import RagContext, RagState, answer, answer_from, retrieve, retrieved_context
from nodes.unanswerable import answering_chunks, unanswerable_messages
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.languages import DEFAULT_LANGUAGE
from state.record import DatasetRecord
from state.schemas import (
    AbstentionVerdict,
    CorrectnessVerdict,
    FaithfulnessVerdict,
    RelevanceVerdict,
    UnanswerableVerdict,
)
from state.usage import Role

METRICS = (
    "precision",
    "recall",
    *EVIDENCE_METRICS,
    "correct",
    "correctness",
    "faithful",
    "abstained",
    "abstained_generated",
)
"""`precision`, `recall`: by chunk id, where the setup reads the run's own collection; the evidence metrics
(`graph.evaluation.evidence`) on any collection, for records that carry evidence; `correct`: the judge's verdict;
`correctness`: the graded score RAGAS calls answer_correctness (0 to 1); `abstained`: on the simulated variant of
answerable questions; `abstained_generated`: on generated unanswerable questions, the setup retrieving for
itself."""


GROUPS = ("answerable", "question_type", "binary", "language", "temporal", "difficulty", "query_style", "persona")


#: Where a setup's contexts come from: triad's `Corpus` (built-in setups), the team's retriever, chain or graph
#: (a `Pipeline`), or None (a service).
Retrieval = Any

#: Samples evaluated at once per setup.
CONCURRENT_SAMPLES = 8


def rag_graph() -> Any:
    """The built-in RAG setup: retrieve, then answer (or abstain)."""
    builder = StateGraph(RagState, context_schema=RagContext)
    builder.add_node("retrieve", retrieve)
    builder.add_node("answer", answer)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "answer")
    builder.add_edge("answer", END)
    return builder.compile(name="triad_rag")


def ask_service(url: str, question: str, history: list[dict[str, str]] | None = None) -> tuple[str, list[Any]]:
    """POST the question to an external RAG service; a follow-up's earlier turns go with it as `history`.

    Returns the answer and the contexts as the service gave them (`pipelines.as_context` reads each)."""
    sent = {"question": question} | ({"history": history} if history else {})
    request = urllib.request.Request(url, data=json.dumps(sent).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            body: Any = json.loads(reply.read())
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as error:
        raise UserError(f"the RAG service at {url} did not answer ({error}); check --setup url=") from None
    if not isinstance(body, dict):
        raise UserError(
            f'the RAG service at {url} answered {type(body).__name__}, not {{"answer", "contexts"}}; check --setup url='
        )
    return str(body.get("answer", "")), list(body.get("contexts") or [])


async def judge(gateway: LLMGateway, schema: Any, system: str, user: str, node: str) -> Any:
    messages = instructed(system, user)
    verdict, _ = await gateway.ask("validator", schema, messages, node=node)
    return verdict


def labelled_contexts(record: DatasetRecord) -> list[dict[str, Any]]:
    """The record's contexts as retrieval is scored against them: id, text and relevance."""
    return [{"id": c.id, "text": c.text, "relevant": c.relevant} for c in record.contexts]


def not_in_contexts(record: DatasetRecord, retrieved: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The retrieved chunks the record's context list holds neither by id nor by normalised text."""
    ids = {c.id for c in record.contexts}
    texts = {normalise_text(c.text) for c in record.contexts}
    return [c for c in retrieved if c.get("id") not in ids and normalise_text(c["text"]) not in texts]


async def judged_contexts(
    gateway: LLMGateway, record: DatasetRecord, retrieved: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The record's labelled contexts plus CARE labels for retrieved chunks the list does not hold."""
    unknown = not_in_contexts(record, retrieved)
    supporting = delimit_all("chunk", ((chr(65 + i), c.text) for i, c in enumerate(record.supporting)))

    async def label(chunk: dict[str, Any]) -> dict[str, Any]:
        messages = care_messages(
            delimit("question", "Q", record.canonical_question),
            delimit("answer", "reference", record.answer),
            supporting,
            delimit("candidate", "X1", chunk["text"]),
        )
        verdict, _ = await gateway.ask("extractor", RelevanceVerdict, messages, node="judge_unlabelled")
        return {"id": chunk.get("id") or "", "text": chunk["text"], "relevant": verdict.relevant}

    return [*labelled_contexts(record), *await asyncio.gather(*(label(c) for c in unknown))]


def history_of(record: DatasetRecord) -> list[dict[str, str]]:
    """A follow-up record's turns before its question; none for the others."""
    return record.conversation()[:-1]


async def ask_setup(setup: Setup, record: DatasetRecord, gateway: LLMGateway, where: Retrieval) -> tuple[
    str, list[Any]
]:  # fmt: skip
    """The setup's answer and the contexts it retrieved for the record's question as asked (a follow-up with its
    conversation: triad's answerer reads it, a retriever the last turn; a service, chain or graph gets it whole)."""
    question, history = record.question, history_of(record)
    if setup.url:
        answer, contexts = await asyncio.to_thread(ask_service, setup.url, question, history)
        return answer, [as_context(setup, c) for c in contexts]
    if setup.kind in ("chain", "graph"):
        return await where.ask(question, history)
    if setup.kind == "retriever":
        retrieved = await where.retrieve(question)
        answer, _ = await answer_from(question, retrieved, gateway, history)
        return answer, retrieved
    asked = {"question": question, "history": history}
    state = await rag_graph().ainvoke(asked, context=RagContext(k=setup.k, corpus=where, llm=gateway))
    return state["answer"], state["contexts"]


async def retrieved_for(setup: Setup, record: DatasetRecord, where: Retrieval) -> list[Any]:
    """The contexts a setup retrieves for the record's question as asked, and nothing else of triad's: no
    answering model is asked (a service, chain or graph answers with its own, and its contexts are taken)."""
    question, history = record.question, history_of(record)
    if setup.url:
        _, contexts = await asyncio.to_thread(ask_service, setup.url, question, history)
        return [as_context(setup, c) for c in contexts]
    if setup.kind in ("chain", "graph"):
        _, retrieved = await where.ask(question, history)
        return retrieved
    if setup.kind == "retriever":
        return await where.retrieve(question)
    hits = await where.search(question, setup.k)
    return [retrieved_context(hit.chunk) for hit in hits]


async def score_retrieval(
    setup: Setup, record: DatasetRecord, where: Retrieval, scoring: RetrievalScoring
) -> dict[str, Any]:
    """A retrieval-only row: what the setup retrieved, scored against the labelled contexts and the evidence; no
    model judges it. A generated unanswerable question has nothing to find: its row holds what was retrieved."""
    retrieved = await retrieved_for(setup, record, where)
    if not record.answerable:
        return empty_row(setup, record) | {"retrieved_ids": [c.get("id") for c in retrieved]}
    return empty_row(setup, record) | scoring.fields(record, retrieved, labelled_contexts(record))


async def abstains(gateway: LLMGateway, answer: str) -> bool:
    """Whether an answer declines: a phrase check first, the judge for the rest."""
    if says_abstain(answer):
        return True
    asked = prompt.ABSTENTION_USER.format(candidate=delimit("answer", "candidate", answer))
    verdict = await judge(gateway, AbstentionVerdict, prompt.ABSTENTION_SYSTEM, asked, "judge_abstention")
    return bool(verdict.abstained)


def group_value(record: DatasetRecord, field: str) -> Any:
    """The record's value of a breakdown field (one of `GROUPS`)."""
    return getattr(record, field)


#: The metrics that are yes/no outcomes (their figures are shares); the others are numbers per record.
SHARE_METRICS = ("correct", "faithful", "abstained", "abstained_generated", "all_evidence_found", "hit@k")


def record_cluster(record: DatasetRecord) -> str:
    """The cluster a record's figures are drawn in: the document of its seed (its first supporting chunk's
    `source`, or its first fact's), or the record alone where neither says."""
    for chunk in record.supporting[:1]:
        source = chunk.metadata.get("source")
        if isinstance(source, str) and source:
            return source
    fact = next(iter(record.facts()), None)
    return (fact.location.source if fact is not None else None) or record.id


def empty_row(setup: Setup, record: DatasetRecord) -> dict[str, Any]:
    """A row's identity, groups and cluster, every metric unset."""
    return {
        "setup": setup.name,
        "sample_id": record.id,
        "cluster": record_cluster(record),
        **{field: group_value(record, field) for field in GROUPS},
        **dict.fromkeys(METRICS),
        "unanswerable_answer": None,
    }


async def evaluate_generated_unanswerable(
    setup: Setup, record: DatasetRecord, gateway: LLMGateway, where: Retrieval
) -> dict[str, Any]:
    """A generated unanswerable question: the setup retrieves and answers as it would for a user; it should abstain.

    The question was checked against the run's own retrieval. A setup that retrieves chunks that check
    never read (another collection, embedding or k) has them judged too: when one of them answers the
    question, an answer is no mistake, and the row leaves `abstained_generated` unset (`answered_by`
    names the chunks; `rechecked_ids` the chunks judged).
    """
    given, retrieved = await ask_setup(setup, record, gateway, where)
    row = empty_row(setup, record) | {"retrieved_ids": [c.get("id") for c in retrieved], "answer": given}
    unseen = not_in_contexts(record, retrieved)  # its contexts are the chunks the check read
    if unseen:
        language = record.language or DEFAULT_LANGUAGE
        messages = unanswerable_messages(record.canonical_question, [c["text"] for c in unseen], language)
        verdict, _ = await gateway.ask("validator", UnanswerableVerdict, messages, node="judge_unanswerable")
        answering = answering_chunks(verdict, [str(c.get("id") or "") for c in unseen])
        row["rechecked_ids"] = [c.get("id") for c in unseen]
        if verdict.answerable or answering:
            return row | {"answered_by": answering}
    return row | {"abstained_generated": await abstains(gateway, given)}


async def evaluate_sample(
    setup: Setup,
    record: DatasetRecord,
    gateway: LLMGateway,
    where: Retrieval,
    judge_unlabelled: bool,
    embeddings: Embeddings,
    scoring: RetrievalScoring,
) -> dict[str, Any]:
    """One row: retrieval scores (`scoring`), the judges' correctness (verdict and graded, the graded one's
    semantic part from `embeddings`, the run's model) and faithfulness, abstention on the unanswerable variant."""
    if not record.answerable:
        return await evaluate_generated_unanswerable(setup, record, gateway, where)
    given, retrieved = await ask_setup(setup, record, gateway, where)
    contexts = await judged_contexts(gateway, record, retrieved) if judge_unlabelled else labelled_contexts(record)
    # The judges read the question as validated: a follow-up's last turn alone does not say what it asks.
    question = delimit("question", "Q", record.canonical_question)
    reference = delimit("answer", "reference", record.answer)
    candidate = delimit("answer", "candidate", given)
    asked = prompt.CORRECTNESS_USER.format(question=question, reference=reference, candidate=candidate)
    correct = await judge(gateway, CorrectnessVerdict, prompt.CORRECTNESS_SYSTEM, asked, "judge_correctness")
    vectors = await asyncio.to_thread(embeddings.embed_documents, [given, record.answer])
    counts = (len(correct.true_positive), len(correct.false_positive), len(correct.false_negative))
    shown = delimit_all("chunk", ((str(i), c["text"]) for i, c in enumerate(retrieved, start=1)))
    faithful = await judge(
        gateway, FaithfulnessVerdict, prompt.FAITHFULNESS_SYSTEM,
        prompt.FAITHFULNESS_USER.format(contexts=shown, question=question, candidate=candidate), "judge_faithfulness",
    )  # fmt: skip
    row = (
        empty_row(setup, record)
        | scoring.fields(record, retrieved, contexts)
        | {
            "answer": given,
            "correct": correct.correct,
            "correctness": round(graded_correctness(*counts, cosine(*vectors)), 4),
            "faithful": faithful.faithful,
        }
    )
    variant = record.unanswerable
    if variant is not None and not setup.answers_for_itself:
        shown_only = [{"text": record.context(i).text} for i in variant.contexts]
        reply, _ = await answer_from(record.question, shown_only, gateway, history_of(record))
        row |= {"unanswerable_answer": reply, "abstained": await abstains(gateway, reply)}
    return row


async def evaluate_setup(
    setup: Setup,
    records: list[DatasetRecord],
    settings: Settings,
    judge_unlabelled: bool,
    pipeline: Pipeline | None = None,
    retrieval_only: bool = False,
    at_hand: DocumentsAtHand | None = None,
    vectors: QuestionVectors | None = None,
    seed: int | None = None,
) -> list[dict[str, Any]]:
    """One row per record for one setup, `CONCURRENT_SAMPLES` records at a time; `pipeline` is the object a
    retriever, chain or graph setup names (`pipelines.load_pipeline`). `retrieval_only` scores what the setup
    retrieves and asks no chat model of triad's: no gateway is opened. `at_hand` says what evidence is placed
    in besides offsets (`DocumentsAtHand`). `vectors` holds the questions' embeddings across setups (a sweep over
    k embeds each question once); `seed` seeds the gateway's retry waits."""
    at_hand = at_hand or DocumentsAtHand()
    vectors = vectors or QuestionVectors()
    scoring = retrieval_scoring(setup, settings, at_hand)
    if retrieval_only:
        return await _retrieval_only(setup, records, settings, pipeline, scoring, at_hand.from_collection, vectors)
    # A service, chain or graph answers for itself; the generator role is then never asked.
    answering = settings.model_for("validator") if setup.answers_for_itself else setup.model
    models: dict[Role, str | BaseChatModel] = {"generator": answering}
    if setup.structured_output is not None:  # how the setup's own answering model is asked
        modes = {**settings.structured_output, "generator": setup.structured_output}
        settings = settings.model_copy(update={"structured_output": modes})
    embeddings = DeferredEmbeddings(settings.embedding, embedding_keys(settings))  # the run's own model
    if setup.kind != "builtin":  # no corpus of triad's is read: the gateway alone
        if pipeline is not None:
            await pipeline.ready()
        async with open_gateway(settings, None, models=models, random_seed=seed) as gateway:
            return await _score(setup, records, gateway, pipeline, judge_unlabelled, embeddings, scoring)
    collection = settings.model_copy(
        update={"collection": setup.collection or "", "embedding": setup.embedding or settings.embedding}
    )
    async with open_services(collection, models=models, with_database=False, random_seed=seed) as services:
        vectors.serve(services.corpus, collection.embedding)
        scoring = await with_collection_documents(scoring, services.corpus, at_hand.from_collection)
        return await _score(setup, records, services.gateway, services.corpus, judge_unlabelled, embeddings, scoring)


async def _retrieval_only(
    setup: Setup,
    records: list[DatasetRecord],
    settings: Settings,
    pipeline: Pipeline | None,
    scoring: RetrievalScoring,
    documents_from_collection: bool,
    vectors: QuestionVectors,
) -> list[dict[str, Any]]:
    if setup.kind != "builtin":
        if pipeline is not None:
            await pipeline.ready()
        return await _each(records, lambda record: score_retrieval(setup, record, pipeline, scoring))
    collection = settings.model_copy(
        update={"collection": setup.collection or "", "embedding": setup.embedding or settings.embedding}
    )
    async with open_collection(collection) as corpus:
        vectors.serve(corpus, collection.embedding)
        scoring = await with_collection_documents(scoring, corpus, documents_from_collection)
        return await _each(records, lambda record: score_retrieval(setup, record, corpus, scoring))


async def _each(
    records: list[DatasetRecord], score: Callable[[DatasetRecord], Awaitable[dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Every record's row, `CONCURRENT_SAMPLES` at a time; the first alone, so that a setup that answers in a
    shape triad cannot read says so after one call, not eight."""
    gate = asyncio.Semaphore(CONCURRENT_SAMPLES)

    async def one(record: DatasetRecord) -> dict[str, Any]:
        async with gate:
            return await score(record)

    if not records:
        return []
    first = await one(records[0])
    return [first, *await asyncio.gather(*(one(r) for r in records[1:]))]


async def _score(
    setup: Setup,
    records: list[DatasetRecord],
    gateway: LLMGateway,
    where: Retrieval,
    judge_unlabelled: bool,
    embeddings: Embeddings,
    scoring: RetrievalScoring,
) -> list[dict[str, Any]]:
    return await _each(
        records, lambda record: evaluate_sample(setup, record, gateway, where, judge_unlabelled, embeddings, scoring)
    )
