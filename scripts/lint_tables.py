"""Count how lint's rule families do on their tables: false refusals of good drafts, misses of defective ones;
and how procedure detection does on its table of chunks: precision and recall.

    python scripts/lint_tables.py            # one row per family and language, then the totals
    python scripts/lint_tables.py --show     # also every case counted wrong

The tables are tests/unit/lint_tables.py (drafts) and tests/unit/procedure_table.py (chunks), written from the
PostgreSQL manual and the Debian Reference in English, German, French and Spanish.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tables live with the tests

from state.procedure import looks_procedural  # noqa: E402
from tests.unit.lint_tables import FAMILIES, refused  # noqa: E402
from tests.unit.procedure_table import PROCEDURE_CHUNKS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every case counted wrong")
    args = parser.parse_args()
    print(f"{'family':<22} {'lang':<4} {'good':>4} {'refused':>7} {'defective':>9} {'missed':>6}")
    totals = [0, 0, 0, 0]
    wrong: list[str] = []
    for name, family in FAMILIES.items():
        for language in ("en", "de", "fr", "es"):
            cases = [case for case in family.cases if case.language == language]
            good = [case for case in cases if not case.defective]
            bad = [case for case in cases if case.defective]
            false_refusals = [case for case in good if refused(case, family)]
            misses = [case for case in bad if not refused(case, family)]
            row = [len(good), len(false_refusals), len(bad), len(misses)]
            totals = [total + count for total, count in zip(totals, row, strict=True)]
            print(f"{name:<22} {language:<4} {row[0]:>4} {row[1]:>7} {row[2]:>9} {row[3]:>6}")
            wrong += [f"  refused  [{name}, {language}] {c.question} -> {c.answer}" for c in false_refusals]
            wrong += [f"  missed   [{name}, {language}] {c.question} -> {c.answer}" for c in misses]
    print(f"{'all':<22} {'':<4} {totals[0]:>4} {totals[1]:>7} {totals[2]:>9} {totals[3]:>6}")
    print(f"\n{'procedures':<22} {'lang':<4} {'chunks':>6} {'found':>5} {'right':>5} {'precision':>9} {'recall':>6}")
    for language in ("en", "de", "fr", "es", "all"):
        rows = [(text, label) for lang, text, label in PROCEDURE_CHUNKS if language in ("all", lang)]
        found = [label for text, label in rows if looks_procedural(text)]
        relevant = sum(label for _, label in rows)
        precision = sum(found) / len(found) if found else 0.0
        recall = sum(found) / relevant if relevant else 0.0
        print(f"{'':<22} {language:<4} {len(rows):>6} {len(found):>5} {sum(found):>5} {precision:>9.2f} {recall:>6.2f}")
        if language != "all":
            wrong += [
                f"  {'found' if looks_procedural(text) else 'missed'}    [procedures, {language}] {text[:90]!r}"
                for text, label in rows
                if looks_procedural(text) != label
            ]
    if args.show and wrong:
        print("\n".join(["", "counted wrong:", *wrong]))


if __name__ == "__main__":
    main()
