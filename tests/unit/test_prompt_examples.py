"""The prompts' example questions: each one the prompts quote is listed (`nodes.lint.examples.EXAMPLES`: those of
`prompts.examples` and each question type's in `prompts.generate`), and lint refuses a copy of every one of them,
in the languages lint has rules for, while real names and syntax with the same letters pass."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest

import prompts
from nodes.lint.examples import EXAMPLES
from nodes.lint.question import lint_problems

_QUOTED_QUESTION = re.compile(r'"([^"\n]{4,200}\?)"')


def _prompt_texts() -> Iterator[tuple[str, str]]:
    """Every UPPER_SNAKE string of every prompt module, and every string value of its UPPER_SNAKE dicts."""
    for module_info in pkgutil.iter_modules(prompts.__path__):
        module = importlib.import_module(f"prompts.{module_info.name}")
        for name, value in vars(module).items():
            if not name.isupper():
                continue
            values = value.values() if isinstance(value, dict) else [value]
            for text in values:
                if isinstance(text, str):
                    yield f"{module_info.name}.{name}", text


def test_every_question_a_prompt_quotes_is_a_listed_example() -> None:
    quoted = {
        (where, question)
        for where, text in _prompt_texts()
        for question in _QUOTED_QUESTION.findall(text)
        if where != "examples.EXAMPLES"
    }
    assert quoted, "the prompts quote no example question"
    assert {(where, q) for where, q in quoted if q not in EXAMPLES} == set()


def _refused(question: str, chunks: tuple[str, ...], language: str = "en") -> list[str]:
    draft = {"question": question, "answer": "an answer", "origin": "generate", "revision": 0}
    findings = lint_problems(
        draft,  # type: ignore[arg-type]
        question_type="intersection",
        binary=False,
        max_question_words=40,
        max_answer_words=20,
        language=language,
        chunks=chunks,
    )
    return [message for rule, message in findings if rule == "prompt_example"]


_CHUNKS = (
    "autovacuum_naptime (integer): Specifies the minimum delay between autovacuum runs on any given database.",
    "max_connections (integer): Determines the maximum number of concurrent connections to the database server.",
)


@pytest.mark.parametrize("example", list(EXAMPLES))
def test_a_copy_of_every_example_is_refused(example: str) -> None:
    assert _refused(example, _CHUNKS)


def test_the_refusal_names_the_placeholder_or_the_example() -> None:
    assert _refused("Which was founded earlier, X or Y?", _CHUNKS) == [
        "the question holds the placeholder 'X' where an entity belongs; name the entity the chunks give"
    ]
    (message,) = _refused("Which river is longer, the Danube or the Dnieper?", _CHUNKS)
    assert "copies the prompt's example 'Which river is longer, the Danube or the Dnieper?'" in message


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("de", "Welche wurde früher gegründet, X oder Y?"),
        ("fr", "Lequel a été fondé en premier, X ou Y ?"),
        ("es", "¿Cuál se fundó antes, X o Y?"),
        ("ja", "XとYのどちらが先に設立されましたか？"),
    ],
)
def test_a_translated_copy_is_refused_in_every_language(language: str, question: str) -> None:
    assert _refused(question, _CHUNKS, language)


@pytest.mark.parametrize(
    ("question", "chunks"),
    [
        ("Which X applications use the three-button mouse operations?", ("used by X applications such as xterm",)),
        ("Is the human Y chromosome shorter than the X chromosome?", ("the Y chromosome and the X chromosome",)),
        ("Does Mac OS X ship rsync?", ()),
        ("Which display server replaced the X Window System in GNOME?", ()),
        ("Which lock does ALTER TABLE ... DETACH PARTITION take?", ()),
        ("Which attribute of the <dir> element sets the prefix?", ('<dir prefix="default" salt="">',)),
        ("Which river is longer, the Danube or the Dnieper?", ("The Danube: 2,850 km.", "The Dnieper: 2,200 km.")),
    ],
)
def test_real_names_and_syntax_with_the_same_letters_pass(question: str, chunks: tuple[str, ...]) -> None:
    assert _refused(question, chunks) == []


def test_an_unanswerable_question_is_checked_against_its_seed_and_neighbours() -> None:
    from nodes.lint.question import chunks_read

    seed = {"id": "s", "text": "Never start the X server as root.", "metadata": {}}
    neighbour = {"id": "n", "text": "used by X applications such as xterm", "metadata": {}}
    chunks = [chunk["text"] for chunk in chunks_read({"seed": seed, "neighbours": [neighbour]})]  # type: ignore[typeddict-item]
    assert chunks == [seed["text"], neighbour["text"]]
    assert _refused("Which port does the X server of Debian 12 listen on?", tuple(chunks)) == []
