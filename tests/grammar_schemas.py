"""JSON schemas within the app's budget whose grammars cost GenAI known amounts to compile on
SmolLM2-135M's tokenizer (measured with the grammar probe; ``app.core.schema_budget`` quotes
the same edges): the guard's tests lower its limits between them."""

from __future__ import annotations

import json

SMALL = json.dumps({"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]})
"""Compiles at once: about 0.01 s of CPU and no memory to speak of."""
COSTLY = json.dumps(
    {
        "type": "object",
        "properties": {
            "a": {"type": "string", "maxLength": 300},
            "b": {"type": "string", "maxLength": 100_000},
            "mail": {"type": "string", "format": "email"},
        },
        "required": ["a", "b", "mail"],
    }
)
"""The budget's costliest string bounds, given to GenAI's converter: about 12 s of CPU."""
BIG_ENUM = json.dumps({"enum": [f"value-{i:05d}" for i in range(5000)]})
"""5,000 enum values (the budget's limit) in the compact grammar: about 44 MB more memory."""
