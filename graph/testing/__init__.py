"""Old names of the offline models and the demo pipelines, kept so that specs written for them still work.

`import:graph.testing.plausible:plausible_model` is `offline:plausible` (`graph.llm.offline`);
`graph.testing.pipelines` is `graph.demo.pipelines`. Each old module says so once, as a `FutureWarning`.
"""

from __future__ import annotations

import warnings


def moved(old: str, new: str) -> None:
    """Say once that module `old` is now `new`."""
    warnings.warn(f"{old} is now {new}; {old} will be removed", FutureWarning, stacklevel=3)
