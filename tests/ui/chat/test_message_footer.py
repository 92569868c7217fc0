"""The line under an answer: its counts and rates as the stored metrics give them."""

from __future__ import annotations

from app.chat.storage import ChatMessage
from ui.chat.message_footer import stats_line


def _answer(**metrics: float) -> ChatMessage:
    return ChatMessage("assistant", "Four.", device="CPU", metrics=dict(metrics))


def test_a_speculative_answer_says_how_many_draft_tokens_were_accepted() -> None:
    line = stats_line(_answer(output_tokens=32, tokens_per_s=41.5, draft_accepted=0.8))
    assert line == "32 tokens · 41.5 tok/s · 80% of draft tokens accepted · CPU"


def test_an_answer_without_a_draft_model_says_nothing_of_drafts() -> None:
    assert (
        stats_line(_answer(output_tokens=32, tokens_per_s=41.5)) == "32 tokens · 41.5 tok/s · CPU"
    )
