"""lint_question in German, French and Spanish (each language's own table), and in a language without rules.

Each row: language, question type, binary, question, answer, compared entities (comparison) or None,
and the rule a bad question breaks (None for a good one). As for English (test_lint.py), a rule must
never refuse what a careful reader accepts: the good rows hold the look-alikes.
"""

from __future__ import annotations

from typing import Any

import pytest

from nodes.lint.languages import LINT_RULES
from nodes.lint.question import lint_problems

ROWS: list[tuple[str, str, bool, str, str, list[str] | None, str | None]] = [
    # -- German --------------------------------------------------------------------------------
    ("de", "comparison", False, "Welcher Fluss ist länger, die Donau oder der Rhein?", "die Donau",
     ["die Donau", "der Rhein"], None),
    ("de", "comparison", False, "Welcher Fluss ist länger, die Donau oder der Rhein?", "Donau", None, "construction"),
    ("de", "comparison", False, "Welcher Fluss ist länger, die Donau oder der Rhein?", "die Elbe", None,
     "comparison_answer"),
    ("de", "intersection", False, "Welche Stadt war sowohl 1900 als auch 1924 Austragungsort der Olympischen "
     "Sommerspiele?", "Paris", None, None),
    ("de", "intersection", False, "Welcher Parameter steuert laut dem Text die Häufigkeit des Autovacuum-Launchers?",
     "autovacuum_naptime", None, "meta_reference"),
    ("de", "intersection", False, "Welche der im vorliegenden Dokument genannten Städte war zweimal Gastgeber?",
     "Paris", None, "meta_reference"),
    ("de", "intersection", False, "Welche oben genannte Stadt war zweimal Gastgeber der Spiele?", "Paris", None,
     "meta_reference"),
    ("de", "intersection", False, "Was regelt laut dem Text des Vertrags von Lissabon der Artikel 50?",
     "den Austritt", None, None),
    ("de", "intersection", False, "Welcher Parameter steuert den Autovacuum-Launcher, und was ist sein "
     "Standardwert?", "autovacuum_naptime", None, "two_questions"),
    ("de", "intersection", False, "Welcher Schauspieler spielte sowohl in Heat als auch in The Insider, und wo "
     "wurde er geboren?", "Al Pacino", None, "two_questions"),
    ("de", "composition", False, "In welcher Stadt wurde der Architekt des Opernhauses von Sydney geboren, und "
     "wo starb der Komponist?", "Kopenhagen", None, "two_questions"),
    ("de", "intersection", False, "Es spielte in Heat und in The Insider: welcher Schauspieler?", "Al Pacino", None,
     "opening_pronoun"),
    ("de", "intersection", False, "Dieser Parameter steuert welchen Prozess?", "den Launcher", None,
     "opening_pronoun"),
    ("de", "intersection", False, "Es gibt welchen Parameter für sowohl den Launcher als auch die Worker?",
     "autovacuum_max_workers", None, None),
    ("de", "intersection", False, "Welche Stadt hat sowohl die Sommerspiele 1900 als auch 1924 ausgerichtet?",
     "Ja", None, "yes_no_answer"),
    ("de", "composition", False, "Welche Hauptstadt hat das Land, in dem Paris liegt?", "Paris", None,
     "answer_in_question"),
    ("de", "intersection", True, "Spielte Al Pacino sowohl in Heat als auch in The Insider?", "Ja", None, None),
    ("de", "intersection", True, "Spielte Al Pacino sowohl in Heat als auch in The Insider?", "ja.", None, None),
    ("de", "intersection", True, "Spielte Al Pacino sowohl in Heat als auch in The Insider?", "Yes", None,
     "binary_answer"),
    ("de", "intersection", True, "Spielte Al Pacino sowohl in Heat als auch in The Insider?", "Vielleicht", None,
     "binary_answer"),
    ("de", "intersection", False, "Welche Frist gilt gemäß Abschnitt 4 der Satzung für beide Vereine?", "vier Wochen",
     None, None),
    ("de", "intersection", False, "Welche Option steht in beiden Units nach dem Abschnitt [Unit]?", "Description",
     None, None),
    ("de", "intersection", False, "Welches Zeichen folgt in beiden Formaten nach dem Text einer Fußnote?", "ein Stern",
     None, None),
    ("de", "intersection", False, "Was sagt der Text über apt und dpkg?", "beide verwalten Pakete", None,
     "meta_reference"),
    ("de", "intersection", False, "Im Dokument, welcher Befehl installiert Pakete?", "apt", None, "meta_reference"),
    ("de", "intersection", False, "Welcher Befehl installiert laut dem Dokument, das oben steht, Pakete?", "apt",
     None, "meta_reference"),
    # -- French --------------------------------------------------------------------------------
    ("fr", "comparison", False, "Lequel a été fondé le premier, la Royal Society ou l'Académie des sciences ?",
     "la Royal Society", ["la Royal Society", "l'Académie des sciences"], None),
    ("fr", "comparison", False, "Quel fleuve est le plus long, le Danube ou le Rhin ?", "Danube", None, "construction"),
    ("fr", "comparison", False, "Quel fleuve est le plus long, le Danube ou le Rhin ?", "la Seine", None,
     "comparison_answer"),
    ("fr", "intersection", False, "Quelle ville a accueilli les Jeux olympiques d'été de 1900 et de 1924 ?",
     "Paris", None, None),
    ("fr", "intersection", False, "Selon le texte, quel paramètre contrôle le lanceur d'autovacuum ?",
     "autovacuum_naptime", None, "meta_reference"),
    ("fr", "intersection", False, "Quel paramètre mentionné ci-dessus contrôle le lanceur ?", "autovacuum_naptime",
     None, "meta_reference"),
    ("fr", "intersection", False, "Quelle ville citée dans le passage a accueilli deux fois les Jeux ?", "Paris",
     None, "meta_reference"),
    ("fr", "intersection", False, "Que prévoit, selon le texte de la loi de 1905, l'article 2 ?",
     "la séparation", None, None),
    ("fr", "intersection", False, "Quel paramètre contrôle le lanceur d'autovacuum, et quelle est sa valeur par "
     "défaut ?", "autovacuum_naptime", None, "two_questions"),
    ("fr", "intersection", False, "Il a joué dans Heat et dans The Insider : quel acteur ?", "Al Pacino", None,
     "opening_pronoun"),
    ("fr", "intersection", False, "Il y a combien de paramètres communs au lanceur et aux workers ?", "deux", None,
     None),
    ("fr", "intersection", True, "Al Pacino a-t-il joué à la fois dans Heat et dans The Insider ?", "Oui", None,
     None),
    ("fr", "intersection", True, "Al Pacino a-t-il joué à la fois dans Heat et dans The Insider ?", "non", None,
     None),
    ("fr", "intersection", True, "Al Pacino a-t-il joué à la fois dans Heat et dans The Insider ?", "No", None,
     "binary_answer"),
    ("fr", "intersection", False, "Quelle ville a accueilli les Jeux de 1900 et de 1924 ?", "Oui", None,
     "yes_no_answer"),
    ("fr", "intersection", False, "Quel journal conserve les informations données par le noyau et par systemd ?",
     "journald", None, None),
    ("fr", "intersection", False, "Quelle date les deux traités fixent-ils selon le passage à l'euro ?",
     "le 1er janvier 2002", None, None),
    ("fr", "intersection", False, "Quel article est cité dans le texte de la Constitution et dans la loi de 1905 ?",
     "l'article 1", None, None),
    ("fr", "intersection", False, "Il s'agit de quel paramètre commun au lanceur et aux workers ?",
     "autovacuum_naptime", None, None),
    ("fr", "intersection", False, "Il est recommandé d'utiliser quelle interface pour apt et dpkg ?", "aptitude",
     None, None),
    ("fr", "intersection", False, "Que dit le texte sur apt et dpkg ?", "qu'ils gèrent les paquets", None,
     "meta_reference"),
    ("fr", "intersection", False, "Selon les informations fournies, quel outil gère apt et dpkg ?", "aptitude",
     None, "meta_reference"),
    # -- Spanish -------------------------------------------------------------------------------
    ("es", "comparison", False, "¿Qué río es más largo, el Danubio o el Rin?", "el Danubio",
     ["el Danubio", "el Rin"], None),
    ("es", "comparison", False, "¿Qué río es más largo, el Danubio o el Rin?", "Danubio", None, "construction"),
    ("es", "comparison", False, "¿Qué río es más largo, el Danubio o el Rin?", "el Sena", None, "comparison_answer"),
    ("es", "intersection", False, "¿Qué ciudad albergó los Juegos Olímpicos de verano de 1900 y de 1924?", "París",
     None, None),
    ("es", "intersection", False, "Según el texto, ¿qué parámetro controla el lanzador de autovacuum?",
     "autovacuum_naptime", None, "meta_reference"),
    ("es", "intersection", False, "¿Qué ciudad mencionada anteriormente albergó dos veces los Juegos?", "París",
     None, "meta_reference"),
    ("es", "intersection", False, "¿Qué establece, según el texto de la Constitución de 1978, el artículo 2?",
     "la unidad", None, None),
    ("es", "intersection", False, "¿Qué parámetro controla el lanzador de autovacuum, y cuál es su valor "
     "predeterminado?", "autovacuum_naptime", None, "two_questions"),
    ("es", "intersection", False, "¿Él actuó en Heat y en The Insider?", "Al Pacino", None, "opening_pronoun"),
    ("es", "intersection", True, "¿Actuó Al Pacino tanto en Heat como en The Insider?", "Sí", None, None),
    ("es", "intersection", True, "¿Actuó Al Pacino tanto en Heat como en The Insider?", "si", None, None),
    ("es", "intersection", True, "¿Actuó Al Pacino tanto en Heat como en The Insider?", "Yes", None,
     "binary_answer"),
    ("es", "intersection", False, "¿Qué registro guarda la información dada por el núcleo y por systemd?",
     "journald", None, None),
    ("es", "intersection", False, "¿Qué línea sigue al fragmento siguiente del archivo en ambas versiones?",
     "la cabecera", None, None),
    ("es", "intersection", False, "¿Qué dice el texto sobre apt y dpkg?", "que gestionan paquetes", None,
     "meta_reference"),
    ("es", "intersection", False, "¿Qué comando se menciona en el texto para apt y dpkg?", "apt-get", None,
     "meta_reference"),
    # -- Japanese: no wording rules; lengths in characters, the yes/no words, leakage and entities -----
    ("ja", "comparison", False, "マニュアルで先に出てくるのは「シェルプロンプト」と「rootアカウント」のどちらですか？",
     "シェルプロンプト", ["シェルプロンプト", "rootアカウント"], None),
    ("ja", "comparison", False, "マニュアルで先に出てくるのは「シェルプロンプト」と「rootアカウント」のどちらですか？",
     "ファイル", ["シェルプロンプト", "rootアカウント"], "comparison_answer"),
    ("ja", "intersection", False, "テキストによると、どのパラメータがランチャーを制御しますか？", "naptime", None,
     None),
    ("ja", "composition", False, "東京を首都とする国の首都はどこですか？", "東京", None, "answer_in_question"),
    ("ja", "intersection", False, "シェル" * 45 + "ですか？", "はい", None, "length"),
    ("ja", "intersection", True, "アル・パチーノはヒートとインサイダーの両方に出演しましたか？", "はい", None, None),
    ("ja", "intersection", True, "アル・パチーノはヒートとインサイダーの両方に出演しましたか？", "Yes", None,
     "binary_answer"),
]  # fmt: skip


def findings(language: str, question_type: str, binary: bool, question: str, answer: str, built: Any) -> list:
    construction = {"compared_entities": built or [], "hidden_entities": []}
    draft = {"question": question, "answer": answer, "construction": construction}
    return lint_problems(
        draft,  # type: ignore[arg-type]
        question_type=question_type,
        binary=binary,
        language=language,
        max_question_words=40,
        max_answer_words=20,
    )


def test_the_tables_cover_every_language_with_good_and_bad_questions() -> None:
    for language in ("de", "fr", "es", "ja"):
        rules = [rule for lang, *_, rule in ROWS if lang == language]
        assert None in rules and any(rules), language
    for language in ("de", "fr", "es"):
        assert language in LINT_RULES
        for rule in ("meta_reference", "two_questions", "opening_pronoun", "binary_answer"):
            assert any(r[0] == language and r[6] == rule for r in ROWS), (language, rule)


@pytest.mark.parametrize(("language", "question_type", "binary", "question", "answer", "built"),
                         [row[:6] for row in ROWS if row[6] is None])  # fmt: skip
def test_a_good_question_passes(language: str, question_type: str, binary: bool, question: str, answer: str,
                                built: Any) -> None:  # fmt: skip
    assert findings(language, question_type, binary, question, answer, built) == []


@pytest.mark.parametrize(("language", "question_type", "binary", "question", "answer", "built", "rule"),
                         [row for row in ROWS if row[6] is not None])  # fmt: skip
def test_a_bad_question_fails_on_the_rule_it_breaks(language: str, question_type: str, binary: bool, question: str,
                                                    answer: str, built: Any, rule: str) -> None:  # fmt: skip
    found = findings(language, question_type, binary, question, answer, built)
    assert rule in [name for name, _ in found], found


def test_a_yes_no_answer_is_asked_for_in_the_languages_own_words() -> None:
    (finding,) = findings("de", "intersection", True, "Spielte Al Pacino in Heat?", "Yes", None)
    assert '"Ja" or "Nein"' in finding[1]
    draft = {"question": "Spielte Al Pacino in Heat?", "answer": "Ja"}
    (wanted,) = lint_problems(
        draft,  # type: ignore[arg-type]
        question_type="intersection",
        binary=True,
        wanted="no",
        language="de",
        max_question_words=40,
        max_answer_words=20,
    )
    assert wanted[0] == "wanted_answer" and 'answer is "Nein", not "Ja"' in wanted[1]


def test_a_language_without_rules_gets_only_the_language_neutral_checks() -> None:
    # Italian: its yes/no words are known, its meta phrases are not (the judges read those).
    assert findings("it", "intersection", False, "Secondo il testo, quale parametro controlla il launcher?",
                    "autovacuum_naptime", None) == []  # fmt: skip
    assert [f[0] for f in findings("it", "intersection", True, "Al Pacino ha recitato in Heat?", "Yes", None)] == [
        "binary_answer"
    ]
    # Thai: no table of yes/no words either; the answer's form is left to the quality judge.
    assert findings("th", "intersection", True, "อัล ปาชิโน แสดงใน Heat หรือไม่", "ใช่", None) == []
