"""`python -m graph.review` in a real browser: Debian's Chromium driven by Playwright (no browser download).

A run of the scripted models is reviewed as a user reviews it: filter the list, open a sample, label it
with the keyboard, reload and find the labels; a second reviewer at the same time; the summary's
figures against the labels set here; the export; markup in a chunk shown as text; the token on a
non-loopback bind.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.commands import REPO_ROOT, assert_one_line_error, run_cli, user_environment

SCRIPTED = "offline:plausible"
STRICT = "import:tests.support.scripts:strict_model"
HOSTILE = 'Vacuum <script>window.__pwned = 1</script> and <img src=x onerror="window.__pwned = 2"> text'

playwright = pytest.importorskip("playwright.sync_api")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def runs(pg_url: str, demo_slice: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run with six accepted samples, one per cell, and a run whose every sample was rejected."""
    folder = tmp_path_factory.mktemp("review-runs")
    for run_id, model, count in (("reviewed", SCRIPTED, "6"), ("strict-review", STRICT, "1")):
        result = run_cli(
            "graph.run", "--collection", demo_slice, "--count", count, "--llm", model, "--dedup-threshold", "0",
            "--database-url", pg_url, "--runs-dir", str(folder), "--run-id", run_id, "--seed", "2",
            *(("--types", "comparison", "--binary", "no") if model == STRICT else ()),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
    # A chunk holding markup, as a scraped page may: it must show as text.
    dataset = folder / "reviewed" / "dataset.jsonl"
    records = [json.loads(line) for line in dataset.read_text().splitlines()]
    records[0]["supporting"][0]["text"] = HOSTILE + " " + records[0]["supporting"][0]["text"]
    dataset.write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


@contextmanager
def review_app(runs: Path, run_id: str, *extra: str) -> Iterator[str]:
    """`python -m graph.review` in the background; yields the URL it printed."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "graph.review", run_id, "--runs-dir", str(runs), "--port", str(port), *extra],
        cwd=REPO_ROOT, env=user_environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert "http://" in line, process.stderr.read() if process.stderr else line
        url = line.split("http://", 1)[1].split(" ", 1)[0]
        yield "http://" + url.replace("0.0.0.0", "127.0.0.1")
    finally:
        process.terminate()
        process.wait(timeout=30)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        pytest.skip("needs Chromium (apt-get install chromium)")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        yield launched
        launched.close()


def label_with_keys(page: object, keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)  # type: ignore[attr-defined]
        page.wait_for_selector("#status:text-is('saved')")  # type: ignore[attr-defined]


def test_review_a_sample_with_the_keyboard_then_reload_and_summarise(runs: Path, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    with review_app(runs, "reviewed", "--reviewer", "alice", "--sample", "4") as url:
        page.goto(url)
        finished = sum(
            len((runs / "reviewed" / name).read_text().splitlines()) for name in ("dataset.jsonl", "rejected.jsonl")
        )
        assert page.locator("tr[data-n]").count() == finished
        assert page.locator(".pill").count() == 4
        page.select_option("select[name=cell]", "comparison/open")
        page.click("button:text('filter')")
        assert page.locator("tr[data-n]").count() == 1
        page.click("tr[data-n] a")
        first = page.url
        label_with_keys(page, "1234")
        # A context's relevance label corrected: the first distractor marked relevant after all.
        flipped = page.locator("input[data-context][data-original=false]").first
        flipped_id = flipped.get_attribute("data-context")
        flipped.check()
        page.wait_for_selector("#status:text-is('saved')")
        page.reload()
        assert all(page.is_checked(f"input[data-criterion={name}]") for name in ("answerable", "correct", "multi_hop"))
        assert page.is_checked(f"input[data-context='{flipped_id}']")
        with page.expect_navigation():
            page.keyboard.press("j")  # the next sample, by the keyboard
        assert page.url != first
        label_with_keys(page, "12")  # answerable and correct, not multi-hop nor unambiguous
    # The second reviewer labels the first sample too, differently, at the same time as nobody else.
    with review_app(runs, "reviewed", "--reviewer", "bob") as url:
        page.goto(first.replace(first.split("/sample/")[0], url.rstrip("/")))
        label_with_keys(page, "1")  # bob: answerable only
    summary = run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--summary")
    assert summary.returncode == 0, summary.stderr
    lines = {line.split()[0]: line for line in summary.stdout.splitlines() if line.strip()}
    assert "reviewed samples: 2" in summary.stdout
    assert "100% [" in lines["answerable"] and "(3 of 3)" in lines["answerable"]
    assert "(2 of 3)" in lines["correct"] and "(1 of 3)" in lines["multi_hop"]
    assert "Cohen's kappa" in summary.stdout
    assert "precision 1.00, recall 0." in summary.stdout  # a context relabelled relevant: the labeller missed it
    report = (runs / "reviewed" / "report.html").read_text()  # written again with the table
    assert '<section id="review">' in report and "(3/3)" in report
    assert 'data-cell="comparison/open"' in report and "Cohen's kappa" in report
    export = runs / "labels.jsonl"
    exported = run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--export", str(export))
    assert exported.returncode == 0, exported.stderr
    rows = [json.loads(line) for line in export.read_text().splitlines()]
    assert sorted((row["reviewer"], row["n"]) for row in rows)[0][0] == "alice" and len(rows) == 3
    assert {row["reviewer"] for row in rows} == {"alice", "bob"}
    page.close()


def unlabelled(runs: Path) -> list[dict[str, object]]:
    """The run's answerable records that no reviewer has labelled yet."""
    earlier = runs / "labels-so-far.jsonl"
    assert run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--export", str(earlier)).returncode == 0
    labelled = {json.loads(line)["n"] for line in earlier.read_text().splitlines()}
    records = [json.loads(line) for line in (runs / "reviewed" / "dataset.jsonl").read_text().splitlines()]
    return [r for r in records if r["answerable"] and int(r["id"].rsplit("/", 1)[1]) not in labelled]


def test_a_sample_shows_its_quotes_and_a_correction_must_stand_in_its_chunk(
    runs: Path, browser: object, tmp_path: Path
) -> None:
    record = unlabelled(runs)[0]
    n = int(record["id"].rsplit("/", 1)[1])
    facts = [(c["id"], f["quote"]) for c in record["supporting"] for f in c["evidence"]]
    page = browser.new_page()  # type: ignore[attr-defined]
    with review_app(runs, "reviewed", "--reviewer", "erin") as url:
        page.goto(f"{url.rstrip('/')}/sample/{n}")
        assert page.locator("ol.facts li").count() == len(facts)
        chunk_id, quote = facts[0]
        marked = page.locator(f".chunk[data-chunk='{chunk_id}'] mark.quote")
        assert " ".join(marked.first.inner_text().split()) == " ".join(quote.split())
        marked.first.scroll_into_view_if_needed()
        page.screenshot(path=str(tmp_path / "evidence.png"))
        assert (tmp_path / "evidence.png").stat().st_size > 10_000
        field = page.locator("input.quote").first
        field.fill("a sentence that no chunk of this sample holds")
        field.dispatch_event("change")
        page.wait_for_selector("#status:text-matches('not saved: the corrected quote')")
        assert "not in its text as written" in page.inner_text("#status")
        shorter = quote[: len(quote) // 2].strip()  # a part of the quote: verbatim in the chunk
        field.fill(shorter)
        field.dispatch_event("change")
        page.wait_for_selector("#status:text-is('saved')")
        page.reload()
        assert page.locator("input.quote").first.input_value() == shorter
        assert marked.first.inner_text().strip() == shorter
    page.close()


def test_markup_in_a_chunk_shows_as_text_and_runs_nothing(runs: Path, browser: object) -> None:
    record = json.loads((runs / "reviewed" / "dataset.jsonl").read_text().splitlines()[0])
    n = int(record["id"].rsplit("/", 1)[1])
    page = browser.new_page()  # type: ignore[attr-defined]
    with review_app(runs, "reviewed") as url:
        page.goto(f"{url.rstrip('/')}/sample/{n}")
        assert "<script>window.__pwned = 1</script>" in page.text_content(".chunk")
        assert page.evaluate("window.__pwned === undefined")
        assert page.locator(".chunk img").count() == 0
    page.close()


def test_a_rejected_sample_is_labelled_for_whether_its_rejection_was_right(runs: Path, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    with review_app(runs, "strict-review", "--reviewer", "carol") as url:
        page.goto(url)
        page.click("tr[data-n] a")
        assert page.locator("text=the rejection was right").count() == 1
        assert page.locator(".chunk").count() >= 2  # its chunks' texts, read from the store as the run read it
        label_with_keys(page, "1")
    page.close()
    summary = run_cli("graph.review", "strict-review", "--runs-dir", str(runs), "--summary")
    assert "(1 of 1)" in [line for line in summary.stdout.splitlines() if line.startswith("rejections right")][0]


def test_off_loopback_every_request_needs_the_printed_token_and_labels_come_as_json(runs: Path) -> None:
    import urllib.error
    import urllib.request

    with review_app(runs, "reviewed", "--host", "0.0.0.0") as url:
        assert "?token=" in url
        bare = url.split("?", 1)[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bare, timeout=10)
        assert refused.value.code == 403
        with urllib.request.urlopen(url, timeout=10) as answered:
            assert answered.status == 200
    with review_app(runs, "reviewed") as url:  # a form another site posts is refused: labels come as JSON only
        forged = urllib.request.Request(f"{url}api/labels/0", data=b'{"answerable": false}', method="POST")
        forged.add_header("Content-Type", "text/plain")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(forged, timeout=10)
        assert refused.value.code == 415


def post_labels(url: str, n: object, labels: dict[str, object]) -> None:
    """A reviewer's labels of sample `n` saved through the app's API, as its page saves them."""
    import urllib.request

    request = urllib.request.Request(
        f"{url.rstrip('/')}/api/labels/{n}",
        data=json.dumps(labels).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200


def test_bad_input_is_one_line(runs: Path, tmp_path: Path) -> None:
    assert_one_line_error(run_cli("graph.review", "no-such-run", "--runs-dir", str(runs)), "no run folder")
    (tmp_path / "empty-run").mkdir()
    assert_one_line_error(run_cli("graph.review", "empty-run", "--runs-dir", str(tmp_path)), "no finished sample")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        result = run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--port", port)
    assert_one_line_error(result, f"cannot listen on 127.0.0.1:{port}", "--port")


def test_export_reviewed_keeps_what_reviewers_accepted_with_their_corrections(runs: Path) -> None:
    earlier = runs / "earlier-labels.jsonl"
    assert run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--export", str(earlier)).returncode == 0
    labelled = {json.loads(line)["n"] for line in earlier.read_text().splitlines()}
    records = [
        json.loads(line)
        for line in (runs / "reviewed" / "dataset.jsonl").read_text().splitlines()
        if int(json.loads(line)["id"].rsplit("/", 1)[1]) not in labelled  # samples no other test labelled
    ]
    kept, dropped = records[-1], records[-2]
    distractor = next(c["id"] for c in kept["contexts"] if not c["relevant"])
    with review_app(runs, "reviewed", "--reviewer", "dana") as url:
        for record, passes in ((kept, True), (dropped, False)):
            labels = {"answerable": True, "correct": True, "multi_hop": True, "unambiguous": passes}
            if record is kept:
                labels["relevance"] = {distractor: True}
            post_labels(url, record["id"].rsplit("/", 1)[1], labels)
    output = runs / "reviewed.jsonl"
    result = run_cli(
        "graph.export", "reviewed", "--runs-dir", str(runs), "--format", "ragas", "--reviewed", "--output", str(output)
    )
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in output.read_text().splitlines()]
    ids = {row["id"] for row in rows}
    assert kept["id"] in ids and dropped["id"] not in ids
    row = next(row for row in rows if row["id"] == kept["id"])
    assert distractor in row["reference_context_ids"] and "dana" in row["reviewers"]


def test_reviewers_corrections_of_a_quote_settle_by_majority_and_a_tie_keeps_the_records(runs: Path) -> None:
    """Two reviewers correct one quote alike and another each their own way, beside a third who left both."""
    # A record that at most one reviewer labelled, accepting it without correcting a quote (the export test's, when
    # it ran first): that reviewer's save votes for the record's quotes.
    labels_file = runs / "labels-now.jsonl"
    assert run_cli("graph.review", "reviewed", "--runs-dir", str(runs), "--export", str(labels_file)).returncode == 0
    reviews = [json.loads(line) for line in labels_file.read_text().splitlines()]
    records = [json.loads(line) for line in (runs / "reviewed" / "dataset.jsonl").read_text().splitlines()]
    criteria = ("answerable", "correct", "multi_hop", "unambiguous")

    def earlier(record: dict[str, object]) -> list[dict[str, object]]:
        return [r for r in reviews if r["n"] == int(str(record["id"]).rsplit("/", 1)[1])]

    record = next(
        r for r in records
        if r["answerable"] and len(r["supporting"]) >= 2 and len(earlier(r)) <= 1
        and all(all(e["labels"].get(c) for c in criteria) and not e["labels"].get("evidence") for e in earlier(r))
    )  # fmt: skip
    n = record["id"].rsplit("/", 1)[1]
    others = len(earlier(record))
    (first_chunk, first_quote), (second_chunk, second_quote) = [
        (c["id"], c["evidence"][0]["quote"]) for c in record["supporting"][:2]
    ]
    agreed = first_quote[: len(first_quote) // 2].strip()
    split = [second_quote[: len(second_quote) // 2].strip(), second_quote[len(second_quote) // 3 :].strip()]
    accepted = {"answerable": True, "correct": True, "multi_hop": True, "unambiguous": True}
    for reviewer, theirs in (("fay", split[0]), ("gil", split[1])):
        with review_app(runs, "reviewed", "--reviewer", reviewer) as url:
            labels = accepted | {"evidence": {first_chunk: {first_quote: agreed}, second_chunk: {second_quote: theirs}}}
            post_labels(url, n, labels)
    output = runs / "requoted.jsonl"
    result = run_cli(
        "graph.export", "reviewed", "--runs-dir", str(runs), "--format", "ragas", "--reviewed", "--output", str(output)
    )
    assert result.returncode == 0, result.stderr
    row = next(json.loads(line) for line in output.read_text().splitlines() if json.loads(line)["id"] == record["id"])
    quotes = {fact["chunk_id"]: fact["quote"] for fact in row["reference_evidence"]}
    assert quotes[first_chunk] == agreed and quotes[second_chunk] == second_quote  # the majority's; a tie: the record's
    assert row["requoted"] == [{"chunk_id": first_chunk, "quote": first_quote, "now": agreed}]
    assert row["quote_ties"][0]["votes"] == {split[0]: 1, split[1]: 1} | ({second_quote: others} if others else {})
    fact = next(fact for fact in row["reference_evidence"] if fact["chunk_id"] == first_chunk)
    text = next(c for c in record["supporting"] if c["id"] == first_chunk)["text"]
    assert text[fact["chunk_start"] : fact["chunk_end"]] == agreed
