"""Every case of lint's family tables (tests/unit/lint_tables.py) gets its verdict: a good draft passes its
family's rules, a defective one fails one of them. `scripts/lint_tables.py` prints the same counts."""

from __future__ import annotations

import pytest

from tests.unit.lint_tables import FAMILIES, Case, Family, refused

CASES = [
    pytest.param(case, family, id=f"{name}-{case.language}-{'bad' if case.defective else 'good'}-{index}")
    for name, family in FAMILIES.items()
    for index, case in enumerate(family.cases)
]


def test_each_family_has_30_good_and_30_defective_cases_and_5_of_each_per_language() -> None:
    for name, family in FAMILIES.items():
        good = [case for case in family.cases if not case.defective]
        bad = [case for case in family.cases if case.defective]
        assert len(good) >= 30 and len(bad) >= 30, name
        for language in ("en", "de", "fr", "es"):
            assert sum(case.language == language for case in good) >= 5, (name, language)
            assert sum(case.language == language for case in bad) >= 5, (name, language)


@pytest.mark.parametrize(("case", "family"), CASES)
def test_a_case_gets_its_verdict(case: Case, family: Family) -> None:
    assert refused(case, family) == case.defective, case
