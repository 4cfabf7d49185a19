"""The offline model provider (`offline:plausible`): chat models that answer in this process, with no server.

`scripted` is a fake chat model with structured output and injectable faults; `plausible` is its script for every
schema triad asks for, built from the prompt it is sent (with `judges`, `wordings`, `restyles` and `reading`).
Demo runs, benchmarks and tests use them.
"""
