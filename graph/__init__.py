"""triad's application layer: the sample graph, the commands, and the services they run on.

    builder.py, routing.py, studio.py   the sample graph (LangGraph), its routes, its Studio entry
    sample.py                           the Python API: one sample in-process (`run_sample`)
    run, ingest, replay, evaluate,      one thin module per command (`python -m graph.<command>`):
    export, review, db                  a parser and `main`
    running/      runs: the composition root (`services`), the sample runner, the slot worker, the run
                  ledger, options and flags, seeds and queries, files, coverage, report, replays
    living/       the living dataset: drift and staleness against the store now, refreshed versions, manifest
    exporting/    the export formats and the pushes to LangSmith and Langfuse
    store/        the databases: embedded server, the collection reader and corpus, embeddings, checkpoints
    llm/          the model layer: factory, gateway, replies, limits, parsing, cache and recorded calls
    ingestion/    documents into a PGVectorStore table
    evaluation/   RAG setups scored on a dataset
    reviewing/    the review app, its labels and the reviewers' table
    webpage/      what the three HTML pages share: escaping, tables, charts, style sheets and script
    config/       settings, errors a user can fix, logging, command-line helpers
    testing/      scripted chat models, provider stubs, example pipelines and command helpers
    demo/         the bundled demo corpus and its recorded model calls

Imports go one way: commands -> running, evaluation, reviewing -> store, llm, ingestion -> nodes -> state,
prompts; config is used by all of them; it uses only the nodes' defaults and the roles of state.usage.
No command imports another; `lint-imports` checks these directions (pyproject.toml's contracts).
"""
