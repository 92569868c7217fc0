"""The local server: OpenAI- and Ollama-compatible HTTP APIs over the app's models.

FastAPI on uvicorn (:mod:`app.server.runner`), one bearer token (:mod:`app.server.token`),
errors in each API's own shape (:mod:`app.server.errors`), chat answers from a
continuous-batching engine (:mod:`app.server.served_models`) so several clients stream at once.
"""
