"""`graph.demo.pipelines`, under its old name: importing it gives that module."""

from __future__ import annotations

import sys

from graph.demo import pipelines
from graph.testing import moved

moved("graph.testing.pipelines", "graph.demo.pipelines")
sys.modules[__name__] = pipelines
