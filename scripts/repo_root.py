"""Imported first by the scripts that use the tests' helpers (`tests.support`): puts the repository on `sys.path`."""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
