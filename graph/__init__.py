"""triad's application layer: the sample graph, the commands, and the services they run on.

    builder.py, routing.py, studio.py   the sample graph (LangGraph), its routes, its Studio entry
    run, ingest, replay, evaluate,      one thin module per command (`python -m graph.<command>`):
    export, db                          a parser and `main`, nothing else
    runs/         runs: the composition root, sample runner, lanes, run store, seeds and queries, files,
                  coverage, report
    store/        the databases: embedded server, corpus, embeddings, checkpoints
    llm/          the model layer: factory, gateway, limits, parsing, cache and replay files
    ingestion/    documents into a PGVectorStore table
    evaluation/   RAG setups scored on a dataset
    config/       settings, errors a user can fix, logging, command-line helpers
    testing/      scripted chat models for tests, benchmarks and offline runs
    demo/         the bundled demo corpus and its recorded replay

Imports go one way: commands -> runs, evaluation -> store, llm, ingestion -> nodes -> state, prompts;
config is used by all of them; it uses only the nodes' defaults and the roles of state.usage.
"""
