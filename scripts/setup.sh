#!/usr/bin/env bash
# One-time setup: a virtual environment in .venv with triad, local embeddings and the dev tools.
# torch is installed first and pinned to the CPU build, so nothing pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0
.venv/bin/python -m pip install --quiet -e ".[local-embeddings,dev]"
echo "triad is installed in .venv; activate it with: . .venv/bin/activate"
