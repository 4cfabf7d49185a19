"""Scoring one RAG setup on a dataset (SPEC section 7): retrieval precision and recall, correctness and
faithfulness by the judge, abstention on the simulated unanswerable variant (given only non-relevant
contexts), and abstention on generated unanswerable questions (with the setup's own retriever).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from graph.config.settings import Settings
from graph.evaluation.answering.asking import Retrieval, ask_setup, history_of, retrieved_for
from graph.evaluation.answering.pipelines import Pipeline
from graph.evaluation.answering.rag import answer_from
from graph.evaluation.scoring.judging import abstains, judge, judged_contexts, labelled_contexts, not_in_contexts
from graph.evaluation.scoring.metrics import cosine, graded_correctness
from graph.evaluation.scoring.retrieval import (
    DocumentsAtHand,
    QuestionVectors,
    RetrievalScoring,
    retrieval_scoring,
    with_collection_documents,
)
from graph.evaluation.scoring.rows import EvalRow, empty_row
from graph.evaluation.setups import Setup
from graph.llm.gateway import LLMGateway
from graph.services import ServicesSpec, open_collection, open_gateway, open_services
from graph.store.embeddings import DeferredEmbeddings, embedding_keys
from nodes.steps.unanswerable import answering_chunks, unanswerable_messages
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.evidence import Passage
from state.languages import DEFAULT_LANGUAGE
from state.record import DatasetRecord
from state.schemas import (
    CorrectnessVerdict,
    FaithfulnessVerdict,
    UnanswerableVerdict,
)
from state.usage import Role

#: Samples evaluated at once per setup.
CONCURRENT_SAMPLES = 8


async def score_retrieval(setup: Setup, record: DatasetRecord, where: Retrieval, scoring: RetrievalScoring) -> EvalRow:
    """A retrieval-only row: what the setup retrieved, scored against the labelled contexts and the evidence; no
    model judges it. A generated unanswerable question has nothing to find: its row holds what was retrieved."""
    retrieved = await retrieved_for(setup, record, where)
    if not record.answerable:
        return empty_row(setup, record) | {"retrieved_ids": [c.get("id") for c in retrieved]}
    return empty_row(setup, record) | scoring.fields(record, retrieved, labelled_contexts(record))


async def evaluate_generated_unanswerable(
    setup: Setup, record: DatasetRecord, gateway: LLMGateway, where: Retrieval
) -> EvalRow:
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
) -> EvalRow:
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
        shown_only = [Passage(id=i, text=record.context(i).text) for i in variant.contexts]
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
) -> list[EvalRow]:
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
    async with open_services(
        ServicesSpec(collection, models=models, with_database=False, random_seed=seed)
    ) as services:
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
) -> list[EvalRow]:
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


async def _each(records: list[DatasetRecord], score: Callable[[DatasetRecord], Awaitable[EvalRow]]) -> list[EvalRow]:
    """Every record's row, `CONCURRENT_SAMPLES` at a time; the first alone, so that a setup that answers in a
    shape triad cannot read says so after one call, not eight."""
    gate = asyncio.Semaphore(CONCURRENT_SAMPLES)

    async def one(record: DatasetRecord) -> EvalRow:
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
) -> list[EvalRow]:
    return await _each(
        records, lambda record: evaluate_sample(setup, record, gateway, where, judge_unlabelled, embeddings, scoring)
    )
