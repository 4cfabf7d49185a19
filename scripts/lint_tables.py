"""Count how lint's rule families do on their tables: false refusals of good drafts, misses of defective ones.

    python scripts/lint_tables.py            # one row per family and language, then the totals
    python scripts/lint_tables.py --show     # also every case counted wrong

The tables are tests/unit/lint_tables.py: drafts written from the PostgreSQL manual and the Debian Reference
in English, German, French and Spanish, each marked good or defective for its family.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tables live with the tests

from tests.unit.lint_tables import FAMILIES, refused  # noqa: E402


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
    if args.show and wrong:
        print("\n".join(["", "counted wrong:", *wrong]))


if __name__ == "__main__":
    main()
