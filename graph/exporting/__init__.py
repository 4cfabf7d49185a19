"""A run's dataset for other tools: the export formats and the pushes to LangSmith and Langfuse."""
