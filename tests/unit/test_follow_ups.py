"""Follow-up questions: the conversation reaches the RAG setup as a user's would (the answerer reads it, the url
service receives it as `history`), and the deterministic check holds a follow-up's turns to what it must keep."""

from __future__ import annotations

import asyncio
import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

from graph.evaluation.answering.asking import ask_service, history_of
from graph.evaluation.answering.rag import answer_from
from nodes.lint.restyle import restyle_problems
from tests.support.records import answerable_record

CANONICAL = 'Which comes earlier in the PostgreSQL 15 manual, "Routine Vacuuming" or "Backup and Restore"?'
COMPARED = ["Routine Vacuuming", "Backup and Restore"]
TURNS = [
    {"role": "user", "content": 'I am reading about "Routine Vacuuming" in the PostgreSQL 15 manual.'},
    {"role": "assistant", "content": "Sure, what would you like to know about it?"},
    {"role": "user", "content": 'Does it come before "Backup and Restore"?'},
]


class Answerer:
    """Stands in for the gateway: keeps the request, answers with a fixed reply."""

    def __init__(self) -> None:
        self.asked: list[Any] = []

    async def ask(self, role: str, schema: Any, messages: list[Any], *, node: str) -> tuple[Any, dict]:
        self.asked.append(messages)
        return schema(answer="Routine Vacuuming"), {"node": node}


def test_the_built_in_answerer_reads_the_turns_before_the_question() -> None:
    llm = Answerer()
    history = history_of(answerable_record(question=TURNS[-1]["content"], turns=TURNS))
    assert [turn["role"] for turn in history] == ["user", "assistant"]
    asyncio.run(answer_from(TURNS[-1]["content"], [{"text": "25.1. Routine Vacuuming"}], llm, history))
    prompt = str(llm.asked[0][-1].content)
    assert prompt.index("User: I am reading about") < prompt.index('Does it come before "Backup and Restore"?')
    asyncio.run(answer_from("What is VACUUM?", [{"text": "x"}], llm))
    assert "earlier turns" not in str(llm.asked[1][-1].content)


def test_a_url_setup_receives_the_conversation_as_history() -> None:
    received: list[dict] = []

    class Service(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - the handler's name
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            body = json.dumps({"answer": "Routine Vacuuming", "contexts": [{"id": "1", "text": "t"}]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Service)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/rag"
        answer, contexts = ask_service(url, TURNS[-1]["content"], TURNS[:-1])
        ask_service(url, "What is VACUUM?")
    finally:
        server.shutdown()
        server.server_close()
    assert answer == "Routine Vacuuming" and contexts == [{"id": "1", "text": "t"}]
    assert received[0] == {"question": TURNS[-1]["content"], "history": TURNS[:-1]}
    assert received[1] == {"question": "What is VACUUM?"}  # a question that follows nothing has no history


def follow_up(question: str, opening: str, reply: str = "Sure, what about it?", **fixed: Any) -> set[str]:
    findings = restyle_problems(
        CANONICAL, question, "follow-up", answer="Routine Vacuuming", question_type="comparison",
        compared=COMPARED, turns=[opening, reply], **fixed,
    )  # fmt: skip
    return {rule for rule, _ in findings}


def test_a_follow_up_keeps_its_entities_across_the_turns_and_leans_on_the_opening() -> None:
    opening = TURNS[0]["content"]
    assert follow_up(TURNS[-1]["content"], opening) == set()
    assert follow_up("Which comes earlier, it or the backup chapter?", opening) == {"term_dropped"}
    assert follow_up(CANONICAL.replace("Which", "So which"), opening) == {"follow_up_standalone"}
    assert follow_up(TURNS[-1]["content"], "") == {"follow_up_turns"}
    assert follow_up(TURNS[-1]["content"], opening, "It is section 25.1, which comes first.") == {"assistant_fact"}
    assert "meta_reference" in follow_up(TURNS[-1]["content"], "According to the provided text, " + opening)
    assert "number_dropped" in follow_up(TURNS[-1]["content"], 'I am reading about "Routine Vacuuming".')
