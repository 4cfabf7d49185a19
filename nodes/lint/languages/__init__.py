"""What lint knows of each language, one module per language: phrases pointing at the material, second
questions, opening pronouns, articles, abbreviations and the word that joins a comparison's alternatives.

English, German, French and Spanish have tables; for another language lint runs only its
language-neutral rules (lengths, the yes/no answer word where `state.languages` knows it, answer
leakage, the declared compared and hidden entities) and leaves the rest to the judges.
Each table is tested by the question tables in tests/unit/test_lint.py, test_lint_languages.py and
lint_tables.py.
"""

from __future__ import annotations

from nodes.lint.languages.english import ENGLISH
from nodes.lint.languages.french import FRENCH
from nodes.lint.languages.german import GERMAN
from nodes.lint.languages.spanish import SPANISH

#: The languages lint has rules for, by ISO 639-1 code.
LINT_RULES = {"en": ENGLISH, "de": GERMAN, "fr": FRENCH, "es": SPANISH}
