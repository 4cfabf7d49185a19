"""The wording of the plausible script's questions (`graph.llm.offline.plausible`), per language and kind."""

#: The quality judge's feedback on a long question (a revision told so quotes less of each heading).
TOO_LONG = "too long; shorten it"

#: Question templates per language: the English ones name the demo's manual; the others any manual.
TEMPLATES = {
    "en": {
        "binary": 'Are the PostgreSQL 15 manual sections "{a}" and "{b}" {relation}?',
        "same": "in the same chapter",
        "apart": "in different chapters",
        "term": 'Which term appears both in "{a}" and in "{b}" of the PostgreSQL 15 manual?',
        "composition": 'What is the number of the manual section that shares a subject with "{b}"?',
        "composition_term": 'Which term links "{b}" to another section of the PostgreSQL 15 manual?',
        "intersection": 'Which section number of the PostgreSQL 15 manual covers both {topic} and "{b}"?',
        "comparison": 'Which comes earlier in the PostgreSQL 15 manual, "{a}" or "{b}"?',
    },
    "de": {
        "binary": 'Stehen die Handbuchabschnitte "{a}" und "{b}" {relation}?',
        "same": "im selben Kapitel",
        "apart": "in verschiedenen Kapiteln",
        "term": 'Welcher Begriff kommt sowohl in "{a}" als auch in "{b}" des Handbuchs vor?',
        "composition": 'Welche Nummer hat der Handbuchabschnitt, der ein Thema mit "{b}" teilt?',
        "composition_term": 'Welcher Begriff verbindet "{b}" mit einem anderen Abschnitt des Handbuchs?',
        "intersection": 'Welche Abschnittsnummer des Handbuchs behandelt sowohl {topic} als auch "{b}"?',
        "comparison": 'Was steht im Handbuch weiter vorn, "{a}" oder "{b}"?',
    },
    "fr": {
        "binary": "Les sections du manuel « {a} » et « {b} » sont-elles {relation} ?",
        "same": "dans le même chapitre",
        "apart": "dans des chapitres différents",
        "term": "Quel terme apparaît à la fois dans « {a} » et dans « {b} » du manuel ?",
        "composition": "Quel est le numéro de la section du manuel qui partage un sujet avec « {b} » ?",
        "composition_term": "Quel terme relie « {b} » à une autre section du manuel ?",
        "intersection": "Quel numéro de section du manuel traite à la fois de {topic} et de « {b} » ?",
        "comparison": "Laquelle vient en premier dans le manuel, « {a} » ou « {b} » ?",
    },
    "es": {
        "binary": '¿Están las secciones del manual "{a}" y "{b}" {relation}?',
        "same": "en el mismo capítulo",
        "apart": "en capítulos distintos",
        "term": '¿Qué término aparece tanto en "{a}" como en "{b}" del manual?',
        "composition": '¿Cuál es el número de la sección del manual que comparte tema con "{b}"?',
        "composition_term": '¿Qué término une "{b}" con otra sección del manual?',
        "intersection": '¿Qué número de sección del manual trata tanto {topic} como "{b}"?',
        "comparison": '¿Cuál aparece antes en el manual, "{a}" o "{b}"?',
    },
    "ja": {
        "binary": "マニュアルの節「{a}」と「{b}」は{relation}にありますか？",
        "same": "同じ章",
        "apart": "別々の章",
        "term": "マニュアルの「{a}」と「{b}」の両方に現れる用語は何ですか？",
        "composition": "「{b}」と主題を共有するマニュアルの節の番号は何ですか？",
        "composition_term": "「{b}」をマニュアルの別の節と結ぶ用語は何ですか？",
        "intersection": "{topic}と「{b}」の両方を扱うマニュアルの節番号は何ですか？",
        "comparison": "マニュアルで先に出てくるのは「{a}」と「{b}」のどちらですか？",
    },
}

#: Single-hop questions (English whatever the language asked: the tests run them on English documents).
SINGLE_HOP = {
    "factual": 'What is the section number of "{title}" in the PostgreSQL 15 manual?',
    "factual_binary": 'Is "{title}" section {number} of the PostgreSQL 15 manual?',
    "opening": 'What does the documentation page "{title}" begin with?',
    "procedural": 'How do you carry out the procedure "{title}"?',
}

#: The procedural question in the other languages the plausible script writes.
PROCEDURAL = {
    "de": 'Wie führt man den Vorgang "{title}" durch?',
    "fr": "Comment effectue-t-on la procédure « {title} » ?",
    "es": '¿Cómo se lleva a cabo el procedimiento "{title}"?',
}

#: "Who wrote the manual section ...?" in the languages of TEMPLATES but English.
WHO_WROTE = {
    "de": 'Wer hat den Handbuchabschnitt "{title}" geschrieben?',
    "fr": "Qui a écrit la section du manuel « {title} » ?",
    "es": '¿Quién escribió la sección del manual "{title}"?',
    "ja": "マニュアルの節「{title}」を書いたのは誰ですか？",
}
