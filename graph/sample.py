"""The Python API for one sample: `graph.sample.run_sample` (its home is `graph.runs.sample`).

from graph.sample import run_sample
result = run_sample({"question_type": "comparison", "binary": False}, collection="triad_demo",
                    models={"generator": my_model, "validator": my_model, "extractor": my_model})
result.outcome, result.record, result.rejection
"""

from graph.runs.sample import SampleResult, arun_sample, run_sample

__all__ = ["SampleResult", "arun_sample", "run_sample"]
