"""The model layer: chat models made from "provider:model" specs per role, and the gateway every node
asks (bounded retries, rate limits, structured-output parsing, accounting, cache, recorded calls).

May import graph.config, nodes and state; never store, runs or a command.
"""
