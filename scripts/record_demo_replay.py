"""Record the demo replay file: a scripted run over the demo corpus, every request kept.

    python scripts/record_demo_replay.py     # writes graph/demo/demo_replay.jsonl

The scripted model answers like a cautious model would, from what each prompt contains: a bridge
from entities the chunks really share, questions built from the chunks' section headings, judges
that accept well-formed drafts. `python -m graph.run --demo --count 6 --seed 7 --llm
replay:graph/demo/demo_replay.jsonl` then repeats the run offline, request for request.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm import build_gateway
from graph.logs import configure_logging
from graph.run import build_parser, run_command
from graph.scripted import ScriptedChatModel
from graph.settings import resolve_settings
from nodes.bridge import entity_spans
from nodes.common import mentions

OUTPUT = Path(__file__).resolve().parent.parent / "graph" / "demo" / "demo_replay.jsonl"
RUN_ARGS = ["--demo", "--count", "6", "--seed", "7", "--no-llm-cache"]

_TAGGED = re.compile(r'<(chunk|candidate|question|answer) label="([^"]+)">\n(.*?)\n</\1>', re.S)


def tagged(messages: list[BaseMessage], tag: str) -> dict[str, str]:
    text = str(messages[-1].content)
    return {label: body for kind, label, body in _TAGGED.findall(text) if kind == tag}


def heading(text: str) -> str:
    return text.split("\n", 1)[0].strip()


def section(text: str) -> tuple[str, str]:
    """(number, title) of a chunk's first line, e.g. ("25.1", "Routine Vacuuming")."""
    match = re.match(r"(\d+(?:\.\d+)*)\.\s+(.*)", heading(text))
    return (match.group(1), match.group(2)) if match else ("", heading(text)[:60])


def propose(messages: list[BaseMessage]) -> dict[str, Any]:
    chunks = tagged(messages, "chunk")
    hops = int(re.search(r"at least (\d+)", str(messages[-1].content)).group(1))  # type: ignore[union-attr]
    entities = {label: entity_spans(text)[:12] for label, text in chunks.items()}
    listed = [{"chunk": label, "entities": names} for label, names in entities.items()]
    for span in sorted(entities.get("C1", []), key=len, reverse=True):
        sharing = [label for label, text in chunks.items() if mentions(text, span)]
        numbered = [label for label in sharing if section(chunks[label])[0]]
        if len(numbered) >= hops:
            return {"topic": span, "chunks": numbered[:hops], "entities": listed}
    return {"topic": "", "chunks": [], "entities": listed}


def write_question(messages: list[BaseMessage]) -> dict[str, str]:
    prompt = str(messages[-1].content)
    chunks = tagged(messages, "chunk")
    topic = re.search(r"Bridging topic: (.*)", prompt).group(1).strip()  # type: ignore[union-attr]
    (number_a, title_a), (number_b, title_b) = section(chunks["A"]), section(chunks["B"])
    if 'exactly "Yes" or "No"' in prompt:
        same = number_a.split(".")[0] == number_b.split(".")[0]
        question = f'Are the PostgreSQL 15 manual sections "{title_a}" and "{title_b}" in the same chapter?'
        return {"question": question, "answer": "Yes" if same else "No"}
    if not (number_a and number_b):
        title_a, title_b = (re.sub(re.escape(topic), "...", title, flags=re.I) for title in (title_a, title_b))
        return {
            "question": f'Which term appears both in "{title_a}" and in "{title_b}" of the PostgreSQL 15 manual?',
            "answer": topic,
        }
    if "composition" in prompt:
        return {
            "question": f'What is the number of the manual section that shares a subject with "{title_b}"?',
            "answer": number_a,
        }
    if "intersection" in prompt:
        return {
            "question": f'Which section number of the PostgreSQL 15 manual covers both {topic} and "{title_b}"?',
            "answer": number_a,
        }
    earlier = min((number_a, number_b), key=lambda n: [int(part) for part in n.split(".") if part.isdigit()])
    return {
        "question": f'Which comes earlier in the PostgreSQL 15 manual, "{title_a}" or "{title_b}"?',
        "answer": earlier,
    }


def label_relevance(messages: list[BaseMessage]) -> dict[str, Any]:
    supporting = {heading(text) for text in tagged(messages, "chunk").values()}
    candidate = next(iter(tagged(messages, "candidate").values()))
    same_section = heading(candidate) in supporting
    return {"relevant": same_section, "reason": "same manual section" if same_section else "another section"}


def judge_quality(messages: list[BaseMessage]) -> dict[str, Any]:
    question = next(iter(tagged(messages, "question").values()))
    short = len(question.split()) <= 30
    return {
        "quality": short,
        "multi_hop": True,
        "unambiguous": short,
        "accepted": short,
        "reason": "" if short else "too long; shorten it",
    }


SCRIPT = {
    "BridgeProposal": propose,
    "QuestionDraft": write_question,
    "QualityVerdict": judge_quality,
    "SufficiencyVerdict": lambda messages: {"sufficient": False, "reason": "one heading is missing"},
    "TemporalLabel": lambda messages: {"temporal": "first" in str(messages[-1].content), "reason": "order of sections"},
    "RelevanceVerdict": label_relevance,
}


def main() -> None:
    configure_logging(level="warning")
    OUTPUT.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as runs:
        args = build_parser().parse_args([*RUN_ARGS, "--record-llm", str(OUTPUT), "--runs-dir", runs])
        args.collection, args.embedding = "triad_demo", "minilm"
        settings = resolve_settings({"collection": "triad_demo", "runs_dir": runs, "llm_cache": False})
        model = ScriptedChatModel(script=SCRIPT)
        gateway = build_gateway(
            settings, models={"generator": model, "validator": model, "extractor": model}, record_path=OUTPUT, seed=7
        )
        asyncio.run(run_command(args, settings, gateway))
        shutil.rmtree(runs, ignore_errors=True)
    print(f"recorded {len(OUTPUT.read_text().splitlines())} requests to {OUTPUT}")


if __name__ == "__main__":
    main()
