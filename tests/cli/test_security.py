"""Security as users need it: the vector store is only read, names are quoted, keys never leak,
and document text cannot steer how replies are parsed or which record is written."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from graph.llm.offline.plausible import PLAUSIBLE_SCRIPT
from tests.support.commands import assert_one_line_error, run_cli, state_connection

SCRIPTED = "offline:plausible"
CANARY_GOOGLE = "AIzaCANARY-google-5f1e8b2c9d"
CANARY_OPENAI = "sk-CANARY-openai-7a3d9e4f1b"


def table_digest(url: str, table: str) -> str:
    with psycopg.connect(url) as conn:
        return conn.execute(
            f"SELECT md5(string_agg(t::text, '|' ORDER BY t.langchain_id)) FROM \"{table}\" t"
        ).fetchone()[0]


def test_a_run_reads_the_store_through_a_select_only_role_and_changes_nothing(
    pg_url: str, scale_collection: str, tmp_path: Path
) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS triad_select_only")
        conn.execute("CREATE ROLE triad_select_only LOGIN")
        conn.execute(f'GRANT SELECT ON "{scale_collection}" TO triad_select_only')
    reader_url = pg_url.replace("postgresql://postgres:", "postgresql://triad_select_only:", 1)
    with psycopg.connect(reader_url) as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute(f'DELETE FROM "{scale_collection}"')
    before = table_digest(pg_url, scale_collection)
    result = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "2", "--llm", SCRIPTED, "--dedup-threshold", "0",
        "--database-url", reader_url, "--state-url", pg_url, "--runs-dir", str(tmp_path),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert table_digest(pg_url, scale_collection) == before


@pytest.mark.parametrize(
    "name", ['x"; DROP TABLE demo_slice; --', "demo_slice; DROP TABLE demo_slice", "demo_slice' OR '1'='1"]
)
def test_a_hostile_collection_name_is_quoted_never_executed(
    pg_url: str, demo_slice: str, name: str, tmp_path: Path
) -> None:
    result = run_cli(
        "graph.run", "--collection", name, "--count", "1", "--llm", SCRIPTED, "--database-url", pg_url,
        "--runs-dir", str(tmp_path),  # the checkout gets no runs folder
    )  # fmt: skip
    assert_one_line_error(result, "not found")
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM demo_slice").fetchone()[0] > 0


# -- API keys never leak ---------------------------------------------------------------------------


def from_wire(message: dict[str, Any]) -> BaseMessage:
    kinds = {"system": SystemMessage, "user": HumanMessage, "assistant": AIMessage}
    return kinds[message["role"]](content=message["content"])


class PlausibleOpenAI(BaseHTTPRequestHandler):
    """An OpenAI-compatible server answering like the plausible script; it keeps the keys it was sent."""

    keys: set[str] = set()
    errors: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).keys.add(self.headers.get("Authorization", ""))
        try:
            schema = body["response_format"]["json_schema"]["name"]
            answer = PLAUSIBLE_SCRIPT[schema]([from_wire(m) for m in body["messages"]])
        except Exception as error:  # a test failure should name it, not look like a network error
            type(self).errors.append(f"{type(error).__name__}: {error} in {json.dumps(body)[:300]}")
            raise
        content = json.dumps(answer)
        payload = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def openai_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), PlausibleOpenAI)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


def holds(value: Any, secrets: tuple[str, ...]) -> bool:
    if isinstance(value, memoryview | bytes | bytearray):
        return any(secret.encode() in bytes(value) for secret in secrets)
    return any(secret in str(value) for secret in secrets)


def test_api_keys_never_reach_logs_run_files_checkpoints_records_or_reports(
    pg_url: str, scale_collection: str, openai_server: str, tmp_path: Path
) -> None:
    secrets = (CANARY_GOOGLE, CANARY_OPENAI)
    env = {
        "GOOGLE_API_KEY": CANARY_GOOGLE,
        "OPENAI_API_KEY": CANARY_OPENAI,
        "TRIAD_DATABASE_URL": pg_url,
        "TRIAD_RUNS_DIR": str(tmp_path / "runs"),
        "TRIAD_LLM_BASE_URL": openai_server,
    }
    model = "openai:stub-model"
    run = run_cli(
        "graph.run", "--collection", scale_collection, "--count", "3", "--llm", model, "--dedup-threshold", "0",
        "--run-id", "canary", "--record-llm", str(tmp_path / "calls.jsonl"), "--log-json", "--log-level", "debug",
        env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert PlausibleOpenAI.keys == {f"Bearer {CANARY_OPENAI}"}  # the key was really used
    evaluate = run_cli("graph.evaluate", "canary", "--setup", f"k3=k=3,model={model}", "--llm", model, env=env)
    assert evaluate.returncode == 0, (evaluate.stderr, PlausibleOpenAI.errors)
    export = run_cli("graph.export", "canary", "--format", "ragas", env=env)
    assert export.returncode == 0, export.stderr

    outputs = [run.stdout, run.stderr, evaluate.stdout, evaluate.stderr, export.stdout, export.stderr]
    assert not any(holds(text, secrets) for text in outputs)
    files = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert {"dataset.jsonl", "run.json", "report.html", "eval-report.html", "calls.jsonl"} <= {p.name for p in files}
    assert [path for path in files if holds(path.read_bytes(), secrets)] == []
    run_json = json.loads((tmp_path / "runs" / "canary" / "run.json").read_text())
    assert "google_api_key" not in run_json["settings"] and "openai_api_key" not in run_json["settings"]

    with state_connection(pg_url) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'triad'"
            ).fetchall()
        ]
        assert {"checkpoints", "checkpoint_blobs", "checkpoint_writes", "triad_runs", "triad_samples"} <= set(tables)
        leaking = []
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"').fetchall():
                if any(holds(value, secrets) for value in row):
                    leaking.append(table)
                    break
    assert leaking == []
