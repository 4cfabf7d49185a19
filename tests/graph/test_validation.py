"""The validation stage on the compiled graph: every supporting chunk necessary, strict verdicts, construction."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import BaseMessage

from graph.llm.offline.plausible import prompt
from nodes.run_context import Context
from tests.support.scripts import ACCEPT, CONJUNCTION_QUESTION, GOOD_QUESTION, bridge, drafted, relevant_if, script

THREE = bridge("autovacuum", ["C1", "C2", "C3"])


def shown_chunks(messages: list[BaseMessage]) -> set[str]:
    """The labels of the chunks a sufficiency request shows, e.g. {"A", "B"}."""
    return set(re.findall(r'<chunk label="([A-D])">', prompt(messages)))


def sufficient_when(needed: set[str]) -> Any:
    """A sufficiency judge for a question whose facts all sit in the chunks `needed`."""

    def verdict(messages: list[BaseMessage]) -> dict[str, Any]:
        shown = shown_chunks(messages)
        enough = needed <= shown
        return {
            "reasoning": f"needs {sorted(needed)}",
            "sufficient": enough,
            "reason": "all facts are here" if enough else "a fact is missing",
        }

    return verdict


def test_at_three_hops_a_question_that_ignores_one_chunk_is_rejected_naming_it(harness, seed_chunk_id, calls_of):
    result, model, _ = harness.run(
        script(BridgeProposal=[THREE], SufficiencyVerdict=sufficient_when({"A", "B"})),
        spec={"seed_id": seed_chunk_id, "hops": 3},
    )
    assert result.outcome == "rejected"
    sufficiency = [v for v in result.rejection["verdicts"] if v["judge"] == "sufficiency"]
    assert len(sufficiency) == 2 and not any(v["accepted"] for v in sufficiency)
    assert "chunks A and B together answer the question without chunk C" in sufficiency[0]["reason"]
    assert sufficiency[0]["details"]["unneeded"] == ["C"]
    assert sufficiency[0]["details"]["sufficient"] == {
        "A": False,
        "B": False,
        "C": False,
        "A+B": True,
        "A+C": False,
        "B+C": False,
    }
    revision_prompt = prompt([m for key, m in model.calls if key == "QuestionDraft"][1])
    assert "without chunk C" in revision_prompt and "also needs the facts of chunk C" in revision_prompt
    assert calls_of(model, "SufficiencyVerdict") == 12  # six tests a round, two rounds


def test_at_three_hops_a_question_that_needs_every_chunk_is_accepted(harness, seed_chunk_id):
    result, _, _ = harness.run(
        script(BridgeProposal=[THREE], SufficiencyVerdict=sufficient_when({"A", "B", "C"})),
        spec={"seed_id": seed_chunk_id, "hops": 3},
    )
    assert result.outcome == "accepted" and result.record["hops"] == 3


def test_one_chunk_alone_is_named_rather_than_every_pair_holding_it(harness, seed_chunk_id):
    result, _, _ = harness.run(
        script(BridgeProposal=[THREE], SufficiencyVerdict=sufficient_when({"B"})),
        spec={"seed_id": seed_chunk_id, "hops": 3},
    )
    reason = next(v["reason"] for v in result.rejection["verdicts"] if v["judge"] == "sufficiency")
    assert reason.startswith("chunk B alone answers the question without chunks A and C")
    assert "together" not in reason


def test_a_failed_dimension_rejects_and_is_named_even_when_the_judge_accepts(harness, seed_chunk_id):
    praise = {**ACCEPT, "multi_hop": False, "accepted": True, "reason": "Excellent question."}
    result, model, _ = harness.run(script(QualityVerdict=[praise, ACCEPT]), spec={"seed_id": seed_chunk_id})
    first = next(v for v in result.state["verdicts"] if v["judge"] == "quality")
    assert first["accepted"] is False
    assert first["reason"].startswith("multi_hop failed: Excellent question. To fix multi_hop: make it one question")
    assert first["details"]["reasoning"] == ACCEPT["reasoning"]
    revision_prompt = prompt([m for key, m in model.calls if key == "QuestionDraft"][1])
    assert "quality check: multi_hop failed" in revision_prompt
    assert result.outcome == "accepted" and result.record["validation"]["revisions"] == 1


def test_every_dimension_holding_accepts_even_when_the_judge_says_rejected(harness, seed_chunk_id, calls_of):
    """The dimensions decide in both directions: a verdict whose `accepted` contradicts them is decided by them."""
    contradicting = {**ACCEPT, "accepted": False, "reason": ""}
    result, model, _ = harness.run(script(QualityVerdict=[contradicting]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted" and result.record["validation"]["revisions"] == 0
    quality = next(v for v in result.record["validation"]["verdicts"] if v["judge"] == "quality")
    assert quality["accepted"] is True and quality["details"]["one_question"] is True
    assert calls_of(model, "QualityVerdict") == 1


def test_a_question_that_asks_for_two_things_fails_one_question_with_its_fix(harness, seed_chunk_id, calls_of):
    """A real model that finds a two-part question multi-hop still lists two things it asks for: that fails."""
    two_things = {**ACCEPT, "asks_for": ["the setting", "its default"], "reason": ""}
    result, model, _ = harness.run(script(QualityVerdict=[two_things, two_things]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "rejected"
    first = next(v for v in result.state["verdicts"] if v["judge"] == "quality")
    assert first["accepted"] is False and first["details"]["one_question"] is False
    assert first["details"]["asks_for"] == ["the setting", "its default"]
    assert first["reason"].startswith("one_question failed. To fix one_question: ask one thing")
    revision_prompt = prompt([m for key, m in model.calls if key == "QuestionDraft"][1])
    assert "one_question failed" in revision_prompt


def test_a_single_hop_question_that_asks_for_two_things_is_rejected(harness, seed_chunk_id):
    two_things = {**ACCEPT, "asks_for": ["the default", "the release that added it"], "reason": ""}
    two_things.pop("multi_hop")
    draft = drafted("What are the default of autovacuum_naptime and the release that added it?", "1min, 8.1")
    spec = {"seed_id": seed_chunk_id, "question_type": "factual"}
    result, _, _ = harness.run(
        script(QuestionDraft=[draft, draft], SingleHopVerdict=[two_things, two_things]), spec=spec
    )
    assert result.outcome == "rejected"
    quality = [v for v in result.state["verdicts"] if v["judge"] == "quality"]
    assert quality and all(v["details"]["one_question"] is False for v in quality)


def test_batched_labels_ask_a_left_out_candidate_again_with_care(harness, seed_chunk_id, calls_of):
    only_first = {"labels": [{"candidate": "X1", "relevant": False}]}
    result, model, _ = harness.run(
        script(BatchRelevanceVerdict=[only_first], RelevanceVerdict=relevant_if("autovacuum")),
        spec={"seed_id": seed_chunk_id},
        relevance_labeller="care_batched",
    )
    labels = result.state["relevance_labels"]
    assert len(labels) > 1 and labels[0]["labeller"] == "care_batched"
    asked_again = labels[1:]
    assert all(
        label["labeller"] == "care" and "left out of the batched reply" in label["reason"] for label in asked_again
    )
    assert calls_of(model, "RelevanceVerdict") == len(asked_again)
    texts = {c["id"]: c["text"] for c in result.record["contexts"]}
    assert all(label["relevant"] == ("autovacuum" in texts[label["chunk_id"]]) for label in asked_again)


@pytest.mark.parametrize(("reply", "temporal"), [("Temporal", True), ("Non-Temporal", False), ("not temporal.", False)])
def test_a_bare_temporal_word_is_read_as_the_label(harness, seed_chunk_id, reply, temporal):
    result, _, _ = harness.run(script(TemporalLabel=[reply]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted" and result.record["temporal"] is temporal


def test_a_binary_answer_is_normalised_not_sent_back(harness, seed_chunk_id):
    draft = drafted("Does autovacuum_naptime default to one minute in PostgreSQL 15?", "yes.")
    spec = {"seed_id": seed_chunk_id, "binary": True, "question_type": "intersection"}
    result, _, _ = harness.run(script(QuestionDraft=[draft]), spec=spec)
    assert result.outcome == "accepted"
    assert result.record["answer"] == "Yes" and result.record["validation"]["revisions"] == 0


def test_a_yes_no_sample_asked_for_a_no_is_revised_until_its_answer_is_no(harness, seed_chunk_id):
    confirmed = drafted("Does autovacuum_naptime default to one minute in PostgreSQL 15?", "Yes")
    contradicted = drafted("Does autovacuum_naptime default to five minutes in PostgreSQL 15?", "No")
    spec = {"seed_id": seed_chunk_id, "binary": True, "wanted_answer": "no", "question_type": "intersection"}
    result, model, _ = harness.run(script(QuestionDraft=[confirmed, contradicted]), spec=spec)
    assert result.outcome == "accepted" and result.record["answer"] == "No"
    lint = result.state["verdicts"][0]
    assert (lint["judge"], lint["accepted"], lint["details"]["rules"]) == ("lint", False, ["wanted_answer"])
    generation, revision = [prompt(messages) for key, messages in model.calls if key == "QuestionDraft"]
    for request in (generation, revision):  # both state the answer asked for, and end with it
        assert 'whose correct answer is "No"' in request
        assert request.rstrip().endswith(
            'intersection question in English that needs every supporting chunk, answered "No", as JSON.'
        )
    assert 'answer is "No", not "Yes"' in revision


def test_the_record_keeps_the_declared_construction(harness, seed_chunk_id):
    composed = drafted(
        "What is the default of the setting that sets how often the autovacuum launcher wakes up?",
        "1min",
        hidden=[{"entity": "autovacuum_naptime", "chunk": "A"}],
    )
    result, _, _ = harness.run(
        script(QuestionDraft=[composed]), spec={"seed_id": seed_chunk_id, "question_type": "composition"}
    )
    assert result.outcome == "accepted"
    (hidden,) = result.record["construction"]["hidden_entities"]
    assert hidden == {"entity": "autovacuum_naptime", "chunk_id": result.record["supporting"][0]["id"]}


def test_a_composition_naming_its_hidden_entity_is_revised(harness, seed_chunk_id):
    named = drafted(
        "What is the default of autovacuum_naptime, which sets how often the launcher wakes up?",
        "1min",
        hidden=[{"entity": "autovacuum_naptime", "chunk": "A"}],
    )
    hidden = {
        **named,
        "question": "What is the default of the setting that sets how often the autovacuum launcher wakes up?",
    }
    result, _, _ = harness.run(
        script(QuestionDraft=[named, hidden]), spec={"seed_id": seed_chunk_id, "question_type": "composition"}
    )
    lint = result.state["verdicts"][0]
    assert (lint["judge"], lint["accepted"], lint["details"]["rules"]) == ("lint", False, ["hidden_entity"])
    assert result.outcome == "accepted" and result.record["question"] == hidden["question"]


def test_a_sample_input_outside_the_allowed_hops_ends_before_any_model_call(harness):
    result, model, _ = harness.run(script(), spec={"hops": 7})
    assert result.outcome == "failed"
    assert result.rejection["end_reason"] == "invalid sample input: hops must be a whole number from 2 to 4, not 7"
    assert model.calls == []


def test_settings_a_record_would_refuse_are_refused_when_the_context_is_built(pg_url, demo_slice):
    from graph.config.settings import resolve_settings
    from graph.llm.offline.scripted import ScriptedChatModel
    from graph.sample import run_sample

    with pytest.raises(ValueError, match="max_unanswerable_contexts must be from 2 to 5"):
        Context(max_unanswerable_contexts=8)
    settings = resolve_settings({"collection": demo_slice, "database_url": pg_url, "state_url": pg_url}, env={})
    spec = {"question_type": "comparison", "binary": False}
    model = ScriptedChatModel(script=script())
    models = {"generator": model, "validator": model, "extractor": model}
    with pytest.raises(ValueError, match="hops must be a whole number from 2 to 4, not 5"):
        run_sample({**spec, "hops": 5}, collection=demo_slice, settings=settings, models=models)
    with pytest.raises(ValueError, match="medium_extra must be at least hard_extra"):
        run_sample(spec, collection=demo_slice, settings=settings, models=models, hard_extra=3, medium_extra=1)
    assert model.calls == []


def test_two_questions_joined_by_and_are_rejected_before_any_judge(harness, seed_chunk_id, calls_of):
    spec = {"seed_id": seed_chunk_id, "question_type": "intersection"}
    result, model, _ = harness.run(script(QuestionDraft=[CONJUNCTION_QUESTION]), spec=spec)
    assert result.outcome == "rejected"
    assert {tuple(v["details"]["rules"]) for v in result.state["verdicts"]} == {("two_questions",)}
    assert calls_of(model, "QualityVerdict") == 0  # lint refused both drafts; no judge was paid


def judge_answer_against_chunks(messages):  # noqa: ANN001, ANN201
    """A quality judge that checks criterion E: the reference answer must be what a chunk states."""
    text = messages[-1].content
    answer = text.split('<answer label="reference">\n', 1)[1].split("\n</answer", 1)[0]
    chunks = text.split("Supporting chunks:\n", 2)[-1]
    stated = answer.casefold() in chunks.casefold()
    return {
        **ACCEPT,
        "reasoning": f"the chunks {'state' if stated else 'do not state'} {answer!r}",
        "quality": stated,
        "accepted": stated,
        "reason": "" if stated else f"quality E: the chunks do not give {answer!r}; answer with the value they state",
    }


def test_a_wrong_reference_answer_is_rejected_by_the_quality_judge(harness, seed_chunk_id):
    wrong = drafted(GOOD_QUESTION["question"], "5 minutes", hidden=GOOD_QUESTION["hidden_entities"])
    result, _, _ = harness.run(
        script(QuestionDraft=[wrong], QualityVerdict=judge_answer_against_chunks), spec={"seed_id": seed_chunk_id}
    )
    assert result.outcome == "rejected"
    quality = [v for v in result.state["verdicts"] if v["judge"] == "quality"]
    assert quality and not any(v["accepted"] for v in quality)
    assert "quality E" in quality[-1]["reason"] and "'5 minutes'" in quality[-1]["reason"]
    revision_prompt = str(result.state["drafts"][-1])  # the revision was asked with the judge's feedback
    assert result.state["revisions"] == 1 and revision_prompt


def test_an_explained_yes_is_kept_as_yes_with_its_explanation_beside_it(harness, seed_chunk_id):
    """Real models write "Yes, because ..."; the record keeps the word, the lint verdict the explanation."""
    draft = drafted(
        "Does autovacuum_naptime default to one minute in PostgreSQL 15?", "Yes, because the default is 1min"
    )
    spec = {"seed_id": seed_chunk_id, "binary": True, "question_type": "intersection"}
    result, _, _ = harness.run(script(QuestionDraft=[draft]), spec=spec)
    assert result.outcome == "accepted" and result.record["answer"] == "Yes"
    assert result.record["validation"]["revisions"] == 0
    lint = result.record["validation"]["verdicts"][0]
    assert lint["judge"] == "lint" and lint["details"]["answer_note"] == "because the default is 1min"
    assert result.state["drafts"][0]["answer_note"] == "because the default is 1min"


def test_a_comparison_that_declares_no_entities_is_sent_back_for_them(harness, seed_chunk_id, calls_of):
    question = "Which is longer by default, autovacuum_naptime or autovacuum_vacuum_cost_delay?"
    bare = drafted(question, "autovacuum_naptime")
    declared = drafted(question, "autovacuum_naptime", compared=["autovacuum_naptime", "autovacuum_vacuum_cost_delay"])
    spec = {"seed_id": seed_chunk_id, "question_type": "comparison"}
    result, model, _ = harness.run(script(QuestionDraft=[bare, declared]), spec=spec)
    assert result.outcome == "accepted" and result.record["validation"]["revisions"] == 1
    first = result.record["validation"]["verdicts"][0]
    assert first["judge"] == "lint" and first["details"]["rules"] == ["construction"]
    assert "compared_entities" in first["reason"]
    assert calls_of(model, "QualityVerdict") == 1  # the judges read only the draft that declares its entities


def test_a_german_second_question_is_refused_by_lint_in_a_run(harness, seed_chunk_id, calls_of):
    two = drafted(
        "Welcher Parameter steuert die Pause des Autovacuum-Launchers und wie lautet sein Standardwert?",
        "autovacuum_naptime",
    )
    spec = {"seed_id": seed_chunk_id, "question_type": "intersection"}
    result, model, _ = harness.run(script(QuestionDraft=[two, two]), spec=spec, question_language="de")
    assert result.outcome == "rejected"
    assert {tuple(v["details"]["rules"]) for v in result.state["verdicts"]} == {("two_questions",)}
    assert calls_of(model, "QualityVerdict") == 0


@pytest.mark.parametrize(
    ("language", "yes", "no", "question"),
    [
        ("de", "Ja", "Nein", "Ist autovacuum_naptime in PostgreSQL 15 standardmäßig eine Minute?"),
        ("fr", "Oui", "Non", "autovacuum_naptime vaut-il une minute par défaut dans PostgreSQL 15 ?"),
    ],
)
def test_a_yes_no_request_names_the_answer_words_of_its_language_only(
    harness, seed_chunk_id, language, yes, no, question
):
    draft = drafted(question, yes)
    spec = {"seed_id": seed_chunk_id, "binary": True, "question_type": "intersection"}
    _, model, _ = harness.run(script(QuestionDraft=[draft, draft]), spec=spec, question_language=language)
    request = prompt([m for key, m in model.calls if key == "QuestionDraft"][0])
    assert f'(answered "{yes}" or "{no}")' in request
    requests = ["\n".join(str(m.content) for m in messages) for _, messages in model.calls]  # system and user
    assert {"QuestionDraft", "QualityVerdict", "SufficiencyVerdict"} <= {key for key, _ in model.calls}
    for text in requests:  # no request of the run, generation or judges, names an English answer word
        assert "Yes or No" not in text and '"Yes"' not in text and '"No"' not in text


def test_a_draft_that_copies_the_prompts_example_is_refused_by_lint_and_revised(harness, seed_chunk_id, calls_of):
    """Real small models answer the comparison request with its own example, verbatim: lint sends it back."""
    copied = drafted("Which has more members, X or Y?", "X", compared=["X", "Y"])
    real = drafted(
        "Which is longer by default, autovacuum_naptime or autovacuum_vacuum_cost_delay?",
        "autovacuum_naptime",
        compared=["autovacuum_naptime", "autovacuum_vacuum_cost_delay"],
    )
    spec = {"seed_id": seed_chunk_id, "question_type": "comparison"}
    result, model, _ = harness.run(script(QuestionDraft=[copied, real]), spec=spec)
    first = prompt([m for key, m in model.calls if key == "QuestionDraft"][0])
    assert '"Which has more members, X or Y?"' in first  # the example the request shows
    lint = result.state["verdicts"][0]
    assert lint["judge"] == "lint" and "prompt_example" in lint["details"]["rules"]
    assert "the placeholder 'X' where an entity belongs" in lint["reason"]
    revision = prompt([m for key, m in model.calls if key == "QuestionDraft"][1])
    assert "the placeholder 'X' where an entity belongs" in revision
    assert result.outcome == "accepted" and result.record["question"] == real["question"]
    assert calls_of(model, "QualityVerdict") == 1  # no judge read the copy


def test_a_german_copy_of_the_example_is_refused_in_a_german_run(harness, seed_chunk_id, calls_of):
    copied = drafted("Welche wurde früher gegründet, X oder Y?", "X", compared=["X", "Y"])
    spec = {"seed_id": seed_chunk_id, "question_type": "comparison"}
    result, model, _ = harness.run(script(QuestionDraft=[copied, copied]), spec=spec, question_language="de")
    assert result.outcome == "rejected"
    assert all("prompt_example" in v["details"]["rules"] for v in result.state["verdicts"] if v["judge"] == "lint")
    assert calls_of(model, "QualityVerdict") == 0
