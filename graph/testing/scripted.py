"""`graph.llm.offline.scripted`, under its old name: importing it gives that module."""

from __future__ import annotations

import sys

from graph.llm.offline import scripted
from graph.testing import moved

moved("graph.testing.scripted", "graph.llm.offline.scripted")
sys.modules[__name__] = scripted
