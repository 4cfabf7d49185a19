"""The sample graph (LangGraph): its nodes and how they are wired.

    registry.py        every node, one entry: function, role, prompt, reply size, route, judging, starts
    question_types.py  every question type, one entry: texts, hop bounds, answer form, lint rules, seed
    builder.py         the graph wired from the registry; routing.py the routes, from the state alone
    steps/             a module per step (or per pair of steps that share their code)
    lint/              the lint step, its rule tables and one per language
    run_context.py     the run parameters every node reads (the graph's context schema); ports.py what a node
                       is handed (corpus, models, seeds, questions, queries)
    common.py, language.py, starts.py, implementations.py, versions.py   what the steps share

May import state and prompts only.
"""
