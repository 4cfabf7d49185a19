"""report.html: one self-contained page per run (no network), plots drawn as inline SVG."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from graph.figures.funnel import cell_name
from graph.figures.style_figures import styles_section
from graph.folder.check_file import current_check, with_drift
from graph.folder.files import RunFolder
from graph.folder.run_document import Coverage, Funnel, LanguageShares, RunDocument
from graph.webpage import document as page
from graph.webpage import esc, table
from graph.webpage.charts import bar_chart
from state.finished import FinishedSample
from state.languages import DEFAULT_LANGUAGE, language_name, polarity
from state.location import where
from state.record import DatasetRecord, SupportingChunk
from state.sample import UNANSWERABLE

#: The TRIAD paper's funnels (SPEC section 8), shown beside the run's for orientation.
PAPER_FUNNELS = (
    ("TRIAD paper, HotpotQA corpus", 703, 135, 97, 481),
    ("TRIAD paper, MuSiQue corpus", 723, 186, 74, 478),
)
SECTIONS = (
    ("funnel", "Funnel"),
    ("cells", "Question type x binary"),
    ("query_styles", "Query styles"),
    ("languages", "Languages"),
    ("difficulty", "Difficulty"),
    ("relevant", "Relevant contexts per question"),
    ("temporal", "Temporal questions"),
    ("rejections", "Rejections by judge"),
    ("revisions", "Revisions used"),
    ("cost", "Tokens and cost"),
    ("coverage", "Coverage"),
    ("examples", "Example records"),
)
#: Accepted records shown whole in the examples section.
REPORT_EXAMPLES = 3


def _funnel_section(summary: Funnel) -> str:
    rejected = summary["drafts_rejected_by"]
    # Beside the paper's funnels: the typed multi-hop questions only (generated unanswerable ones are not in it).
    unanswerable_drafts = summary.get("unanswerable_drafts", 0)
    unanswerable_accepted = summary["cells"].get(UNANSWERABLE, {}).get("accepted", 0)
    typed = (summary["questions_generated"] - unanswerable_drafts, summary["accepted"] - unanswerable_accepted)
    rows = [
        ("this run", typed[0], rejected["quality"], rejected["sufficiency"], typed[1]),
        *(
            (name, generated, quality, sufficiency, accepted)
            for name, generated, quality, sufficiency, accepted in PAPER_FUNNELS
        ),
    ]
    samples = table(
        ["samples", "started", "no bridge", "rejected", "failed", "accepted", "acceptance"],
        [
            [
                "this run",
                summary["samples_started"],
                summary["no_bridge"],
                summary["rejected"],
                summary["failed"],
                summary["accepted"],
                f"{summary['acceptance_rate']:.0%}",
            ]
        ],
    )
    questions = table(
        ["questions", "generated (each revision counts)", "rejected by quality", "rejected by sufficiency", "accepted"],
        rows,
    )
    generated = (
        f'<p class="note">Generated unanswerable questions: {unanswerable_drafts} drafts, '
        f"{rejected.get('unanswerable', 0)} rejected by the unanswerable judge, {unanswerable_accepted} accepted.</p>"
        if unanswerable_drafts
        else ""
    )
    return (
        samples
        + questions
        + f'<p class="note">Lint rejected {rejected["lint"]} drafts before any judge was paid.</p>'
        + generated
    )


def _cells_section(quotas: Mapping[str, int], summary: Funnel, finished: Sequence[FinishedSample]) -> str:
    """Per cell: wanted, accepted, started, rejected, no bridge, and for a yes/no cell its Yes/No split."""
    answers: dict[str, Counter[str]] = {}
    for row in finished:
        if row["binary"] and (brief := row["brief"]) is not None:
            said = polarity(str(brief["answer"]), brief["language"] or DEFAULT_LANGUAGE)
            answers.setdefault(cell_name(row["question_type"], True), Counter())[said or "other"] += 1
    rows = []
    for cell, wanted in quotas.items():
        counts = summary["cells"].get(cell, {})
        split = answers.get(cell)
        rows.append(
            [
                cell,
                wanted,
                counts.get("accepted", 0),
                counts.get("started", 0),
                counts.get("rejected", 0),
                counts.get("no_bridge", 0),
                f"{split['yes']} / {split['no']}" if split is not None else "",
            ]
        )
    notes = [note for cell, split in answers.items() if (note := _imbalance(cell, split, finished))]
    return table(["cell", "wanted", "accepted", "started", "rejected", "no bridge", "Yes / No"], rows) + "".join(
        f'<p class="note">{esc(note)}</p>' for note in notes
    )


def _imbalance(cell: str, split: Counter[str], finished: Sequence[FinishedSample]) -> str | None:
    """Why a yes/no cell holds more of one answer than the other (by more than one): the samples asked for the
    scarcer answer that ended without a question, and how they ended most often."""
    if abs(split["yes"] - split["no"]) <= 1:
        return None
    scarce = "no" if split["yes"] > split["no"] else "yes"
    lost = [
        row
        for row in finished
        if cell_name(row["question_type"], True) == cell and row["binary"] and row["wanted"] == scarce
        and row["outcome"] != "accepted"
    ]  # fmt: skip
    said = f"{cell} holds {split['yes']} Yes and {split['no']} No"
    if not lost:
        return (
            f"{said}: no sample asked for a {scarce.capitalize()} ended without a question; the run ended before it "
            "asked for more."
        )
    ends = Counter(
        ((kept["end_reason"] if (kept := row["summary"]) else "") or "no end reason").split(":")[0] for row in lost
    )
    how = ", ".join(f"{reason} {count}" for reason, count in ends.most_common(3))
    return f"{said}: {len(lost)} samples asked for a {scarce.capitalize()} ended without a question ({how})."


def _languages_section(document: RunDocument, summary: Funnel) -> str:
    """The collection's languages as surveyed before the run, and the funnel per language of the questions."""
    surveyed = (document.get("languages") or {}).get("collection") or LanguageShares(sampled_chunks=0, shares={})
    shares = surveyed.get("shares") or {}
    collection = (
        f'<p class="note">The collection, from {surveyed.get("sampled_chunks", 0)} random chunks: '
        + esc(", ".join(f"{_named(code)} {share:.0%}" for code, share in shares.items()))
        + ".</p>"
        if shares
        else ""
    )
    rows = [
        [
            _named(code),
            counts.get("drafted", 0),
            counts.get("accepted", 0),
            counts.get("rejected", 0),
            counts.get("rejected_by_lint", 0),
            counts.get("rejected_by_quality", 0),
            counts.get("rejected_by_sufficiency", 0),
        ]
        for code, counts in (summary.get("languages") or {}).items()
    ]
    header = ["question language", "samples drafted", "accepted", "rejected", "drafts failing lint", "quality",
              "sufficiency"]  # fmt: skip
    return collection + (table(header, rows) if rows else '<p class="note">no sample reached a draft</p>')


def _named(code: str) -> str:
    return "unknown" if code == "und" else f"{language_name(code)} ({code})"


def _rejections_section(rows: Sequence[FinishedSample]) -> str:
    reasons: dict[str, Counter[str]] = {"lint": Counter(), "quality": Counter(), "sufficiency": Counter()}
    for row in rows:
        for verdict in row["summary"]["verdicts"] if row["summary"] else []:
            if not verdict["accepted"]:
                reasons.setdefault(verdict["judge"], Counter())[verdict["reason"][:160]] += 1
    parts = [bar_chart([(judge, sum(counter.values())) for judge, counter in reasons.items()])]
    for judge, counter in reasons.items():
        common = counter.most_common(5)
        if common:
            parts.append(f"<h3>{esc(judge)}: most common reasons</h3>" + table(["reason", "drafts"], common))
    return "".join(parts)


def _coverage_section(coverage: Coverage | None) -> str:
    """Documents that supplied a supporting chunk; with queries, the query clusters a question is near."""
    if not coverage:
        return '<p class="note">not measured for this run</p>'
    documents = coverage["documents"]
    parts = []
    if documents["share"] is None:
        parts.append('<p class="note">No chunk of the collection has a <code>source</code> in its metadata.</p>')
    else:
        parts.append(
            f"<p>{documents['covered']} of {documents['documents']} documents ({documents['share']:.0%}) supplied a "
            "supporting chunk to an accepted question.</p>"
        )
        if documents["largest_uncovered"]:
            rows = [[d["source"], d["chunks"]] for d in documents["largest_uncovered"]]
            parts.append("<h3>Largest documents without a question</h3>" + table(["source", "chunks"], rows))
        if documents["chunks_without_source"]:
            parts.append(f'<p class="note">{documents["chunks_without_source"]} chunks have no source.</p>')
    if coverage.get("by_weight"):
        rows = [[f"{c['weight']:g}", c["documents"], c["covered"], f"{c['share']:.0%}"] for c in coverage["by_weight"]]
        parts.append("<h3>By document weight</h3>" + table(["weight", "documents", "with a question", "share"], rows))
    queries = coverage.get("queries")
    if queries:
        parts.append(
            f"<p>{queries['covered']} of {queries['clusters']} clusters of the {queries['queries']} real queries "
            f"({queries['share']:.0%}) have an accepted answerable question near them; "
            f"{queries['only_unanswerable_near']} more have only generated unanswerable questions near them.</p>"
        )
        if queries["largest_uncovered"]:
            rows = [[c["typical_query"], c["queries"], c["unanswerable_near"]] for c in queries["largest_uncovered"]]
            headers = ["typical query", "queries", "unanswerable questions near"]
            parts.append("<h3>Largest query clusters without an answerable question</h3>" + table(headers, rows))
    return "".join(parts)


def _example(record: DatasetRecord) -> str:
    if not record.answerable:
        facts = (
            f"generated unanswerable ({record.construction.get('unanswerable_kind') or 'kind not given'}); "
            f"none of the {len(record.contexts)} chunks the retriever returned answers it"
        )
        missing = record.construction.get("missing") or ""
        return (
            f'<div class="example"><p><b>{esc(record.question)}</b><br>expected: abstain</p>'
            f'<p class="note">{esc(facts)}</p><p class="note">not in the collection: {esc(missing)}</p></div>'
        )
    supporting = "".join(
        f"<li>{_place(c)}<code>{esc(c.id)}</code> {esc(c.text[:220])}…</li>" for c in record.supporting
    )
    facts = (
        f"{record.question_type}, binary {record.binary}, "
        + (f"language {record.language}, " if record.language else "")
        + f"temporal {record.temporal}, "
        f"difficulty {record.difficulty}, {record.n_relevant} relevant contexts, bridge: {record.bridge_topic}"
    )
    return (
        f'<div class="example"><p><b>{esc(record.question)}</b><br>answer: {esc(record.answer)}</p>'
        f'<p class="note">{esc(facts)}</p><ul>{supporting}</ul></div>'
    )


def _place(chunk: SupportingChunk) -> str:
    """Where a supporting chunk comes from, as the lead of its line; "" when its metadata does not say."""
    place = where(chunk.metadata)
    return f"<b>{esc(place)}</b> " if place else ""


def render_report(
    document: RunDocument,
    finished: Sequence[FinishedSample],
    examples: Sequence[DatasetRecord],
    review: str | None = None,
) -> str:
    """The whole page as a string: `finished` as `Ledger.finished` gives it, `examples` whole records,
    `review` the human-validation table (HTML, escaped already) once people have reviewed the run."""
    summary = document["funnel"]
    records = [brief for row in finished if (brief := row["brief"]) is not None and brief["answerable"]]
    difficulty = Counter(r["difficulty"] for r in records)
    relevant = Counter(r["n_relevant"] for r in records)
    temporal = sum(bool(r["temporal"]) for r in records)
    revisions = Counter(kept["revisions"] if (kept := row["summary"]) else 0 for row in finished)
    llm = summary["llm"]
    per_accepted = llm["cost_per_accepted_usd"]
    bodies = {
        "funnel": _funnel_section(summary),
        "cells": _cells_section(document["quotas"], summary, finished),
        "query_styles": styles_section(document.get("query_style_quotas") or {}, summary),
        "languages": _languages_section(document, summary),
        "difficulty": bar_chart([(level, difficulty[level]) for level in ("hard", "medium", "easy")]),
        "relevant": bar_chart([(str(n), relevant[n]) for n in sorted(relevant)]),
        "temporal": bar_chart([("temporal", temporal), ("not temporal", len(records) - temporal)])
        + (f'<p class="note">{temporal / len(records):.0%} of accepted questions are temporal.</p>' if records else ""),
        "rejections": _rejections_section(finished),
        "revisions": bar_chart([(f"{n} revision(s)", revisions[n]) for n in sorted(revisions)]),
        "cost": table(
            [
                "role",
                "calls",
                "input tokens",
                "of them cached",
                "output tokens",
                "of them thinking",
                "cost USD",
                "of it thinking",
            ],
            [
                [
                    role,
                    t["calls"],
                    t["input_tokens"],
                    t.get("cached_tokens", 0),
                    t["output_tokens"],
                    t.get("thinking_tokens", 0),
                    f"{t['cost_usd']:.4f}",
                    f"{t.get('thinking_cost_usd', 0.0):.4f}",
                ]
                for role, t in llm["per_role"].items()
            ],  # fmt: skip
        )
        + (
            f"<p>Per accepted sample: {llm['calls_per_accepted']:.1f} calls, {per_accepted:.4f} USD.</p>"
            if per_accepted is not None
            else ""
        ),
        "coverage": _coverage_section(document.get("coverage")),
        "examples": "".join(_example(record) for record in examples[:REPORT_EXAMPLES])
        or '<p class="note">no accepted records</p>',
    }
    sections = "".join(f'<section id="{key}"><h2>{esc(title)}</h2>{bodies[key]}</section>' for key, title in SECTIONS)
    if review is not None:
        sections += f'<section id="review"><h2>Human review</h2>{review}</section>'
    models = ", ".join(f"{role} {spec}" for role, spec in document["models"].items())
    shortfall = document.get("shortfall") or {}
    short = (
        f'<p class="note">Shortfall: {esc(", ".join(f"{k} {v}" for k, v in shortfall.items()))}</p>'
        if shortfall
        else ""
    )
    body = (
        f"<h1>triad run {esc(document['run_id'])}</h1>"
        f'<p class="note">Finished {esc(document["finished_at"])}; models: {esc(models)}</p>'
        f"{short}{sections}"
    )
    script = 'document.body.dataset.sections = String(document.querySelectorAll("section").length);'
    return page(f"triad run {document['run_id']}", body, style="report.css", script=script)


def write_report(
    folder: RunFolder,
    document: RunDocument,
    finished: Sequence[FinishedSample],
    examples: Sequence[DatasetRecord],
    review: str | None = None,
) -> None:
    html = render_report(document, finished, examples, review)
    check = current_check(folder.folder / "check.json", document["run_id"], finished)
    folder.write(folder.report, with_drift(html, check) if check else html)
