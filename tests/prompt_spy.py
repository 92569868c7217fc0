"""What the real chat pipeline is asked: a spy that still lets it generate for real."""

from __future__ import annotations

from typing import Any

import pytest

from app.context import AppContext
from pipelines.generation import Message


def spy_on_prompts(context: AppContext, monkeypatch: pytest.MonkeyPatch) -> list[list[Message]]:
    """Record every history the context's loaded chat pipeline is asked to answer (undone after
    the test by ``monkeypatch``); the list fills as the test asks."""
    seen: list[list[Message]] = []
    pipeline = context.chat.pipeline
    assert pipeline is not None
    real_generate = pipeline.generate

    def generate(history: list[Message], *args: Any, **kwargs: Any) -> Any:
        seen.append(list(history))
        return real_generate(history, *args, **kwargs)

    monkeypatch.setattr(pipeline, "generate", generate)
    return seen
