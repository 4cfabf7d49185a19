"""What makes a chunk a procedure, cheaply: numbered steps, one and two at least.

A procedural question (the steps of a task) is written only from a chunk that holds a procedure. The
test costs no model call: the chunk has a line that starts step 1 and one that starts step 2, numbered
("1.", "2)") or named ("Step 1", "Schritt 2", "Étape 1", "Paso 2"). The same patterns run in Python
and, as POSIX regular expressions, in PostgreSQL (`~*`), which draws procedural seeds in the database.
"""

from __future__ import annotations

import re

#: Words that name a step, in the languages lint knows.
STEP_WORDS = ("step", "schritt", "étape", "etape", "paso", "passo")


def step_pattern(number: int) -> str:
    """A line that starts step `number`: valid both as a Python and a PostgreSQL regular expression."""
    words = "|".join(STEP_WORDS)
    return rf"(^|\n)[ \t]*({number}[.)]|({words})[ \t]+{number}[.:)]?)[ \t]"


#: Both must match for a chunk to hold a procedure.
PROCEDURE_PATTERNS = (step_pattern(1), step_pattern(2))
_COMPILED = tuple(re.compile(pattern, re.IGNORECASE) for pattern in PROCEDURE_PATTERNS)


def looks_procedural(text: str) -> bool:
    """Whether `text` holds numbered steps (a step 1 and a step 2, each at the start of a line)."""
    return all(pattern.search(text) for pattern in _COMPILED)
