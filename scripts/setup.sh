#!/usr/bin/env bash
# One-time setup: a virtual environment in .venv with triad, local embeddings and the dev tools.
# torch is installed first and pinned, so the extras do not pull another build. Where pip's default
# index would give the multi-GB CUDA build, set TRIAD_TORCH_INDEX=https://download.pytorch.org/whl/cpu
# to take the CPU build from there.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet torch==2.13.0 ${TRIAD_TORCH_INDEX:+--index-url "$TRIAD_TORCH_INDEX"}
.venv/bin/python -m pip install --quiet -e ".[local-embeddings,documents,dev]"
echo "triad is installed in .venv; activate it with: . .venv/bin/activate"
