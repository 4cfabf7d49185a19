# ruff: noqa: E501  (HTML, CSS and script lines read better whole)
"""The review app's pages: server-rendered HTML, every value escaped, one small script of our own.

Nothing is loaded from the network. Chunk texts are escaped before the bridge topic and the answer
are marked in them, so a chunk holding markup shows as text.
"""

from __future__ import annotations

from graph.reviewing.labels import CRITERIA, Labels, SavedLabels
from graph.reviewing.marks import evidence_list, marked, quoted_html
from graph.reviewing.samples import CHANGED_SINCE_REVIEWED, ReviewSample
from graph.reviewing.validation_table import PAPER, PAPER_REJECTIONS_RIGHT, Share, ValidationSummary
from graph.webpage import asset, document, esc
from state.evidence import locate
from state.languages import DEFAULT_LANGUAGE, language_name
from state.location import where
from state.record import DatasetRecord

CRITERION_TEXT = {
    "answerable": "answerable from the supporting chunks",
    "correct": "answer correct",
    "multi_hop": "needs every supporting chunk (multi-hop)",
    "unambiguous": "unambiguous",
    "plausible": "a user of this collection could ask it",
    "unanswered": "no retrieved chunk answers or settles it",
    "restyle_right": "the question as asked means the validated one, same answer",
}


def page(title: str, body: str, *, script: str = "") -> str:
    header = f'<header><a href="/">review</a> · {esc(title)} · <a href="/summary">summary</a></header>'
    return document(title, f"{header}<main>{body}</main>", style="review.css", script=script)


FILTERS = ("cell", "outcome", "language", "temporal", "difficulty", "status")


def matches(sample: ReviewSample, status: str, filters: dict[str, str]) -> bool:
    """Whether the sample, with its review `status` (`ReviewSample.status`), passes every filter given."""
    values = {
        "cell": sample.cell,
        "outcome": sample.outcome,
        "language": sample.language,
        "temporal": "" if sample.temporal is None else str(sample.temporal).lower(),
        "difficulty": sample.difficulty or "",
        "status": status,
    }
    return all(values[key] == wanted for key, wanted in filters.items() if wanted)


def _languages_line(samples: dict[int, ReviewSample], reviewed: set[int]) -> str:
    """Per question language: samples, accepted and reviewed (a sample that never reached a draft has none)."""
    by_language: dict[str, list[ReviewSample]] = {}
    for sample in samples.values():
        if sample.language:
            by_language.setdefault(sample.language, []).append(sample)
    if not by_language:
        return ""
    parts = [
        f"{esc(language_name(code))} ({esc(code)}): {len(group)} samples, {sum(s.accepted for s in group)} accepted, "
        f"{sum(s.n in reviewed for s in group)} reviewed"
        for code, group in sorted(by_language.items())
    ]
    return f'<p class="meta" id="languages">{" · ".join(parts)}</p>'


def list_page(
    run_id: str,
    samples: dict[int, ReviewSample],
    order: list[int],
    review_set: set[int],
    reviewed: dict[int, str],
    filters: dict[str, str],
    reviewer: str,
) -> str:
    """The run's samples with filters; `reviewed`: when the reviewer last saved each sample they reviewed."""
    status = {n: sample.status(reviewed.get(n)) for n, sample in samples.items()}
    shown = [samples[n] for n in order if matches(samples[n], status[n], filters)]
    options = {
        "cell": sorted({s.cell for s in samples.values()}),
        "outcome": sorted({s.outcome for s in samples.values()}),
        "language": sorted({s.language for s in samples.values() if s.language}),
        "temporal": ["true", "false"],
        "difficulty": ["hard", "medium", "easy"],
        "status": ["to review", "reviewed", CHANGED_SINCE_REVIEWED],
    }

    def count(name: str, value: str) -> int:
        return sum(matches(s, status[s.n], {name: value}) for s in samples.values())

    selects = "".join(
        f'<label>{name} <select name="{name}"><option value="">all</option>'
        + "".join(
            f'<option value="{esc(value)}"{" selected" if filters.get(name) == value else ""}>'
            f"{esc(value)} ({count(name, value)})</option>"
            for value in values
        )
        + "</select></label>"
        for name, values in options.items()
    )
    rows = "".join(
        f'<tr data-n="{s.n}"><td><a href="/sample/{s.n}">{s.n}</a>{" <span class=pill>review set</span>" if s.n in review_set else ""}</td>'
        f"<td>{esc(s.cell)}</td><td>{esc(s.outcome)}{(' · ' + esc(s.end_reason)) if s.end_reason else ''}</td>"
        f"<td>{esc(s.question)}</td><td>{'' if status[s.n] == 'to review' else esc(status[s.n])}</td></tr>"
        for s in shown
    )
    counts = (
        f"<p class=meta>{len(shown)} of {len(samples)} samples shown · {len(reviewed)} reviewed by "
        f"{esc(reviewer)} · review set {len(review_set)}</p>"
    )
    body = (
        f'<h1>Run {esc(run_id)}</h1><form class="filters" method="get">{selects}<button>filter</button></form>'
        f"{counts}{_languages_line(samples, set(reviewed))}<table><tr><th>#</th><th>cell</th><th>outcome</th><th>question</th><th>status</th></tr>{rows}</table>"
    )
    return page(f"run {run_id}", body)


def _history(sample: ReviewSample) -> str:
    record, rejection = sample.record, sample.rejection
    drafts = rejection.drafts if rejection is not None else []
    verdicts = rejection.verdicts if rejection is not None else record.validation.verdicts if record is not None else []
    items = "".join(
        f"<li>draft {index}: {esc(str(d.get('question', '')))} → {esc(str(d.get('answer', '')))}</li>"
        for index, d in enumerate(drafts)
    )
    items += "".join(
        f"<li>{esc(str(v.get('judge', '')))}: {'accepted' if v.get('accepted') else 'rejected'}"
        f" — {esc(str(v.get('reason', '') or v.get('feedback', '')))}</li>"
        for v in verdicts
    )
    return f"<h2>History</h2><ul>{items}</ul>" if items else ""


def _criteria(sample: ReviewSample, labels: Labels) -> str:
    """The labels' boxes (keys 1-4), the note and the save status: at the top, where the keys act."""
    if sample.accepted:
        boxes = "".join(
            f'<label><input type="checkbox" data-criterion="{name}" name="{name}"{" checked" if labels.get(name) else ""}>'
            f" <kbd>{key}</kbd> {CRITERION_TEXT[name]}</label>"
            for key, name in enumerate(sample.criteria, start=1)
        )
    else:
        checked = " checked" if labels.get("rejection_right") else ""
        boxes = (
            f'<label><input type="checkbox" data-criterion="rejection_right" name="rejection_right"{checked}>'
            " <kbd>1</kbd> the rejection was right</label>"
        )
    return (
        f"<div class=criteria>{boxes}</div>"
        f'<textarea name="note" rows="2" cols="80" placeholder="note">{esc(str(labels.get("note", "")))}</textarea>'
        '<p><span id="status" class="status"></span> <span class=meta>keys: <kbd>1</kbd>-<kbd>4</kbd> toggle, '
        "<kbd>s</kbd> save, <kbd>j</kbd>/<kbd>k</kbd> next/previous; every change is saved; an unticked box "
        "is a no</span></p>"
    )


def _canonical_line(record: DatasetRecord | None) -> str:
    """The question as validated beside the one asked, when a query style rewrote it; a fallen-back rewrite's reason."""
    if record is None:
        return ""
    if record.canonical_question != record.question:
        earlier = "".join(f"<br><i>{esc(turn.role)}:</i> {esc(turn.content)}" for turn in (record.turns or [])[:-1])
        return (
            f"<p class=canonical><b>Asked as</b> {esc(record.query_style)} · <b>as validated:</b> "
            f"<span class=canonical-question>{esc(record.canonical_question)}</span>"
            + (f"<br><b>after the turns:</b>{earlier}" if earlier else "")
            + "</p>"
        )
    restyle = record.restyle
    if restyle is not None and not restyle.kept:
        return (
            f"<p class=canonical><b>Asked as validated:</b> its {esc(restyle.wanted)} rewrite was "
            f"refused ({esc(restyle.reason)})</p>"
        )
    return ""


def sample_page(
    run_id: str,
    sample: ReviewSample,
    labels: Labels,
    previous: int | None,
    next_: int | None,
    reviewed_at: str | None = None,
    others: list[SavedLabels] | None = None,
) -> str:
    """A sample's page; `others`: the other reviewers' reviews of it (their quote corrections are shown)."""
    others = others or []
    record, rejection = sample.record, sample.rejection
    bridge, answer = sample.entry.bridge_topic or "", record.answer if record is not None else ""
    language = sample.language or DEFAULT_LANGUAGE
    if sample.generated_unanswerable:
        answer = ""  # nothing to mark: the collection holds no answer
    parts = [
        f"<h1>{esc(sample.question) or '(no question)'}</h1>",
        _canonical_line(record),
        (
            f"<p class=changed><b>Changed since you reviewed it:</b> version {record.version if record else ''} of the "
            f"dataset ({esc(sample.changed_at or '')}) holds this record anew; check your labels again</p>"
            if sample.status(reviewed_at) == CHANGED_SINCE_REVIEWED
            else ""
        ),
        (
            "<p><b>Expected:</b> abstain (a generated unanswerable question; "
            f"not in the collection: {esc(record.construction.get('missing', '') if record else '') or '-'})</p>"
            if sample.generated_unanswerable
            else ""
        ),
        f"<p><b>Answer:</b> {esc(answer) or '-'} · {esc(sample.cell)} · {esc(sample.outcome)}"
        + (f" · language {esc(language_name(sample.language))} ({esc(sample.language)})" if sample.language else "")
        + (f" ({esc(sample.end_reason)})" if sample.end_reason else "")
        + (f" · temporal {str(sample.temporal).lower()} · {esc(sample.difficulty or '')}" if sample.accepted else "")
        + f" · bridge topic <mark class=bridge>{esc(bridge)}</mark></p>",
        f'<form id="labels" data-action="/api/labels/{sample.n}"'
        + (f' data-next="/sample/{next_}"' if next_ is not None else "")
        + (f' data-previous="/sample/{previous}"' if previous is not None else "")
        + ' onsubmit="return false">',
        _criteria(sample, labels),
    ]
    supporting = sample.supporting
    if not sample.generated_unanswerable:
        parts.append("<h2>Supporting chunks</h2>")
    fixes = labels.get("evidence") or {}
    for chunk in supporting:
        spans = [
            span
            for fact in chunk.evidence
            if (span := locate(fixes.get(chunk.id, {}).get(fact.quote, fact.quote), chunk.text)) is not None
        ]
        parts.append(
            f'<div class="chunk" data-chunk="{esc(chunk.id)}">{_meta(where(chunk.metadata), chunk.id)}'
            f"{quoted_html(chunk.text, spans, bridge, answer, language)}</div>"
        )
    if record is not None and record.facts():
        parts.append(evidence_list(record, fixes, others, saved=reviewed_at is not None))
    if not supporting and rejection is not None and rejection.supporting_ids:
        parts.append(f"<p class=meta>{esc(', '.join(rejection.supporting_ids))}</p>")
    if sample.accepted:
        note = (
            "the chunks the collection's retriever returned for it; tick one that answers it"
            if sample.generated_unanswerable
            else "ticked = relevant; tick or untick to correct a label"
        )
        parts.append(f"<h2>Contexts</h2><p class=meta>{note}</p>")
        flips = labels.get("relevance") or {}
        places = record.places(sample.contexts) if record is not None else []
        for context, place in zip(sample.contexts, places, strict=True):
            original = context.relevant
            now = flips.get(context.id, original)
            parts.append(
                f'<div class="chunk"><label><input type="checkbox" data-context="{esc(context.id)}"'
                f' data-original="{str(original).lower()}"{" checked" if now else ""}> {esc(context.origin)}'
                f" · labelled {'relevant' if original else 'not relevant'}</label>"
                f"{_meta(place, context.id)}"
                f"{marked(context.text, bridge, answer, language)}</div>"
            )
        if record is not None and record.unanswerable is not None:
            parts.append(
                f"<p><b>Unanswerable variant</b> (expected: abstain): {esc(', '.join(record.unanswerable.contexts))}</p>"
            )
    parts.append("</form>")
    parts.append(_history(sample))
    return page(f"{run_id} · sample {sample.n}", "".join(parts), script=asset("review.js"))


def _meta(place: str, chunk_id: str) -> str:
    """The line above a chunk: where it comes from ("guide.pdf, p. 12, 3.2 Backups"), then its id."""
    lead = f"<b>{esc(place)}</b> · " if place else ""
    return f"<div class=meta>{lead}{esc(chunk_id)}</div>"


def _kappa(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def summary_html(summary: ValidationSummary) -> str:
    """The human-validation table beside the paper's figures, as HTML (the app's page and report.html)."""

    def cell(figure: Share) -> str:
        if not figure["total"]:
            return "-"
        return (
            f"{figure['share']:.0%} [{figure['low']:.0%}, {figure['high']:.0%}] ({figure['passed']}/{figure['total']})"
        )

    rows = "".join(
        f'<tr data-criterion="{name}"><td>{CRITERION_TEXT[name]}</td><td>{cell(summary["criteria"][name])}</td><td>{PAPER[name]}</td></tr>'
        for name in CRITERIA
    )
    rows += (
        f'<tr data-criterion="rejections_right"><td>rejections right</td><td>{cell(summary["rejections_right"])}</td>'
        f"<td>{PAPER_REJECTIONS_RIGHT}</td></tr>"
    )
    rows += "".join(
        f'<tr data-criterion="{name}"><td>generated unanswerable: {CRITERION_TEXT[name]}</td>'
        f"<td>{cell(figure)}</td><td>not in the paper</td></tr>"
        for name, figure in summary.get("unanswerable", {}).items()
        if figure["total"]
    )
    restyled = summary.get("restyles_right") or {"total": 0}
    if restyled["total"]:
        rows += (
            f'<tr data-criterion="restyle_right"><td>rewrites in a query style right</td><td>{cell(restyled)}</td>'
            "<td>not in the paper</td></tr>"
        )
    relevance = summary["relevance"]
    figures = ", ".join(
        f"{name} {relevance[name]:.2f}" if relevance[name] is not None else f"{name} -"
        for name in ("precision", "recall", "f1")
    )
    per_cell = "".join(
        f'<tr data-cell="{esc(name)}"><td>{esc(name)}</td>'
        + "".join(f"<td>{cell(figures_of[criterion])}</td>" for criterion in CRITERIA)
        + "</tr>"
        for name, figures_of in summary["cells"].items()
    )
    agreement = "".join(
        f"<li>{CRITERION_TEXT[name]}: Cohen's kappa {_kappa(f['kappa'])} over {f['pairs']} samples</li>"
        for name, f in summary["agreement"].items()
        if f["pairs"]
    )
    return (
        f"<p class=meta>{summary['reviewed_samples']} samples reviewed; each share with its 95% Wilson interval"
        " and count</p>"
        f"<table><tr><th>criterion</th><th>this run</th><th>paper (HotpotQA / MuSiQue)</th></tr>{rows}</table>"
        f"<p>Relevance labels against the reviewers' corrections: {figures}</p>"
        + (f"<p>Two reviewers' agreement:</p><ul>{agreement}</ul>" if agreement else "")
        + (
            "<h3>Per cell</h3><table><tr><th>cell</th>"
            + "".join(f"<th>{CRITERION_TEXT[name]}</th>" for name in CRITERIA)
            + f"</tr>{per_cell}</table>"
            if per_cell
            else ""
        )
    )


def summary_page(run_id: str, summary: ValidationSummary) -> str:
    body = f"<h1>Human validation of run {esc(run_id)}</h1>{summary_html(summary)}"
    return page(f"{run_id} · summary", body)
