"""Count how the deterministic part of the restyle check does on its table: good rewrites refused, defective
ones missed, per language and per rule.

    python scripts/restyle_table.py            # one row per language, then per rule
    python scripts/restyle_table.py --show     # also every case counted wrong

The table is tests/unit/restyle_table.py, written from the PostgreSQL manual and the Debian Reference in
English, German, French and Spanish.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the table lives with the tests

from tests.unit.restyle_table import REWRITES  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every case counted wrong")
    args = parser.parse_args()
    verdicts = [(case, case.rules()) for case in REWRITES]
    print(f"{'lang':<6}{'good':>5}{'refused':>8}{'defective':>10}{'missed':>7}")
    for language in ("en", "de", "fr", "es", "all"):
        rows = [(c, found) for c, found in verdicts if language in ("all", c.language)]
        good = [found for c, found in rows if not c.defective]
        bad = [(c, found) for c, found in rows if c.defective]
        missed = sum(c.rule not in found for c, found in bad)
        print(f"{language:<6}{len(good):>5}{sum(bool(f) for f in good):>8}{len(bad):>10}{missed:>7}")
    caught = Counter(c.rule for c, found in verdicts if c.defective and c.rule in found)
    wanted = Counter(c.rule for c, _ in verdicts if c.defective)
    print(f"\n{'rule':<22}{'cases':>6}{'caught':>7}")
    for rule, n in sorted(wanted.items()):
        print(f"{rule:<22}{n:>6}{caught[rule]:>7}")
    if args.show:
        for case, found in verdicts:
            if (case.rule in found) if case.defective else not found:
                continue
            print(f"  wrong [{case.language}, {case.style}] {case.restyled} -> {sorted(found)}")


if __name__ == "__main__":
    main()
