"""Languages: detection on real chunks, a sample's language, yes/no words, lengths without spaces, abstentions."""

from __future__ import annotations

import pytest

from graph.config.settings import Settings
from graph.demo import load_demo_chunks
from graph.evaluation.scoring.metrics import says_abstain
from graph.planning.languages import LanguageSurvey, evaluation_note, language_notes
from graph.planning.options import InvalidOptions, RunOptions
from graph.run import build_parser
from graph.running.flags import run_request
from nodes.common import mentions, normalised_answer, word_count
from nodes.language import chunks_language, detect_language, language_shares
from state.languages import LANGUAGE_NAMES, YES_NO, check_language_code, polarity, written_answer
from tests.support.manuals import manual_rows
from tests.support.records import answerable_record


def manual_texts(language: str) -> list[str]:
    return [row["text"] for row in manual_rows(language)]


@pytest.mark.parametrize("language", ["de", "fr", "es", "ja"])
def test_the_manuals_chunks_are_detected_in_their_language(language: str) -> None:
    texts = manual_texts(language)
    shares = dict(language_shares(texts))
    # The translations keep some paragraphs in English, as Debian ships them: the manual's own language leads.
    assert max(shares, key=shares.get) == language and shares[language] > 0.8, shares  # type: ignore[arg-type]


def test_english_chunks_and_text_without_language() -> None:
    assert [detect_language(chunk.text) for chunk in load_demo_chunks()[:50]].count("en") >= 48
    assert detect_language("4096 8192 16384 -- 42") is None
    assert detect_language("") is None


def test_a_samples_language_is_its_chunks_or_its_seeds_when_they_differ() -> None:
    german, spanish = manual_texts("de")[3], manual_texts("es")[3]
    assert chunks_language([german, german]) == "de"
    assert chunks_language([spanish, german], lead=spanish) == "es"
    assert chunks_language([spanish, german], lead=german) == "de"
    assert chunks_language(["1234 5678"], lead="9999") == "en"  # nothing shows a language


@pytest.mark.parametrize(
    ("answer", "language", "said", "written"),
    [
        ("ja.", "de", "yes", "Ja"),
        ("NEIN", "de", "no", "Nein"),
        ("Oui", "fr", "yes", "Oui"),
        ("si", "es", "yes", "Sí"),
        ("はい。", "ja", "yes", "はい"),
        ("Yes", "de", None, "Yes"),  # English in a German sample is no German answer (lint says so)
        ("Yes.", "en", "yes", "Yes"),
        ("ใช่", "th", None, "ใช่"),  # no table for Thai: kept as written
    ],
)
def test_yes_and_no_are_the_languages_own_words(answer: str, language: str, said: str | None, written: str) -> None:
    assert polarity(answer, language) == said
    assert written_answer(answer, language) == written
    assert normalised_answer(answer, binary=True, language=language) == written
    assert normalised_answer(answer, binary=False, language=language) == answer.strip()


def test_every_language_with_yes_no_words_has_a_name() -> None:
    assert set(YES_NO) <= set(LANGUAGE_NAMES)
    assert check_language_code("de") is None
    assert "ISO 639-1" in (check_language_code("german") or "") and check_language_code("xx")
    with pytest.raises(InvalidOptions, match="--question-language"):
        RunOptions(question_language="deu")


def test_lengths_count_words_where_a_script_has_no_spaces() -> None:
    assert word_count("Which setting controls the launcher?") == 5
    assert word_count("シェルプロンプトとは何ですか？") == 8  # 15 characters: two to a word
    assert word_count("GUI の下でのシェルプロンプト") == 1 + 6  # "GUI", then 12 characters
    assert mentions("東京の首都はどこですか", "東京") and mentions("GUIの下で", "GUI") and not mentions("GUIs", "GUI")


@pytest.mark.parametrize(
    "answer",
    ["I don't know", "Ich weiß es nicht.", "Das weiß ich nicht", "Die Kontexte enthalten keine Informationen dazu.",
     "Je ne sais pas.", "No lo sé.", "No hay información suficiente.", "わかりません。"],
)  # fmt: skip
def test_an_abstention_is_recognised_in_the_questions_language(answer: str) -> None:
    assert says_abstain(answer)


@pytest.mark.parametrize("answer", ["Nein", "Non", "No", "Berlin", "Sí", "いいえ"])
def test_an_answer_is_no_abstention(answer: str) -> None:
    assert not says_abstain(answer)


def test_the_run_says_once_what_its_languages_mean() -> None:
    german = LanguageSurvey([("de", 0.9), ("en", 0.08), ("und", 0.02)], 200)
    notes = language_notes(german, RunOptions(), "minilm")
    assert len(notes) == 1 and "knows English only" in notes[0] and "German" in notes[0]
    assert "the duplicate check" in notes[0] and "--embedding" in notes[0]
    assert language_notes(german, RunOptions(dedup_threshold=0), "minilm") == []  # nothing re-embedded
    assert language_notes(german, RunOptions(), "sentence-transformers:/models/multilingual") == []
    japanese = LanguageSurvey([("ja", 1.0)], 50)
    (lint,) = language_notes(japanese, RunOptions(dedup_threshold=0), "minilm")
    assert "Japanese (ja)" in lint and "language-neutral" in lint
    english_questions = language_notes(german, RunOptions(question_language="en"), "minilm")
    assert english_questions == []  # questions in English: lint has rules, the model knows it
    assert german.line("docs") == "languages of 'docs' (200 chunks sampled): German 90%, English 8%, unknown 2%"


def test_the_question_language_of_triad_toml_applies_to_new_runs_and_a_flag_is_read_in_any_case() -> None:
    settings = Settings(question_language="de")
    parser = build_parser()
    assert run_request(parser.parse_args(["--count", "2"]), settings).options.question_language == "de"
    assert run_request(parser.parse_args(["--question-language", "EN"]), settings).options.question_language == "en"
    resumed = run_request(parser.parse_args(["--resume", "earlier"]), settings)  # the run keeps its own
    assert resumed.options.question_language is None


def test_an_evaluation_says_when_the_english_only_model_embeds_another_language() -> None:
    english, unsaid = answerable_record(language="en"), answerable_record(language=None)
    records = [answerable_record(language="de"), english, unsaid]
    note = evaluation_note(records, "minilm")
    assert note is not None and "German" in note and "--embedding" in note
    assert evaluation_note([english, unsaid], "minilm") is None
    assert evaluation_note(records, "sentence-transformers:/models/multilingual") is None
