"""`graph.llm.offline.plausible` under its old name (as a model spec, `offline:plausible`): importing it gives that
module."""

from __future__ import annotations

import sys

from graph.llm.offline import plausible
from graph.testing import moved

moved("graph.testing.plausible", "graph.llm.offline.plausible (as a model spec, offline:plausible)")
sys.modules[__name__] = plausible
