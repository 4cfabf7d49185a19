"""LangGraph Studio step debugging: `langgraph dev` serves the sample graph; the SDK drives a run
with an interrupt before judge_quality, reads and edits the draft, and resumes it. No network."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.commands import REPO_ROOT


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def checkout_config(folder: Path) -> Path:
    """The checkout's langgraph.json with its paths made absolute, written to `folder`: `langgraph dev` finds
    graphs from its working folder and keeps its in-memory runtime's files in `.langgraph_api` there, so
    it runs in `folder`, not in the checkout."""
    config = json.loads((REPO_ROOT / "langgraph.json").read_text())
    config["dependencies"] = [str(REPO_ROOT / dependency) for dependency in config["dependencies"]]
    config["graphs"] = {name: str(REPO_ROOT / spec) for name, spec in config["graphs"].items()}
    path = folder / "langgraph.json"
    path.write_text(json.dumps(config))
    return path


@pytest.fixture
def studio_server(pg_url: str, demo_slice: str, tmp_path: Path) -> Iterator[str]:
    port = free_port()
    langgraph = Path(os.sys.executable).parent / "langgraph"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("TRIAD_")},
        "TRIAD_DATABASE_URL": pg_url,
        "TRIAD_COLLECTION": demo_slice,
        "TRIAD_LLM": "offline:plausible",
        "LANGSMITH_TRACING": "false",
    }
    log = (tmp_path / "langgraph-dev.log").open("w")
    server = subprocess.Popen(
        [str(langgraph), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port),
         "--config", str(checkout_config(tmp_path))],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"{url}/ok", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            assert server.poll() is None, (tmp_path / "langgraph-dev.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "langgraph dev did not start"
            time.sleep(0.5)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its children, by the PID we started
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=10)
        log.close()


def test_studio_interrupt_read_edit_and_resume(studio_server: str, seed_chunk_id: str) -> None:
    from langgraph_sdk import get_client

    async def drive() -> tuple[dict, dict, dict]:
        client = get_client(url=studio_server)
        (assistant,) = await client.assistants.search(graph_id="triad_sample")
        schemas = await client.assistants.get_schemas(assistant["assistant_id"])
        thread = await client.threads.create()
        spec = {"question_type": "comparison", "binary": False, "seed_id": seed_chunk_id}
        await client.runs.wait(thread["thread_id"], "triad_sample", input=spec, interrupt_before=["judge_quality"])
        paused = await client.threads.get_state(thread["thread_id"])
        draft = dict(paused["values"]["drafts"][-1])
        draft["question"] = "Which one " + draft["question"].removeprefix("Which ")
        await client.threads.update_state(thread["thread_id"], {"drafts": [draft]})
        final = await client.runs.wait(thread["thread_id"], "triad_sample", input=None)
        return schemas, paused, final

    schemas, paused, final = asyncio.run(drive())
    assert set(schemas["input_schema"]["properties"]) >= {"question_type", "binary", "role", "hops", "seed_id"}
    assert {"generator_model", "validator_model", "extractor_model", "max_revisions"} <= set(
        schemas["context_schema"]["properties"]
    )
    assert "services" not in schemas["context_schema"]["properties"]
    assert paused["next"] == ["judge_quality"]
    assert paused["values"]["drafts"][-1]["question"]
    assert final["outcome"] == "accepted"
    assert final["record"]["question"].startswith("Which one ")
