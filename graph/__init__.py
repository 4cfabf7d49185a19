"""triad's application layer: the sample graph, the commands, and the services they run on.

    studio.py     the sample graph (`nodes.builder`) as LangGraph Studio opens it
    sample.py     the Python API: one sample in-process (`run_sample`)
    run, ingest, replay, evaluate,      one thin module per command (`python -m graph.<command>`):
    export, review, db                  a parser and `main`
    services.py   the composition root: the state database, the corpus, the gateway a command runs on
    running/      the work loop: a run from start to end, the slot worker, the sample runner, lanes,
                  progress, real queries, flags, the estimate, replays
    planning/     what a run is asked for: options (each setting once, with its flag), stages, personas,
                  languages, the query file
    seeding/      where samples start: seeds and document weights
    ledger/       the run ledger: runs, slots under leases, the seeds and questions used once, models' modes
    figures/      a run's figures: funnel, query styles, coverage, report.html
    folder/       a run's folder: files written whole, run.json's type and store settings, manifest, versions,
                  last check
    living/       the living dataset: drift and staleness against the store now, followed facts, new versions
    exporting/    the export formats and the pushes to LangSmith and Langfuse
    store/        the databases: embedded server, the collection reader and corpus, embeddings, checkpoints
    llm/          the model layer: factory, gateway, replies, limits, parsing, cache, recorded calls and the
                  offline models (`offline:plausible`)
    ingestion/    documents into a PGVectorStore table
    evaluation/   RAG setups scored on a dataset: answering, scoring, confidence; `evaluate`, the whole of it
    statistics/   intervals of means and shares, paired differences, the questions needed to detect one
    reviewing/    the review app, its labels and the reviewers' table
    webpage/      what the three HTML pages share: escaping, tables, charts, style sheets and script
    config/       settings, errors a user can fix, logging, command-line helpers
    testing/      old names of the offline models and the demo pipelines, each with a FutureWarning
    demo/         the bundled demo corpus, its recorded model calls and example pipelines

Imports go one way: commands -> evaluation -> living -> reviewing -> running -> services -> planning ->
seeding -> ledger -> figures -> folder -> store, llm, ingestion -> nodes -> state, prompts; config is used by
all of them; it uses only the nodes' defaults and the roles of state.usage. No command imports another, and no
two of graph's subpackages and modules import each other round a cycle; `lint-imports` checks these
directions (pyproject.toml's contracts).
"""
