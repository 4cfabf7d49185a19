"""Local servers speaking hosted providers' wire formats, for contract tests and benchmarks.

`gemini_stub` answers `POST /{version}/models/{model}:generateContent` as the Gemini API documents
it; `ollama_stub` answers Ollama's `POST /api/chat`. Both answer every structured-output request
with the plausible script's answer for its schema (found by the schema's title), report token usage,
and can be told to fail: a queue of scripted faults, and requests-per-minute and tokens-per-minute
limits past which they answer 429 as the services do. `serve_rag` plays a team's RAG service.
"""
