"""What both APIs' request models share: leniency about unknown fields, and the size limits.

Lenient about what a model does not know (``extra="allow"``: clients send fields newer than
this server), strict about what it does: every known field is type- and range-checked, so a
bad value is a 400 naming it (:func:`app.server.errors.describe_validation`).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from pipelines.chat import MAX_PROMPT_CHARS

#: Characters of all messages together (the last message has chat's own limit).
MAX_CONVERSATION_CHARS = 4 * MAX_PROMPT_CHARS
MAX_MESSAGES = 1000
#: The longest answer a request may ask for (GenerationSettings' own limit).
MAX_ANSWER_TOKENS = 32_768


class Lenient(BaseModel):
    """A request (or a part of one) that ignores fields it does not know."""

    model_config = ConfigDict(extra="allow")
