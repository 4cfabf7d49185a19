"""Evaluate RAG setups on a generated dataset (SPEC section 7).

    python -m graph.evaluate RUN_ID --setup k5=k=5 --setup k3=k=3
    python -m graph.evaluate runs/RUN_ID/dataset.jsonl \
        --setup base=collection=docs,embedding=minilm,k=5,model=google_genai:gemini-2.5-flash-lite
    python -m graph.evaluate RUN_ID --setup mine=url=http://localhost:8080/rag

A setup is `NAME=key=value,...` with `collection`, `embedding`, `k` (default 5) and `model` (the
answering model, default gemini-2.5-flash-lite), or `url` of an external RAG service that answers
POST {"question"} with {"answer", "contexts": [{"id"?, "text"}]}. Collection and embedding default
to the run's. Per sample: context precision and recall (by chunk id, normalised text as fallback),
answer correctness and faithfulness (validator model), and on the unanswerable variant whether the
setup abstains (a phrase check first, the judge for the rest). Rows go to eval.jsonl beside the
dataset, cached per (setup, sample): adding a setup pays only for the new one. Means by question
type, binary, temporal and difficulty go to eval-summary.json and eval-report.html.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from langgraph.graph import END, START, StateGraph

from graph.cli import add_database_options, command_parser, run_async, settings_from_args
from graph.corpus import Corpus
from graph.db import check_connection, database_url
from graph.embeddings import load_embeddings
from graph.errors import UserError, exit_on_user_error, writing
from graph.export import read_dataset
from graph.llm import LLMGateway, build_gateway
from graph.logs import configure_logging
from graph.metrics import grouped_means, normalise, retrieval_scores, says_abstain
from graph.models import ModelSpec, resolve_role_model
from graph.outputs import write_atomically, write_jsonl
from graph.report import bar_chart, esc, table
from graph.settings import DEFAULT_MODELS, Settings
from nodes.common import instructed
from nodes.extract import care_messages
from nodes.rag import RagContext, RagState, answer, answer_from, retrieve
from prompts import delimit, delimit_all
from prompts import evaluate as prompt
from state.schemas import AbstentionVerdict, CorrectnessVerdict, FaithfulnessVerdict, RelevanceVerdict

METRICS = ("precision", "recall", "correct", "faithful", "abstained")
GROUPS = ("question_type", "binary", "temporal", "difficulty")
#: Samples evaluated at once per setup.
CONCURRENT_SAMPLES = 8


@dataclass(frozen=True)
class Setup:
    """One RAG setup under evaluation."""

    name: str
    collection: str | None = None
    embedding: str | None = None
    k: int = 5
    model: str = DEFAULT_MODELS["extractor"]
    url: str | None = None

    def signature(self, judge: str, judge_unlabelled: bool) -> str:
        """What the cached rows of this setup depend on."""
        payload = json.dumps({**asdict(self), "judge": judge, "judge_unlabelled": judge_unlabelled}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def parse_setup(text: str, collection: str | None, embedding: str | None) -> Setup:
    name, separator, spec = text.partition("=")
    if not separator or not name:
        raise UserError(f"--setup takes NAME=key=value,..., not {text!r}")
    fields: dict[str, Any] = {"collection": collection, "embedding": embedding}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, separator, value = part.partition("=")
        if not separator or key not in ("collection", "embedding", "k", "model", "url"):
            raise UserError(f"--setup {name}: {part!r} is not one of collection=, embedding=, k=, model=, url=")
        fields[key] = value
    try:
        fields["k"] = int(fields.get("k", 5))
    except ValueError:
        raise UserError(f"--setup {name}: k must be a whole number") from None
    if fields["k"] <= 0:
        raise UserError(f"--setup {name}: k must be positive")
    setup = Setup(name=name, **fields)
    if setup.url is not None and urllib.parse.urlsplit(setup.url).scheme not in ("http", "https"):
        raise UserError(f"--setup {name}: url= takes an http:// or https:// address, not {setup.url!r}")
    if setup.url is None and not setup.collection:
        raise UserError(f"--setup {name}: give collection= (the run's could not be found) or url=")
    return setup


def check_answering_model(setup: Setup, settings: Settings) -> None:
    """A setup's `model=` that cannot be used fails before any setup runs, naming the setup.

    The model is built as the run will build it (a malformed spec, a missing key, a missing provider
    package, a bad `import:` target all fail here). The fix is the setup's `model=`, not `--llm`
    (which sets the judge), so the line names the setup.
    """
    if setup.url:  # the service answers for itself
        return
    try:
        if ModelSpec.parse(setup.model).provider == "google_genai" and not settings.google_api_key:
            raise UserError(
                f"its answering model {setup.model} needs a Gemini API key: set GOOGLE_API_KEY, or give the setup "
                "another model, e.g. model=openai:MODEL with --llm-base-url"
            )
        resolve_role_model(
            "generator",
            setup.model,
            base_url=settings.llm_base_url,
            google_api_key=settings.google_api_key.get_secret_value() if settings.google_api_key else None,
            openai_api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else None,
        )
    except UserError as error:
        raise UserError(f"--setup {setup.name}: {error}") from None


def rag_graph() -> Any:
    """The built-in RAG setup: retrieve, then answer (or abstain)."""
    builder = StateGraph(RagState, context_schema=RagContext)
    builder.add_node("retrieve", retrieve)
    builder.add_node("answer", answer)
    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "answer")
    builder.add_edge("answer", END)
    return builder.compile(name="triad_rag")


def ask_service(url: str, question: str) -> tuple[str, list[dict[str, Any]]]:
    """POST the question to an external RAG service."""
    request = urllib.request.Request(
        url, data=json.dumps({"question": question}).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            body = json.loads(reply.read())
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as error:
        raise UserError(f"the RAG service at {url} did not answer ({error}); check --setup url=") from None
    contexts = [{"id": c.get("id"), "text": c.get("text", "")} for c in body.get("contexts", [])]
    return str(body.get("answer", "")), contexts


async def judge(gateway: LLMGateway, schema: Any, system: str, user: str, node: str) -> Any:
    messages = instructed(system, user)
    verdict, _ = await gateway.ask("validator", schema, messages, node=node)
    return verdict


async def judged_contexts(
    gateway: LLMGateway, record: dict[str, Any], retrieved: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The record's labelled contexts plus CARE labels for retrieved chunks the list does not hold."""
    labelled_ids = {c["id"] for c in record["contexts"]}
    labelled_texts = {normalise(c["text"]) for c in record["contexts"]}
    unknown = [c for c in retrieved if c.get("id") not in labelled_ids and normalise(c["text"]) not in labelled_texts]
    supporting = delimit_all("chunk", ((chr(65 + i), c["text"]) for i, c in enumerate(record["supporting"])))

    async def label(chunk: dict[str, Any]) -> dict[str, Any]:
        messages = care_messages(
            delimit("question", "Q", record["question"]),
            delimit("answer", "reference", record["answer"]),
            supporting,
            delimit("candidate", "X1", chunk["text"]),
        )
        verdict, _ = await gateway.ask("extractor", RelevanceVerdict, messages, node="judge_unlabelled")
        return {"id": chunk.get("id") or "", "text": chunk["text"], "relevant": verdict.relevant}

    return [*record["contexts"], *await asyncio.gather(*(label(c) for c in unknown))]


async def evaluate_sample(
    setup: Setup, record: dict[str, Any], gateway: LLMGateway, corpus: Corpus | None, judge_unlabelled: bool
) -> dict[str, Any]:
    if setup.url:
        given, retrieved = await asyncio.to_thread(ask_service, setup.url, record["question"])
    else:
        state = await rag_graph().ainvoke(
            {"question": record["question"]}, context=RagContext(k=setup.k, corpus=corpus, llm=gateway)
        )
        given, retrieved = state["answer"], state["contexts"]
    contexts = await judged_contexts(gateway, record, retrieved) if judge_unlabelled else record["contexts"]
    precision, recall = retrieval_scores(retrieved, contexts)
    question, reference = delimit("question", "Q", record["question"]), delimit("answer", "reference", record["answer"])
    candidate = delimit("answer", "candidate", given)
    asked = prompt.CORRECTNESS_USER.format(question=question, reference=reference, candidate=candidate)
    correct = await judge(gateway, CorrectnessVerdict, prompt.CORRECTNESS_SYSTEM, asked, "judge_correctness")
    shown = delimit_all("chunk", ((str(i), c["text"]) for i, c in enumerate(retrieved, start=1)))
    faithful = await judge(
        gateway, FaithfulnessVerdict, prompt.FAITHFULNESS_SYSTEM,
        prompt.FAITHFULNESS_USER.format(contexts=shown, candidate=candidate), "judge_faithfulness",
    )  # fmt: skip
    row = {
        "setup": setup.name,
        "sample_id": record["id"],
        **{field: record[field] for field in GROUPS},
        "retrieved_ids": [c.get("id") for c in retrieved],
        "precision": precision,
        "recall": recall,
        "answer": given,
        "correct": correct.correct,
        "faithful": faithful.faithful,
        "unanswerable_answer": None,
        "abstained": None,
    }
    variant = record["unanswerable"]
    if variant is not None and not setup.url:
        texts = {c["id"]: c["text"] for c in record["contexts"]}
        reply, _ = await answer_from(record["question"], [{"text": texts[i]} for i in variant["contexts"]], gateway)
        asked = prompt.ABSTENTION_USER.format(candidate=delimit("answer", "candidate", reply))
        abstained = (
            says_abstain(reply)
            or (await judge(gateway, AbstentionVerdict, prompt.ABSTENTION_SYSTEM, asked, "judge_abstention")).abstained
        )
        row |= {"unanswerable_answer": reply, "abstained": abstained}
    return row


async def evaluate_setup(
    setup: Setup, records: list[dict[str, Any]], settings: Settings, judge_unlabelled: bool
) -> list[dict[str, Any]]:
    # An external service answers for itself; the generator role is then never asked.
    answering = settings.model_for("validator") if setup.url else setup.model
    gateway = build_gateway(settings, models={"generator": answering})
    corpus = None
    if not setup.url:
        url = database_url(settings)
        check_connection(url)
        corpus = await Corpus.open(url, setup.collection or "", embeddings=load_embeddings(setup.embedding or "minilm"))
    gate = asyncio.Semaphore(CONCURRENT_SAMPLES)

    async def one(record: dict[str, Any]) -> dict[str, Any]:
        async with gate:
            return await evaluate_sample(setup, record, gateway, corpus, judge_unlabelled)

    try:
        return list(await asyncio.gather(*(one(r) for r in records)))
    finally:
        if corpus is not None:
            await corpus.close()


def summary_table(summaries: dict[str, Any]) -> str:
    header = f"{'setup':<16}{'n':>5}" + "".join(f"{m:>12}" for m in METRICS)
    lines = [header]
    for name, summary in summaries.items():
        overall = summary["all"]
        cells = "".join(f"{overall[m]:>12.3f}" if overall[m] is not None else f"{'-':>12}" for m in METRICS)
        lines.append(f"{name:<16}{int(overall['n']):>5}{cells}")
    return "\n".join(lines)


def _mean(summaries: dict[str, Any], name: str, field: str, value: str, metric: str) -> float | None:
    return (summaries[name][field].get(value) or {}).get(metric)


def render_eval_report(summaries: dict[str, Any]) -> str:
    """One section per metric: bars grouped by group value, one bar per setup, and the differences."""
    names = list(summaries)
    groups = [(field, value) for field in GROUPS for value in summaries[names[0]][field]]
    parts = ["<h1>triad evaluation</h1>"]
    for metric in METRICS:
        bars = [(f"all / {name}", round(summaries[name]["all"][metric] or 0.0, 3)) for name in names]
        bars += [
            (f"{field}={value} / {name}", round(_mean(summaries, name, field, value, metric) or 0.0, 3))
            for field, value in groups
            for name in names
        ]
        rows = [
            [f"{field}={value}"] + [f"{_mean(summaries, n, field, value, metric) or 0:.3f}" for n in names]
            for field, value in groups
        ]
        parts.append(f'<section id="{metric}"><h2>{esc(metric)}</h2>{bar_chart(bars)}{table(["group", *names], rows)}')
        if len(names) > 1:
            base = summaries[names[0]]["all"][metric] or 0.0
            diffs = [[name, f"{(summaries[name]['all'][metric] or 0.0) - base:+.3f}"] for name in names[1:]]
            parts.append(table([f"difference to {names[0]}", metric], diffs))
        parts.append("</section>")
    head = '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>triad evaluation</title></head><body>'
    return head + "".join(parts) + "</body></html>"


def _parser() -> argparse.ArgumentParser:
    parser = command_parser("graph.evaluate", __doc__)
    parser.add_argument("dataset", help="a run id (its folder under --runs-dir) or a path to a dataset.jsonl")
    parser.add_argument("--setup", action="append", required=True, metavar="NAME=SPEC", help="a RAG setup (repeatable)")
    parser.add_argument(
        "--judge-unlabelled", action="store_true", help="CARE-label retrieved chunks missing from the context list"
    )
    parser.add_argument("--llm", help="one model spec for the judge and the CARE labeller")
    parser.add_argument("--validator-model", help="the judge model (default: the paper's validator)")
    parser.add_argument("--extractor-model", help="the CARE labeller of --judge-unlabelled")
    parser.add_argument("--llm-base-url", help="base URL of an OpenAI-compatible server")
    parser.add_argument("--runs-dir", type=Path)
    add_database_options(parser)
    return parser


def run_settings(run_json: Path) -> dict[str, Any]:
    """The stored settings of the dataset's run (collection, embedding), or none when run.json is absent."""
    if not run_json.is_file():
        return {}
    try:
        return dict(json.loads(run_json.read_text(encoding="utf-8")).get("settings") or {})
    except (ValueError, AttributeError):
        raise UserError(
            f"{run_json} is not a run.json written by triad; restore it, or name collection= and embedding= in --setup"
        ) from None


def cached_rows(eval_path: Path) -> list[dict[str, Any]]:
    """Judgements of earlier evaluations of this dataset (eval.jsonl), reused when their setup is the same."""
    if not eval_path.is_file():
        return []
    rows = []
    for number, line in enumerate(eval_path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except ValueError:
            row = None
        if not isinstance(row, dict) or "signature" not in row or "sample_id" not in row:  # what it is looked up by
            raise UserError(
                f"line {number} of {eval_path} is not an earlier judgement; remove the file to evaluate afresh"
            )
        rows.append(row)
    return rows


#: The fix a failed write of the evaluation's files names.
MAKE_ROOM = "make room or fix the folder"


@exit_on_user_error
def main(argv: list[str] | None = None) -> None:
    args = _parser().parse_args(argv)
    configure_logging(level="warning")
    settings = settings_from_args(args)
    given = Path(args.dataset)
    dataset = given if given.suffix == ".jsonl" else settings.runs_dir / args.dataset / "dataset.jsonl"
    records = read_dataset(dataset)
    stored = run_settings(dataset.parent / "run.json")
    setups = [parse_setup(text, stored.get("collection"), stored.get("embedding")) for text in args.setup]
    for setup in setups:
        check_answering_model(setup, settings)
    judge_model = settings.model_for("validator")
    eval_path = dataset.parent / "eval.jsonl"
    rows = {(row["signature"], row["sample_id"]): row for row in cached_rows(eval_path)}
    summaries = {}
    for setup in setups:
        signature = setup.signature(judge_model, args.judge_unlabelled)
        missing = [r for r in records if (signature, r["id"]) not in rows]
        if missing:
            print(f"{setup.name}: evaluating {len(missing)} samples ({len(records) - len(missing)} cached)")
            for row in run_async(evaluate_setup(setup, missing, settings, args.judge_unlabelled)):
                rows[(signature, row["sample_id"])] = {**row, "signature": signature}
            # Kept as each setup ends: a later setup that fails does not lose this one's judgements.
            with writing(eval_path, MAKE_ROOM):
                write_jsonl(eval_path, rows.values())
        mine = [rows[(signature, r["id"])] for r in records]
        summaries[setup.name] = grouped_means(mine, METRICS, GROUPS)
    summary_path, report_path = dataset.parent / "eval-summary.json", dataset.parent / "eval-report.html"
    with writing(summary_path, MAKE_ROOM):
        write_atomically(summary_path, json.dumps(summaries, indent=2) + "\n")
    with writing(report_path, MAKE_ROOM):
        write_atomically(report_path, render_eval_report(summaries))
    print(summary_table(summaries))
    print(f"wrote {eval_path}, eval-summary.json and eval-report.html in {dataset.parent}")


if __name__ == "__main__":
    main()
