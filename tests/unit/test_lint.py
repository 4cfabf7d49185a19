"""lint_question on a table of questions: every good one passes, every bad one fails on the rule it breaks.

The table is long on purpose (some 70 questions of every cell): it is read as one list.

Each row: question type, binary, question, answer, the generator's construction (compared entities
or hidden entities; None when the generator declared nothing), and the rule a bad question breaks
(None for a good one).
"""

from __future__ import annotations

from typing import Any

import pytest

from nodes.lint.question import lint_problems

ROYAL = ["the Royal Society", "the Académie des Sciences"]
DANUBE = ["the Danube", "the Rhine"]
ADA = ["Ada Lovelace", "Charles Babbage"]
NOKIA = [{"entity": "Finland", "chunk_id": "c1"}]
UTZON = [{"entity": "Jørn Utzon", "chunk_id": "c1"}]
MOZART = [{"entity": "Wolfgang Amadeus Mozart", "chunk_id": "c1"}, {"entity": "Salzburg", "chunk_id": "c2"}]
LONG = "Which of the " + " ".join(["many"] * 36) + " rivers is longest?"

ROWS: list[tuple[str, bool, str, str, list[Any] | None, str | None]] = [
    # -- comparison, not binary: the answer is one of the named alternatives -----------------------
    (
        "comparison",
        False,
        "Which was founded earlier, the Royal Society or the Académie des Sciences?",
        "the Royal Society",
        ROYAL,
        None,
    ),
    ("comparison", False, "Who was born first, Ada Lovelace or Charles Babbage?", "Charles Babbage", ADA, None),
    ("comparison", False, "Which river is longer, the Danube or the Rhine?", "Danube", DANUBE, None),
    (
        "comparison",
        False,
        "Which of Kyoto, Osaka and Nara has the largest population?",
        "Osaka",
        ["Kyoto", "Osaka", "Nara"],
        None,
    ),
    (
        "comparison",
        False,
        "Which album sold more copies in its first week, Thriller or Bad?",
        "Thriller",
        ["Thriller", "Bad"],
        None,
    ),
    (
        "comparison",
        False,
        "Which default is larger in PostgreSQL 15, shared_buffers or work_mem?",
        "shared_buffers",
        ["shared_buffers", "work_mem"],
        None,
    ),
    (
        "comparison",
        False,
        "Which opened first, the Golden Gate Bridge or the Bay Bridge?",
        "The Bay Bridge",
        None,
        "construction",  # nothing declared: a revision asks for the compared entities
    ),
    (
        "comparison",
        False,
        "Which of the two founders of Apple, Steve Jobs or Steve Wozniak, was born first?",
        "Steve Wozniak",
        ["Steve Jobs", "Steve Wozniak"],
        None,
    ),
    ("comparison", False, "How many more moons does Jupiter have than Saturn?", "17", ["Jupiter", "Saturn"], None),
    (
        "comparison",
        False,
        "Which document size limit is higher, MongoDB's or Couchbase's?",
        "Couchbase's",
        ["MongoDB", "Couchbase"],
        None,
    ),
    (
        "comparison",
        False,
        "Which was founded earlier, the Royal Society or the Académie des Sciences?",
        "1660",
        ROYAL,
        "comparison_answer",
    ),
    (
        "comparison",
        False,
        "Which was founded earlier, the Royal Society or its French rival?",
        "the Royal Society",
        ROYAL,
        "comparison_names",
    ),
    ("comparison", False, "Which river is longer, the Danube or the Rhine?", "2,850 km", None, "comparison_answer"),
    (
        "comparison",
        False,
        "According to the text, which was built first, the Eiffel Tower or the Statue of Liberty?",
        "the Statue of Liberty",
        ["the Eiffel Tower", "the Statue of Liberty"],
        "meta_reference",
    ),
    ("comparison", False, "Which river is longer, the Danube or the Rhine?", "Yes", DANUBE, "yes_no_answer"),
    (
        "comparison",
        False,
        "They released which album first, Thriller or Bad?",
        "Thriller",
        ["Thriller", "Bad"],
        "opening_pronoun",
    ),
    ("comparison", False, LONG, "the Nile", None, "length"),
    (
        "comparison",
        False,
        "Which agency is older, NASA or ESA?",
        "NASA",
        ["NASA (National Aeronautics and Space Administration)", "ESA"],
        None,
    ),
    ("comparison", False, "Which band formed earlier, Yes or Genesis?", "Yes", ["Yes", "Genesis"], None),
    ("comparison", False, "Which river is longer, Danube or Rhine?", "the Danube", DANUBE, None),
    # -- comparison, binary -------------------------------------------------------------------------
    ("comparison", True, "Was the Royal Society founded before the Académie des Sciences?", "Yes", ROYAL, None),
    ("comparison", True, "Is the Danube longer than the Rhine?", "yes.", DANUBE, None),
    ("comparison", True, "Did Ada Lovelace outlive Charles Babbage?", "NO", ADA, None),
    (
        "comparison",
        True,
        "Is shared_buffers larger than work_mem by default in PostgreSQL 15?",
        "Yes",
        ["shared_buffers", "work_mem"],
        None,
    ),
    (
        "comparison",
        True,
        "Is shared_buffers larger than work_mem by default in PostgreSQL 15?",
        "Yes",
        None,
        "construction",
    ),
    (
        "comparison",
        True,
        "Was the Royal Society founded before the Académie des Sciences?",
        "Yes, in 1660",
        ROYAL,
        None,  # the yes/no word leads: normalised to "Yes", the explanation kept beside it
    ),
    ("comparison", True, "Is the river in the provided passage longer than the Rhine?", "No", None, "meta_reference"),
    (
        "comparison",
        True,
        "This society was founded before the Académie des Sciences, was it not?",
        "Yes",
        None,
        "opening_pronoun",
    ),
    # -- intersection, not binary -------------------------------------------------------------------
    ("intersection", False, "Which actor appeared in both Heat and The Insider?", "Al Pacino", None, None),
    ("intersection", False, "Which city hosted both the 1900 and the 1924 Summer Olympics?", "Paris", None, None),
    ("intersection", False, "Which element is both a noble gas and lighter than neon?", "Helium", None, None),
    (
        "intersection",
        False,
        "Which PostgreSQL view shows both lock waits and the query text of a backend?",
        "pg_stat_activity",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Which server is both the source server of the replication and located in Frankfurt?",
        "db-fra-1",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Which text type do both the Pandoc reader and the GitHub renderer accept?",
        "CommonMark",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Her Majesty's Theatre and the Old Vic both staged which play in 1890?",
        "Hamlet",
        None,
        None,
    ),
    ("intersection", False, "It Follows and The Babadook share which distributor?", "Radius-TWC", None, None),
    (
        "intersection",
        False,
        "In the context of TCP, which flag both ends a connection and needs an acknowledgement?",
        "FIN",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Which actor appeared in both Heat and The Insider, Al Pacino or De Niro?",
        "Al Pacino",
        None,
        "answer_in_question",
    ),
    (
        "intersection",
        False,
        "Which city, mentioned in the passage, hosted both Olympic Games?",
        "Paris",
        None,
        "meta_reference",
    ),
    (
        "intersection",
        False,
        "Which team won both tournaments according to the context?",
        "France",
        None,
        "meta_reference",
    ),
    (
        "intersection",
        False,
        "Which of the given documents describes both the launcher and the workers?",
        "the runtime chapter",
        None,
        "meta_reference",
    ),
    ("intersection", False, "Which element is both a noble gas and lighter than neon?", "No", None, "yes_no_answer"),
    ("intersection", False, "They both starred in Heat; which actor was it?", "Al Pacino", None, "opening_pronoun"),
    ("intersection", False, "Which city hosted both the 1900 and the 1924 Summer Olympics?", "", None, "length"),
    # -- intersection, binary -----------------------------------------------------------------------
    ("intersection", True, "Did Al Pacino appear in both Heat and The Insider?", "Yes", None, None),
    ("intersection", True, "Did Paris host both the 1900 and the 1924 Summer Olympics?", "Yes.", None, None),
    ("intersection", True, "Is helium both a noble gas and lighter than neon?", "yes", None, None),
    ("intersection", True, "Did Al Pacino appear in both Heat and The Insider?", "'Yes'", None, None),
    ("intersection", True, "Did Al Pacino appear in both Heat and The Insider?", "Probably", None, "binary_answer"),
    ("intersection", True, "Does the passage say that Paris hosted both Games?", "Yes", None, "meta_reference"),
    (
        "intersection",
        True,
        "Based on the provided information, did Paris host both Games?",
        "Yes",
        None,
        "meta_reference",
    ),
    ("intersection", True, "Does the passage above say that Paris hosted both Games?", "Yes", None, "meta_reference"),
    # -- composition, not binary: the hidden entity stays hidden, the bridge topic may be named -----
    (
        "composition",
        False,
        "What is the capital of the country where the CEO of Nokia was born?",
        "Helsinki",
        NOKIA,
        None,
    ),
    ("composition", False, "In which year was the architect of the Sydney Opera House born?", "1918", UTZON, None),
    (
        "composition",
        False,
        "Which university did the author of The Hobbit teach at?",
        "Oxford",
        [{"entity": "J. R. R. Tolkien", "chunk_id": "c1"}],
        None,
    ),
    (
        "composition",
        False,
        "What is the default of the setting that controls how often the autovacuum launcher runs?",
        "1min",
        [{"entity": "autovacuum_naptime", "chunk_id": "c1"}],
        None,
    ),
    (
        "composition",
        False,
        "Which river flows through the birthplace of the composer of The Magic Flute?",
        "Salzach",
        MOZART,
        None,
    ),
    (
        "composition",
        False,
        "Who directed the film in which the lead actress of Titanic made her debut?",
        "Peter Jackson",
        [{"entity": "Kate Winslet", "chunk_id": "c1"}],
        None,
    ),
    (
        "composition",
        False,
        "What is the source of the river that flows through the capital of Austria?",
        "the Black Forest",
        [{"entity": "Vienna", "chunk_id": "c1"}, {"entity": "the Danube", "chunk_id": "c2"}],
        None,
    ),
    (
        "composition",
        False,
        "Which treaty was signed in the city where the document that founded the league was kept?",
        "Treaty of Versailles",
        [{"entity": "Geneva", "chunk_id": "c1"}],
        None,
    ),
    (
        "composition",
        False,
        "What is the capital of Finland, the country where the CEO of Nokia was born?",
        "Helsinki",
        NOKIA,
        "hidden_entity",
    ),
    (
        "composition",
        False,
        "Which river flows through Salzburg, the birthplace of the composer of The Magic Flute?",
        "Salzach",
        MOZART,
        "hidden_entity",
    ),
    (
        "composition",
        False,
        "What is the capital, Helsinki, of the country where the CEO of Nokia was born?",
        "Helsinki",
        NOKIA,
        "answer_in_question",
    ),
    (
        "composition",
        False,
        "What is the capital of the country mentioned in the text?",
        "Helsinki",
        None,
        "meta_reference",
    ),
    ("composition", False, "Its CEO was born in which country's capital?", "Helsinki", NOKIA, "opening_pronoun"),
    (
        "composition",
        False,
        "What is the capital of the country where the CEO of Nokia was born?",
        "No",
        NOKIA,
        "yes_no_answer",
    ),
    # -- composition, binary ------------------------------------------------------------------------
    ("composition", True, "Was the architect of the Sydney Opera House born in Denmark?", "Yes", UTZON, None),
    (
        "composition",
        True,
        "Is the capital of the country where the CEO of Nokia was born on the coast?",
        "Yes",
        NOKIA,
        None,
    ),
    (
        "composition",
        True,
        "Was the author of The Hobbit born in the country that won the 1995 Rugby World Cup?",
        "yes!",
        None,
        "construction",  # no hidden entity declared
    ),
    (
        "composition",
        True,
        "Was Jørn Utzon, the architect of the Sydney Opera House, born in Denmark?",
        "Yes",
        UTZON,
        "hidden_entity",
    ),
    ("composition", True, "Was the architect in the following passage born in Denmark?", "Yes", None, "meta_reference"),
    (
        "composition",
        True,
        "Was the architect of the Sydney Opera House born in Denmark?",
        "Denmark",
        UTZON,
        "binary_answer",
    ),
    # -- one question, not two; pointing back at the material; alternatives matched by their words ------
    (
        "comparison",
        False,
        "Which came first, the formation of the band The Black Keys or the release of El Camino?",
        "The formation of The Black Keys",
        ["the formation of the band The Black Keys", "the release of El Camino"],
        None,
    ),
    (
        "comparison",
        False,
        "Which was founded earlier, the Royal Society or the Académie des Sciences, and how many years apart?",
        "the Royal Society",
        ROYAL,
        "two_questions",
    ),
    (
        "comparison",
        True,
        "Was the Royal Society founded before the Académie des Sciences, and which is older?",
        "Yes",
        None,
        "two_questions",
    ),
    ("comparison", True, "Is the river described above longer than the Rhine?", "No", None, "meta_reference"),
    (
        "intersection",
        False,
        "Which setting controls how often the autovacuum launcher wakes up, and what is its default?",
        "autovacuum_naptime, 1 minute",
        None,
        "two_questions",
    ),
    (
        "intersection",
        False,
        "Which city was both the birthplace of Ada Lovelace and where Charles Babbage died?",
        "London",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Which autovacuum parameters are listed in pg_settings and also set in postgresql.conf?",
        "autovacuum_naptime",
        None,
        None,
    ),
    (
        "intersection",
        False,
        "Which of the parameters mentioned here is a duration?",
        "autovacuum_naptime",
        None,
        "meta_reference",
    ),  # fmt: skip
    (
        "intersection",
        True,
        "Did Paris host the 1900 Summer Olympics, and did it host the 1924 ones too?",
        "Yes",
        None,
        None,
    ),
    (
        "intersection",
        True,
        "Does Paris host both Games, and when were they held?",
        "Yes",
        None,
        "two_questions",
    ),
    (
        "composition",
        False,
        "Who designed the opera house of the city where Jørn Utzon was born, and when was it opened?",
        "Utzon",
        None,
        "two_questions",
    ),
    (
        "composition",
        False,
        "In which city was the architect of the Sydney Opera House born, the one named above?",
        "Copenhagen",
        UTZON,
        "meta_reference",
    ),
    (
        "comparison",
        False,
        "Which city was named earlier, Leningrad or Stalingrad?",
        "Stalingrad",
        ["Leningrad", "Stalingrad"],
        None,
    ),  # fmt: skip
    (
        "comparison",
        False,
        "Which company was listed earlier on the NYSE, IBM or Xerox?",
        "IBM",
        ["IBM", "Xerox"],
        None,
    ),  # fmt: skip
    (
        "composition",
        True,
        "Was the architect of the Sydney Opera House born in the capital of Denmark, and what did he study?",
        "No",
        UTZON,
        "two_questions",
    ),
    (
        "composition",
        True,
        "Was the architect of the Sydney Opera House born in a city on the Øresund?",
        "No",
        UTZON,
        None,
    ),
]


def findings(question_type: str, binary: bool, question: str, answer: str, built: list[Any] | None) -> list:
    construction = {"compared_entities": [], "hidden_entities": []}
    if built is not None:
        key = "compared_entities" if question_type == "comparison" else "hidden_entities"
        construction[key] = built
    draft = {"question": question, "answer": answer, "origin": "generate", "revision": 0}
    if built is not None:
        draft["construction"] = construction
    return lint_problems(
        draft,
        question_type=question_type,
        binary=binary,
        max_question_words=40,
        max_answer_words=20,  # type: ignore[arg-type]
    )


def test_the_table_covers_every_cell_with_good_and_bad_questions() -> None:
    assert len(ROWS) >= 60
    for question_type in ("comparison", "intersection", "composition"):
        for binary in (False, True):
            cell = [rule for t, b, _, _, _, rule in ROWS if t == question_type and b is binary]
            assert None in cell and any(rule for rule in cell), (question_type, binary)


@pytest.mark.parametrize(
    ("question_type", "binary", "question", "answer", "built"),
    [row[:5] for row in ROWS if row[5] is None],
)
def test_a_good_question_passes(question_type: str, binary: bool, question: str, answer: str, built: Any) -> None:
    assert findings(question_type, binary, question, answer, built) == []


@pytest.mark.parametrize(
    ("question_type", "binary", "question", "answer", "built", "rule"),
    [row for row in ROWS if row[5] is not None],
)
def test_a_bad_question_fails_on_the_rule_it_breaks(
    question_type: str, binary: bool, question: str, answer: str, built: Any, rule: str
) -> None:
    found = findings(question_type, binary, question, answer, built)
    assert rule in [name for name, _ in found], found


def test_each_failure_says_what_to_fix() -> None:
    question = "What is the capital of Finland, the country where the CEO of Nokia was born?"
    (finding,) = findings("composition", False, question, "Helsinki", NOKIA)
    assert finding[0] == "hidden_entity" and "'Finland'" in finding[1] and "describe it" in finding[1]


@pytest.mark.parametrize(
    ("wanted", "answer", "rule"),
    [("yes", "Yes", None), ("no", "no.", None), ("no", "Yes", "wanted_answer"), ("yes", "No", "wanted_answer")],
)
def test_a_yes_no_sample_is_held_to_the_answer_it_asks_for(wanted: str, answer: str, rule: str | None) -> None:
    draft = {
        "question": "Was the Royal Society founded before the Académie des Sciences?",
        "answer": answer,
        "construction": {"compared_entities": ROYAL, "hidden_entities": []},
    }
    found = lint_problems(
        draft,  # type: ignore[arg-type]
        question_type="comparison",
        binary=True,
        wanted=wanted,
        max_question_words=40,
        max_answer_words=20,
    )
    assert [name for name, _ in found] == ([rule] if rule else [])
    if rule:
        assert f'answer is "{wanted.capitalize()}"' in found[0][1] and "rephrase" in found[0][1]
