"""Bad input as users give it: each ends in one `error:` line and exit code 2, or is left out with a note."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.support.commands import assert_one_line_error, run_cli, state_connection

SCRIPTED = "offline:plausible"
HUGE_MARKER = "HUGECHUNKMARKER"


@pytest.fixture(autouse=True)
def drop_tables_afterwards(pg_url: str) -> Iterator[None]:
    """The tables a test makes go at its end: other tests list the collections of the shared server."""
    yield
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for (name,) in conn.execute("SELECT tablename FROM pg_tables WHERE tablename LIKE 'bad\\_%'").fetchall():
            conn.execute(f'DROP TABLE "{name}"')


def copy_of(url: str, source: str, name: str, rows: int) -> None:
    """A new PGVectorStore table holding the first `rows` chunks of `source`, embeddings included."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')
        conn.execute(f'CREATE TABLE "{name}" (LIKE "{source}" INCLUDING ALL)')
        conn.execute(
            f'INSERT INTO "{name}" SELECT * FROM "{source}" ORDER BY langchain_id LIMIT %s',
            (rows,),
        )


def add_chunk(url: str, table: str, text: str, like_row: int = 0) -> None:
    """A chunk with `text` and the embedding of the table's `like_row`-th chunk (so it is a near neighbour)."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            f'INSERT INTO "{table}" SELECT gen_random_uuid(), %s, embedding, langchain_metadata'
            f' FROM "{table}" ORDER BY langchain_id OFFSET %s LIMIT 1',
            (text, like_row),
        )


def run_on(collection: str, url: str, tmp_path: Path, *extra: str):  # noqa: ANN201
    return run_cli(
        "graph.run", "--collection", collection, "--count", "2", "--llm", SCRIPTED, "--dedup-threshold", "0",
        "--database-url", url, "--runs-dir", str(tmp_path / "runs"), *extra,
    )  # fmt: skip


def test_a_collection_with_fewer_chunks_than_hops_plus_one(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    copy_of(pg_url, demo_slice, "bad_two_chunks", 2)
    result = run_on("bad_two_chunks", pg_url, tmp_path)
    assert_one_line_error(result, "has 2 usable chunk(s) of 2", "needs at least 3", "--hops")
    copy_of(pg_url, demo_slice, "bad_three_chunks", 3)
    assert_one_line_error(run_on("bad_three_chunks", pg_url, tmp_path, "--hops", "3"), "needs at least 4")


def test_a_collection_of_blank_chunks_only(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    copy_of(pg_url, demo_slice, "bad_blank", 1)
    for text in ("", "   ", "\n\t \r\n", " "):
        add_chunk(pg_url, "bad_blank", text)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE bad_blank SET content = ' ' WHERE length(btrim(content)) > 0")
    assert_one_line_error(run_on("bad_blank", pg_url, tmp_path), "has 0 usable chunk(s) of 5", "blank chunks")


def test_chunks_too_short_to_seed_from(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    copy_of(pg_url, demo_slice, "bad_short", 4)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE bad_short SET content = 'VACUUM ' || langchain_id::text")
    assert_one_line_error(run_on("bad_short", pg_url, tmp_path), "200 characters a seed needs", "--chunk-size")
    assert_one_line_error(
        run_on(demo_slice, pg_url, tmp_path, "--min-chunk-chars", "100000"), "100000 characters", "--min-chunk-chars"
    )


def test_blank_and_megabyte_chunks_never_reach_a_prompt(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    copy_of(pg_url, demo_slice, "bad_mixed", 40)
    for row in range(0, 40, 4):
        add_chunk(pg_url, "bad_mixed", " \n ", like_row=row)
        add_chunk(pg_url, "bad_mixed", f"{HUGE_MARKER} " + "autovacuum VACUUM WAL " * 48_000, like_row=row + 1)
    with psycopg.connect(pg_url) as conn:
        largest = conn.execute("SELECT max(length(content)) FROM bad_mixed").fetchone()[0]
    assert largest > 1_000_000
    recording = tmp_path / "calls.jsonl"
    result = run_on("bad_mixed", pg_url, tmp_path, "--seed", "3", "--record-llm", str(recording))
    assert result.returncode == 0, result.stderr
    assert "note: 20 chunk(s) of 'bad_mixed' are blank or over 20000 characters and are never used" in result.stderr
    requests = recording.read_text()
    assert requests.count('"key"') >= 10  # the run did call the model
    assert HUGE_MARKER not in requests
    for line in requests.splitlines():
        for message in json.loads(line)["messages"]:
            assert '">\n \n \n</' not in message["content"]  # no blank chunk between delimiters
    (folder,) = (tmp_path / "runs").iterdir()
    for line in (folder / "dataset.jsonl").read_text().splitlines() + (
        folder / "rejected.jsonl"
    ).read_text().splitlines():
        assert HUGE_MARKER not in line


def test_a_larger_limit_from_the_environment_lets_big_chunks_in(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    copy_of(pg_url, demo_slice, "bad_limit", 3)
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE bad_limit SET content = repeat('autovacuum ', 2000)")  # 22,000 characters each
    assert_one_line_error(run_on("bad_limit", pg_url, tmp_path), "has 0 usable chunk(s) of 3")
    result = run_cli(
        "graph.run", "--collection", "bad_limit", "--count", "1", "--llm", SCRIPTED, "--dedup-threshold", "0",
        "--database-url", pg_url, "--runs-dir", str(tmp_path / "runs"),
        env={"TRIAD_MAX_CHUNK_CHARS": "30000"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_files_that_cannot_be_read_are_one_line_each_and_end_in_one_error_when_nothing_is_left(
    pg_url: str, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "garbled.txt").write_bytes(bytes(range(128, 256)) * 8)
    (docs / "notes.jsonl").write_text('{"text": "ok"}\n{"id": 1}\n')
    result = run_cli("graph.ingest", str(docs), "--collection", "bad_files", "--database-url", pg_url)
    assert_one_line_error(result, "no text to ingest in", "2 skipped")
    assert result.stderr.strip().splitlines()[:2] == [
        "skipped garbled.txt: is not UTF-8 text (byte 0) and its encoding is unclear; convert it to UTF-8",
        'skipped notes.jsonl: has a line 2 that is not a JSON object with a "text" field; fix it',
    ]
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT to_regclass('bad_files')").fetchone()[0] is None  # nothing half-written


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--count", "-3"), "--count must be a positive number"),
        (("--count", "2", "--concurrency", "-1"), "--concurrency must be at least 1"),
        (("--count", "2", "--max-revisions", "-1"), "--max-revisions must be a whole number of at least 0"),
        (("--count", "2", "--llm", "nosuch:model"), "unknown model provider"),
        (("--count", "2", "--node", "bridge=nosuch"), "bridge"),
        (("--count", "2", "--max-cost-usd", "-5"), "invalid value for max_cost_usd"),
        (("--count", "4", "--query-styles", "natural=0.5,keyword=0.4"), "make them sum to 1"),
        (("--count", "4", "--query-styles", "natural=0.5,slang=0.5"), "unknown style 'slang'"),
        (("--count", "4", "--query-styles", "natural=1.5,keyword=-0.5"), "a share from 0 to 1"),
        (("--count", "4", "--query-styles", "natural"), "STYLE=SHARE pairs"),
        (("--count", "4", "--binary", "yes", "--query-styles", "keyword=1"), "lower the keyword share"),
        (("--count", "4", "--role", "a dba", "--personas", "tests/data/personas.yaml"), "not both"),
        (("--count", "4", "--personas", "tests/data/personas_no_name.yaml"), "persona 2 has no name"),
        (("--count", "4", "--personas", "tests/data/personas_bad_share.json"), "give a share from 0 to 1"),
        (("--count", "4", "--personas", "no/such/personas.yaml"), "cannot read"),
    ],
)
def test_bad_run_values(args: tuple[str, ...], fragment: str, tmp_path: Path) -> None:
    result = run_cli("graph.run", "--demo", *args, env={"TRIAD_HOME": str(tmp_path)})
    assert_one_line_error(result, fragment)


@pytest.mark.parametrize(
    ("env", "toml", "fragment"),
    [
        ({"TRIAD_REQUESTS_PER_SECOND": "fast"}, "", "invalid value for requests_per_second"),
        ({"TRIAD_LEASE_SECONDS": "-1"}, "", "invalid value for lease_seconds"),
        ({}, "max_concurrent_requests = 0\n", "invalid value for max_concurrent_requests"),
        ({}, "colection = 'typo'\n", "unknown setting 'colection'"),
        ({}, "[prices\n", "is not valid TOML"),
    ],
)
def test_invalid_configuration_values(env: dict[str, str], toml: str, fragment: str, tmp_path: Path) -> None:
    config = tmp_path / "triad.toml"
    config.write_text(toml)
    result = run_cli("graph.run", "--demo", "--llm", SCRIPTED, env={**env, "TRIAD_CONFIG": str(config)})
    assert_one_line_error(result, fragment)


@pytest.mark.parametrize("module", ["graph.evaluate", "graph.export"])
def test_a_dataset_with_a_corrupt_line_names_the_line(module: str, tmp_path: Path) -> None:
    dataset = tmp_path / "dataset.jsonl"
    dataset.write_bytes(b'{"id": "x", "question": "trunc')
    extra = ("--setup", f"k3=k=3,model={SCRIPTED}") if module == "graph.evaluate" else ("--format", "csv")
    assert_one_line_error(run_cli(module, str(dataset), *extra), "line 1 is not a valid record", "fix or remove")
    dataset.write_bytes(b"\n\xff\xfe not utf-8\n")
    assert_one_line_error(run_cli(module, str(dataset), *extra), "line 2 is not a valid record")


@pytest.mark.parametrize("module", ["graph.evaluate", "graph.export"])
def test_a_dataset_without_records_is_one_line_and_writes_nothing(module: str, tmp_path: Path) -> None:
    dataset = tmp_path / "dataset.jsonl"
    dataset.write_text("\n")  # a run that accepted no sample
    extra = ("--setup", f"k3=k=3,model={SCRIPTED}") if module == "graph.evaluate" else ("--format", "csv")
    assert_one_line_error(run_cli(module, str(dataset), *extra), "holds no accepted sample", "rejected.jsonl")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["dataset.jsonl"]


def test_abbreviated_options_are_refused_not_guessed() -> None:
    # `--llm` must never be taken for `--llm-base-url`, nor `--coll` for `--collection`.
    result = run_cli("graph.run", "--coll", "docs", "--count", "1")
    assert_one_line_error(result, "unrecognized arguments: --coll", "see python -m graph.run --help")


@pytest.mark.parametrize(
    ("module", "arguments", "fragment"),
    [
        ("graph.run", ("--hops", "5"), "argument --hops: invalid choice: 5"),
        ("graph.run", ("--count", "many"), "argument --count: invalid int value: 'many'"),
        ("graph.export", ("some-run", "--format", "xml"), "argument --format: invalid choice: 'xml'"),
        ("graph.evaluate", (), "the following arguments are required: dataset, --setup"),
        ("graph.db", ("restart",), "argument action: invalid choice: 'restart'"),
        ("graph.db", (), "the following arguments are required: action (status|start|stop)"),
    ],
)
def test_a_refused_option_is_one_line_not_the_usage_block(
    module: str, arguments: tuple[str, ...], fragment: str
) -> None:
    result = run_cli(module, *arguments)
    assert_one_line_error(result, fragment, f"see python -m {module} --help")
    assert "usage:" not in result.stderr


def runs_begun(url: str) -> int:
    """How many runs the state database records (none before its first run made the table)."""
    with state_connection(url) as conn:
        found = conn.execute("SELECT to_regclass('triad_runs') IS NOT NULL").fetchone()
        counted = conn.execute("SELECT count(*) FROM triad_runs").fetchone() if found and found[0] else (0,)
    return counted[0] if counted else 0


def test_a_runs_folder_that_cannot_be_made(pg_url: str, demo_slice: str, tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    runs_before = runs_begun(pg_url)
    result = run_on(demo_slice, pg_url, tmp_path, "--runs-dir", str(tmp_path / "a-file" / "runs"))
    assert_one_line_error(result, "cannot create", "Not a directory", "--runs-dir")
    assert runs_begun(pg_url) == runs_before  # no run was begun


@pytest.mark.parametrize(
    ("module", "args", "fragment"),
    [
        ("graph.run", ("--demo", "--count", "1", "--run-id", "../elsewhere"), "run id '../elsewhere' cannot be used"),
        ("graph.run", ("--resume", "a/b"), "run id 'a/b' cannot be used"),
        ("graph.run", ("--demo", "--count", "1", "--dedup-threshold", "2"), "--dedup-threshold is a cosine"),
        ("graph.replay", ("../elsewhere", "--list"), "cannot be used"),
        ("graph.replay", ("r1", "--sample", "0", "--set", "drafts=5"), "--set drafts: Input should be a valid list"),
        ("graph.replay", ("r1", "--sample", "0", "--set", "question_type=bogus"), "--set question_type: Input"),
        ("graph.replay", ("r1", "--sample", "0", "--set", "nosuch=1"), "has no such key"),
    ],
)
def test_bad_names_and_values_fail_before_any_work(module: str, args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run_cli(module, *args, "--database-url", "postgresql://nobody@127.0.0.1:1/none"), fragment)


def test_a_config_file_that_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "folder.toml").mkdir()
    (tmp_path / "latin1.toml").write_bytes("collection = 'caf\xe9'\n".encode("latin-1"))
    for name, fragment in (("folder.toml", "cannot read the config file"), ("latin1.toml", "is not UTF-8")):
        result = run_cli("graph.run", "--demo", "--llm", SCRIPTED, env={"TRIAD_CONFIG": str(tmp_path / name)})
        assert_one_line_error(result, fragment)


def test_paths_under_a_file_fail_with_the_flag_to_fix(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    result = run_cli("graph.db", "start", "--home", str(tmp_path / "a-file" / "home"))
    assert_one_line_error(result, "cannot create the embedded database's folder", "--home")
    result = run_cli(
        "graph.run", "--demo", "--count", "1", "--llm", SCRIPTED, "--record-llm", str(tmp_path / "a-file" / "rec.jsonl")
    )
    assert_one_line_error(result, "cannot write the model recording", "--record-llm")


def test_a_hosted_embedding_without_its_key(pg_url: str, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# Vacuum\n\nVACUUM reclaims storage occupied by dead tuples.\n")
    result = run_cli(
        "graph.ingest", str(tmp_path / "docs"), "--collection", "bad_hosted", "--embedding",
        "google_genai:text-embedding-004", "--database-url", pg_url,
    )  # fmt: skip
    assert_one_line_error(result, "needs an API key: set GOOGLE_API_KEY", "--embedding minilm")


def test_a_missing_collection_begins_no_run(pg_url: str, tmp_path: Path) -> None:
    result = run_on("bad_nosuch", pg_url, tmp_path, "--run-id", "never-begun")
    assert_one_line_error(result, "bad_nosuch")
    with state_connection(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM triad_runs WHERE run_id = 'never-begun'").fetchone() == (0,)
