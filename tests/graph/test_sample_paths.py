"""Every path of the sample graph, driven by scripted models against the real PostgreSQL."""

from __future__ import annotations

from langgraph.constants import START

from graph.store.checkpoints import TRIGGER_PREFIX
from nodes.builder import compile_graph
from nodes.registry import ASK_NO_CHAT_MODEL, NODES
from state.record import DatasetRecord
from tests.support.scripts import ACCEPT, GOOD_QUESTION, bridge, drafted, relevant_if, script

NO_TOPIC = bridge("", [], {"C1": ["zzz_no_such_entity"]})

ACCEPTED_PATH = [
    "__start__",
    "select_seed",
    "retrieve_neighbours",
    "propose_bridge",
    "generate_question",
    "lint_question",
    "judge_quality",
    "judge_sufficiency",
    "classify_temporal",
    "check_duplicate",
    "extract_contexts",
    "finalize_sample",
]


def test_common_bridge_found_then_accepted_with_a_valid_record(harness, seed_chunk_id) -> None:
    result, model, visits = harness.run(script(), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    record = DatasetRecord.model_validate(result.record)
    assert record.supporting[0].id == seed_chunk_id
    assert record.bridge_topic == "autovacuum"
    assert record.question == GOOD_QUESTION["question"] and record.answer == GOOD_QUESTION["answer"]
    assert record.provenance.thread_id == result.thread_id and record.provenance.run_id == "test"
    assert record.validation.revisions == 0
    assert [v["judge"] for v in record.validation.verdicts] == ["lint", "quality", "sufficiency"]
    assert result.state["bridge_attempts"][-1]["method"] == "proposal"
    assert visits == ACCEPTED_PATH


def test_checkpoint_history_lists_every_node_visit_in_order(harness, seed_chunk_id) -> None:
    replies = script(QuestionDraft=[drafted("According to the text, what is it?", "x"), GOOD_QUESTION])
    _, _, visits = harness.run(replies, spec={"seed_id": seed_chunk_id})
    assert visits == [
        *ACCEPTED_PATH[:6],
        "revise_question",
        "lint_question",
        *ACCEPTED_PATH[6:],
    ]


def test_no_common_topic_then_exact_match_found(harness, seed_chunk_id) -> None:
    proposal = bridge("", [], {"C1": ["zzz_absent", "autovacuum"]})
    result, _, visits = harness.run(script(BridgeProposal=[proposal]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    assert "match_bridge" in visits
    methods = [(a["method"], a["found"]) for a in result.state["bridge_attempts"]]
    assert methods == [("proposal", False), ("exact_match", True)]
    assert result.record["bridge_topic"] == "autovacuum"
    assert all("autovacuum" in c["text"].casefold() for c in result.record["supporting"])


def test_restart_then_success(harness, seed_chunk_id) -> None:
    replies = script(BridgeProposal=[NO_TOPIC, bridge("VACUUM", ["C1", "C3"])])
    result, _, visits = harness.run(replies, spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    assert result.state["restarts"] == 1
    assert visits.count("select_seed") == 2
    attempts = result.state["bridge_attempts"]
    assert [a["found"] for a in attempts] == [False, False, True]
    assert attempts[1]["cause"] == "no candidate entity is shared by enough chunks"
    assert attempts[2]["seed_id"] != seed_chunk_id
    assert result.record["supporting"][0]["id"] == attempts[2]["seed_id"]


def test_no_bridge_after_max_restarts(harness) -> None:
    result, _, visits = harness.run(script(BridgeProposal=[NO_TOPIC]), max_restarts=3)
    assert result.outcome == "no_bridge"
    assert result.record is None
    assert result.state["restarts"] == 3
    assert visits.count("select_seed") == 4
    assert visits[-2:] == ["match_bridge", "end_without_bridge"]  # routing decides the restarts are spent
    seeds = {a["seed_id"] for a in result.state["bridge_attempts"]}
    assert len(seeds) == 4 and len(result.state["bridge_attempts"]) == 8
    assert result.rejection["end_reason"] == "no bridge after 3 restarts"


def test_lint_failure_is_revised(harness, seed_chunk_id, calls_of) -> None:
    meta = drafted("According to the text, which setting wakes the launcher?", "autovacuum_naptime")
    result, model, _ = harness.run(script(QuestionDraft=[meta, GOOD_QUESTION]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    verdicts = result.state["verdicts"]
    assert (verdicts[0]["judge"], verdicts[0]["accepted"]) == ("lint", False)
    assert "refers to the material" in verdicts[0]["reason"]
    assert [d["origin"] for d in result.state["drafts"]] == ["generate", "revise"]
    assert calls_of(model, "QualityVerdict") == 1  # the judge never paid for the linted draft
    revision_prompt = [m for key, m in model.calls if key == "QuestionDraft"][1][-1].content
    assert "refers to the material" in revision_prompt and "According to the text" in revision_prompt


def test_quality_reject_then_revision_then_accept(harness, seed_chunk_id) -> None:
    reject = {**ACCEPT, "unambiguous": False, "accepted": False, "reason": "two settings fit; name the launcher"}
    result, _, _ = harness.run(script(QualityVerdict=[reject, ACCEPT]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted"
    judged = [(v["judge"], v["accepted"], v["revision"]) for v in result.state["verdicts"]]
    assert judged == [
        ("lint", True, 0),
        ("quality", False, 0),
        ("lint", True, 1),
        ("quality", True, 1),
        ("sufficiency", True, 1),
    ]
    assert result.record["validation"]["revisions"] == 1


def test_single_chunk_suffices_then_rejected_after_the_last_revision(harness, seed_chunk_id, calls_of) -> None:
    enough = {"reasoning": "chunk A names the setting and its default", "sufficient": True, "reason": "it says so"}
    result, model, visits = harness.run(script(SufficiencyVerdict=[enough]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "rejected"
    assert result.record is None
    assert visits[-2:] == ["judge_sufficiency", "reject_sample"]  # the judge rejected; reject_sample ended it
    verdicts = result.rejection["verdicts"]
    assert [(v["judge"], v["accepted"]) for v in verdicts] == [
        ("lint", True),
        ("quality", True),
        ("sufficiency", False),
        ("lint", True),
        ("quality", True),
        ("sufficiency", False),
    ]
    assert "chunk A alone answers the question" in verdicts[2]["reason"]
    assert len(result.rejection["drafts"]) == 2
    assert result.rejection["end_reason"].startswith("rejected by the sufficiency check after 1 revision")
    assert calls_of(model, "SufficiencyVerdict") == 4  # two chunks, two rounds


def test_accept_with_temporal(harness, seed_chunk_id) -> None:
    result, _, _ = harness.run(script(TemporalLabel=["Yes"]), spec={"seed_id": seed_chunk_id})
    assert result.outcome == "accepted" and result.record["temporal"] is True


def test_extraction_labels_distinct_distractors_and_grades_difficulty(harness, seed_chunk_id) -> None:
    result, _, _ = harness.run(script(), spec={"seed_id": seed_chunk_id}, distractors_k=10)
    record = result.record
    supporting_ids = [c["id"] for c in record["supporting"]]
    contexts = record["contexts"]
    assert [c["id"] for c in contexts[:2]] == supporting_ids
    assert all(c["origin"] == "supporting" and c["relevant"] is True for c in contexts[:2])
    distractors = contexts[2:]
    assert distractors and all(c["origin"] == "distractor" for c in distractors)
    assert not {c["id"] for c in distractors} & set(supporting_ids)
    texts = [" ".join(c["text"].split()).casefold() for c in contexts]
    assert len(texts) == len(set(texts))
    assert all(isinstance(c["relevant"], bool) for c in contexts)
    for context in distractors:
        assert context["relevant"] == ("autovacuum" in context["text"])
    n_relevant = sum(c["relevant"] for c in contexts)
    assert record["n_relevant"] == n_relevant
    expected = "hard" if n_relevant <= 2 else "medium" if n_relevant <= 4 else "easy"
    assert record["difficulty"] == expected
    labels = result.state["relevance_labels"]
    assert {label["chunk_id"] for label in labels} == {c["id"] for c in distractors}
    assert {label["labeller"] for label in labels} == {"care"}


def test_unanswerable_variant_holds_up_to_five_irrelevant_contexts(harness, seed_chunk_id) -> None:
    result, _, _ = harness.run(script(RelevanceVerdict=["Not Relevant"]), spec={"seed_id": seed_chunk_id})
    record = result.record
    assert record["difficulty"] == "hard" and record["n_relevant"] == 2
    variant = record["unanswerable"]
    assert variant["expected"] == "abstain" and 2 <= len(variant["contexts"]) <= 5
    irrelevant = {c["id"] for c in record["contexts"] if not c["relevant"]}
    assert set(variant["contexts"]) <= irrelevant


def test_no_unanswerable_variant_when_everything_is_relevant(harness, seed_chunk_id) -> None:
    result, _, _ = harness.run(script(RelevanceVerdict=[{"relevant": True}]), spec={"seed_id": seed_chunk_id})
    assert result.record["unanswerable"] is None
    assert result.record["difficulty"] == "easy"


def test_three_hops(harness, seed_chunk_id, calls_of) -> None:
    replies = script(BridgeProposal=[bridge("autovacuum", ["C1", "C2", "C3"])])
    result, model, _ = harness.run(replies, spec={"seed_id": seed_chunk_id, "hops": 3})
    assert result.outcome == "accepted"
    assert result.record["hops"] == 3 and len(result.record["supporting"]) == 3
    assert calls_of(model, "SufficiencyVerdict") == 6  # each chunk alone, and each pair of the three
    generation_prompt = [m for key, m in model.calls if key == "QuestionDraft"][0][-1].content
    assert all(f'<chunk label="{label}">' in generation_prompt for label in "ABC")


def test_too_few_chunks_named_for_the_hops_falls_back_to_matching(harness, seed_chunk_id) -> None:
    replies = script(BridgeProposal=[bridge("autovacuum", ["C1", "C2"], {"C1": ["autovacuum"]})])
    result, _, visits = harness.run(replies, spec={"seed_id": seed_chunk_id, "hops": 3})
    assert "match_bridge" in visits
    assert result.outcome == "accepted" and len(result.record["supporting"]) == 3


def test_unusable_replies_fail_the_sample_with_the_raw_reply_kept(harness, seed_chunk_id) -> None:
    result, _, _ = harness.run(
        script(QualityVerdict=["The question looks fine to me."]), spec={"seed_id": seed_chunk_id}
    )
    assert result.outcome == "failed"
    assert result.rejection["failure_raw"] == "The question looks fine to me."
    assert "no usable QualityVerdict" in result.rejection["end_reason"]


def test_care_sees_the_whole_supporting_list(harness, seed_chunk_id) -> None:
    _, model, _ = harness.run(script(RelevanceVerdict=relevant_if("autovacuum")), spec={"seed_id": seed_chunk_id})
    prompts = [m[-1].content for key, m in model.calls if key == "RelevanceVerdict"]
    assert prompts and all('<chunk label="A">' in p and '<chunk label="B">' in p and "<candidate" in p for p in prompts)


def test_reference_like_mode_checks_sufficiency_even_after_a_quality_reject(harness, seed_chunk_id, calls_of) -> None:
    reject = {**ACCEPT, "accepted": False, "multi_hop": False, "reason": "chunk A answers it"}
    result, model, visits = harness.run(
        script(QualityVerdict=[reject, ACCEPT]), spec={"seed_id": seed_chunk_id}, sufficiency_after_quality_reject=True
    )
    assert result.outcome == "accepted"
    judged = [(v["judge"], v["accepted"], v["revision"]) for v in result.state["verdicts"]]
    assert judged[:3] == [("lint", True, 0), ("quality", False, 0), ("sufficiency", True, 0)]
    assert visits.index("judge_sufficiency") < visits.index("revise_question")
    assert calls_of(model, "SufficiencyVerdict") == 4


def test_the_python_api_runs_one_sample_with_injected_models(pg_url, demo_slice, seed_chunk_id) -> None:
    from graph.config.settings import resolve_settings
    from graph.llm.offline.scripted import ScriptedChatModel
    from graph.sample import run_sample

    model = ScriptedChatModel(script=script())
    settings = resolve_settings({"collection": demo_slice, "database_url": pg_url, "state_url": pg_url}, env={})
    spec = {"question_type": "composition", "binary": False, "seed_id": seed_chunk_id}
    models = {"generator": model, "validator": model, "extractor": model}
    first = run_sample(spec, collection=demo_slice, models=models, settings=settings, max_revisions=2)
    second = run_sample(spec, collection=demo_slice, models=models, settings=settings)
    assert first.outcome == second.outcome == "accepted"
    assert first.thread_id != second.thread_id and first.thread_id.startswith("adhoc/")
    assert DatasetRecord.model_validate(first.record).provenance.models["generator"] == "instance:ScriptedChatModel"


def test_the_steps_whose_checkpoints_wait_ask_no_chat_model(harness, seed_chunk_id) -> None:
    seed = {"seed_id": seed_chunk_id}
    paths = [
        (script(BridgeProposal=[bridge("", [], {"C1": ["zzz_absent", "autovacuum"]})]), seed, {}),  # exact match
        (script(QuestionDraft=[drafted("According to the text, what is it?", "x"), GOOD_QUESTION]), seed, {}),  # lint
        (script(SufficiencyVerdict=[{"reasoning": "A says it", "sufficient": True, "reason": "A alone"}]), seed, {}),
        (script(BridgeProposal=[NO_TOPIC]), None, {"max_restarts": 0}),  # no bridge
    ]
    visited: set[str] = set()
    for replies, spec, context in paths:
        result, _, visits = harness.run(replies, spec=spec, **context)
        asking = {call["node"] for call in result.state["llm_calls"]}
        assert asking and not asking & ASK_NO_CHAT_MODEL
        visited |= set(visits)
    assert visited >= ASK_NO_CHAT_MODEL  # each of them seen, on some path, asking nothing


def test_each_node_runs_on_the_one_channel_the_checkpointer_reads_as_its_next_step() -> None:
    nodes = compile_graph().nodes
    assert {name: nodes[name].triggers for name in NODES} == {name: [f"{TRIGGER_PREFIX}{name}"] for name in NODES}
    assert nodes[START].triggers == [START]


def test_an_accepted_record_carries_its_evidence_where_it_stands_in_chunk_and_document(harness, seed_chunk_id) -> None:
    result, model, _ = harness.run(script(), spec={"seed_id": seed_chunk_id})
    record = result.record
    assert result.outcome == "accepted" and record["evidence_status"] == "quoted"
    for chunk in record["supporting"]:
        (fact,) = chunk["evidence"]
        place = fact["location"]
        assert (
            chunk["text"][place["chunk_start"] : place["chunk_end"]] == fact["quote"] == chunk["text"].splitlines()[0]
        )
        start = chunk["metadata"]["start_index"]
        assert (place["document_start"], place["document_end"]) == (
            start + place["chunk_start"],
            start + place["chunk_end"],
        )
        assert place["source"] == chunk["metadata"]["source"] and place["chunk_id"] == chunk["id"]
        for other in fact["also_in"]:  # a relevant context holding the same words: another location of the fact
            context = next(c for c in record["contexts"] if c["id"] == other["chunk_id"])
            assert context["relevant"] and context["text"][other["chunk_start"] : other["chunk_end"]] == fact["quote"]
    judged = [messages for key, messages in model.calls if key == "SufficiencyVerdict"]
    for messages in judged:  # each sufficiency request shows the quotes of the chunk it tests, no other
        text = str(messages[-1].content)
        tested = text.split("Text (chunk ", 1)[1][0]
        assert f'<quote label="{tested}">' in text and text.count("<quote label=") == 1


def test_a_quote_not_in_its_chunk_is_sent_back_once_naming_the_chunk(harness, seed_chunk_id) -> None:
    made_up = "autovacuum wakes every 90 seconds"
    invented = {**GOOD_QUESTION, "evidence": [{"chunk": label, "quote": made_up} for label in "AB"]}
    result, _, visits = harness.run(script(QuestionDraft=[invented, GOOD_QUESTION]), spec={"seed_id": seed_chunk_id})
    lint = [v for v in result.state["verdicts"] if v["judge"] == "lint"]
    assert not lint[0]["accepted"] and "is not in chunk A word for word" in lint[0]["reason"]
    assert "is not in chunk B" in lint[0]["reason"] and lint[1]["accepted"]
    assert "revise_question" in visits and result.outcome == "accepted"
