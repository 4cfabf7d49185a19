"""The deterministic part of a restyle's check, held to its table (tests/unit/restyle_table.py): every good
rewrite passes, every defective one is refused by the rule it breaks."""

from __future__ import annotations

import pytest

from tests.unit.restyle_table import REWRITES, Rewrite, defective, good


def test_the_table_has_30_good_and_30_defective_rewrites_in_four_languages() -> None:
    assert len(good()) >= 30 and len(defective()) >= 30
    for language in ("en", "de", "fr", "es"):
        assert sum(c.language == language and not c.defective for c in REWRITES) >= 5
        assert sum(c.language == language and c.defective for c in REWRITES) >= 5
    kinds = {case.rule for case in defective()}
    assert {"number_dropped", "term_dropped", "answer_in_question", "meta_reference", "hidden_entity"} <= kinds


@pytest.mark.parametrize("case", REWRITES, ids=lambda c: f"{c.language}-{c.style}-{c.rule or 'good'}")
def test_every_rewrite_gets_its_verdict(case: Rewrite) -> None:
    found = case.rules()
    if case.defective:
        assert case.rule in found, (case.restyled, found)
    else:
        assert not found, (case.restyled, found)
