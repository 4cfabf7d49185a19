"""The plausible script's query styles: a rewrite of the accepted question per style, and a check that refuses a
rewrite that lost a quoted title or a number, or gives the answer away."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from langchain_core.messages import BaseMessage

from graph.llm.offline.reading import prompt, tagged
from nodes.common import normalise_question
from nodes.lint.restyle import numbers, recognisable

# A quoted title, or a word a user types as it is (a digit or an inner capital in it).
_KEPT = re.compile(r'"[^"]*"|«[^»]*»|「[^」]*」|\S*\d\S*|\S*[a-z][A-Z]\S*')
_ARTICLES = {"the", "a", "an", "der", "die", "das", "des", "le", "la", "les", "du", "el", "los", "las", "del"}
_FUNCTION_WORDS = _ARTICLES | set(
    " ".join(
        (
            "which what is are does do of in on to and or both that with comes appear appears",
            "welche welcher welches was ist sind im in und oder mit von hat steht",
            "quel quelle quels est sont dans de et ou avec qui",
            "qué cuál cuáles es son en y o con que está están",
        )
    ).split()
)
_SITUATION = {
    "en": "I am writing a runbook for our team and need to get this right.",
    "de": "Ich schreibe gerade eine Anleitung für unser Team und muss das genau wissen.",
    "fr": "Je rédige un guide pour notre équipe et je dois en être sûr.",
    "es": "Estoy escribiendo una guía para mi equipo y necesito saberlo bien.",
}
_STYLE = re.compile(r"^Style: (\S+)", re.MULTILINE)
_LANGUAGE_CODES = {"English": "en", "German": "de", "French": "fr", "Spanish": "es"}


def _pieces(question: str) -> list[tuple[str, bool]]:
    """The question as (text, kept) pieces: quoted titles and identifiers are kept as they are."""
    pieces, position = [], 0
    for match in _KEPT.finditer(question):
        pieces += [(word, False) for word in question[position : match.start()].split()]
        pieces.append((match.group(0), True))
        position = match.end()
    return pieces + [(word, False) for word in question[position:].split()]


def _bare(word: str) -> str:
    return word.strip("¿?¡!,.:;").casefold()


def keyword(question: str) -> str:
    words = [text.strip("?¿,") if kept else text for text, kept in _pieces(question)]
    return " ".join(w.strip("¿?,:") for w in words if _bare(w) not in _FUNCTION_WORDS and w.strip("¿?,:"))


def short(question: str) -> str:
    """The question word, then the key terms."""
    pieces = _pieces(question)
    head = pieces[0][0].strip("¿") if pieces else ""
    terms = keyword(question)
    return f"{terms}?" if terms.split()[:1] == [head] else f"{head} {terms}?".strip()


def misspelled(question: str) -> str:
    """Two typos (letters swapped in the two longest plain words) and accents left out."""
    plain = sorted(
        {text for text, kept in _pieces(question) if not kept and len(text) >= 5 and text.isalpha()}, key=len
    )[-2:]
    typed = question
    for word in plain:
        typed = typed.replace(word, word[0] + word[2] + word[1] + word[3:], 1)
    return "".join(c for c in unicodedata.normalize("NFKD", typed) if not unicodedata.combining(c))


def poor_grammar(question: str) -> str:
    """Articles left out; in a question without one, its first two words swapped."""
    pieces = _pieces(question)
    words = [text for text, kept in pieces if kept or _bare(text) not in _ARTICLES]
    if len(words) == len(pieces) and len(words) > 2:
        words[0], words[1] = words[1], words[0].lower()
    typed = " ".join(words)
    return typed if " ?" in question else typed.replace(" ?", "?")


def verbose(question: str, language: str) -> str:
    return f"{_SITUATION.get(language, _SITUATION['en'])} {question}"


_OPENINGS = {
    "en": ("I am reading about {anchor}.", "Sure, what would you like to know about it?", "that one"),
    "de": ("Ich lese gerade über {anchor}.", "Gern, was möchten Sie dazu wissen?", "diesen Abschnitt"),
    "fr": ("Je lis la partie sur {anchor}.", "D'accord, que voulez-vous savoir ?", "celle-ci"),
    "es": ("Estoy leyendo sobre {anchor}.", "Claro, ¿qué quiere saber?", "esa sección"),
}


def follow_up(question: str, language: str) -> dict[str, str]:
    """An opening that names the question's first quoted title, and the question referring back to it."""
    opening, reply, reference = _OPENINGS.get(language, _OPENINGS["en"])
    quoted = re.search(r'"[^"]+"|«[^»]+»|「[^」]+」', question)
    anchor = quoted.group(0) if quoted else " ".join(question.split()[1:4])
    rest = question.replace(anchor, reference) if quoted else question
    return {"first_turn": opening.format(anchor=anchor), "assistant_turn": reply, "question": rest}


def restyle(messages: list[BaseMessage]) -> dict[str, Any]:
    """A RestyledQuestion reply: the original question put in the style the request names."""
    text = prompt(messages)
    style = _STYLE.search(text).group(1)  # type: ignore[union-attr]
    language = re.search(r"^Language: (.+)$", text, re.MULTILINE).group(1).strip()  # type: ignore[union-attr]
    original = tagged(messages, "question")["original"]
    rewrites = {
        "keyword": keyword,
        "short": short,
        "misspelled": misspelled,
        "poor-grammar": poor_grammar,
        "verbose": lambda q: verbose(q, _LANGUAGE_CODES.get(language, "en")),
    }
    changes = f"put the question in the {style} style; kept every title and number"
    if style == "follow-up":
        return {"changes": changes, **follow_up(original, _LANGUAGE_CODES.get(language, "en"))}
    return {"changes": changes, "question": rewrites[style](original)}


def check_restyle(messages: list[BaseMessage]) -> dict[str, Any]:
    """Refuses a rewrite that lost a quoted title or a number of the original, or names the answer anew."""
    questions = tagged(messages, "question")
    original, rewrite = questions["original"], questions["rewrite"]
    answer = tagged(messages, "answer").get("reference", "")
    titles = re.findall(r'"([^"]+)"|«\s?([^»]+?)\s?»', original)
    lost = [t for pair in titles for t in pair if t and not recognisable(t, rewrite)]
    lost += [n for n in numbers(original) if n not in numbers(rewrite)]
    said = re.compile(rf"(?<!\w){re.escape(answer.casefold())}(?!\w)") if answer else None
    leaked = said is not None and not said.search(original.casefold()) and bool(said.search(rewrite.casefold()))
    differs = normalise_question(rewrite) != normalise_question(original) or rewrite != original
    accepted = not lost and not leaked and differs
    reason = f"the rewrite loses {', '.join(repr(x) for x in lost)}" if lost else "the rewrite gives the answer away"
    return {
        "reasoning": "compared the quoted titles and numbers of both questions",
        "same_request": not lost,
        "same_answer": not leaked,
        "same_sources": not lost,
        "in_style": differs,
        "accepted": accepted,
        "reason": "" if accepted else reason,
    }
