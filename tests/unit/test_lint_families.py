"""Every case of lint's family tables (tests/unit/lint_tables.py) gets its verdict: a good draft passes its
family's rules, a defective one fails one of them. `scripts/lint_tables.py` prints the same counts."""

from __future__ import annotations

import pytest

from tests.unit.lint_tables import FAMILIES, refused


def test_each_family_has_30_good_and_30_defective_cases_and_5_of_each_per_language() -> None:
    for name, family in FAMILIES.items():
        good = [case for case in family.cases if not case.defective]
        bad = [case for case in family.cases if case.defective]
        assert len(good) >= 30 and len(bad) >= 30, name
        for language in ("en", "de", "fr", "es"):
            assert sum(case.language == language for case in good) >= 5, (name, language)
            assert sum(case.language == language for case in bad) >= 5, (name, language)


@pytest.mark.parametrize("name", list(FAMILIES))
def test_every_case_of_a_family_gets_its_verdict(name: str) -> None:
    family = FAMILIES[name]
    wrong = [case for case in family.cases if refused(case, family) != case.defective]
    assert wrong == []
