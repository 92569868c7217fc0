"""The history's token estimate against the real SmolLM2-135M's own count of the prompt.

Older turns are left out by an estimate (each message's tokens plus the chat template's share,
:data:`~app.chat.history.TEMPLATE_TOKENS_PER_MESSAGE`); it must bound the prompt GenAI
really reads from above, or a prompt sent as fitting could overflow the context with its
answer. Checked on the real model's tokenizer and chat template, where the template's markers
are real tokens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
QUESTIONS = (
    "What is the capital of France?",
    "And of Italy? Answer in one word.",
    "Name three rivers in Europe, one per line:\n- ",
    "Say 'hello' in 日本語 and in Ελληνικά.",
)


@pytest.mark.parametrize("system", ["You are a helpful assistant.", ""])
def test_the_estimate_bounds_the_prompt_the_model_reads(
    real_chat_model: Path, converted_gguf_cache: Path, tmp_path: Path, system: str
) -> None:
    service = ChatService(
        ConversationStore(tmp_path / "conversations"),
        MetricsBus(),
        [DeviceInfo("CPU", "CPU")],
        converted_cache=converted_gguf_cache,
    )
    service.load_model(real_chat_model, "CPU")
    conversation = service.new_conversation(system)
    for question in QUESTIONS:
        usage = service.context_usage(conversation.id, GREEDY, question)
        assert usage is not None and usage.dropped == 0
        answer = service.ask(conversation.id, question, GREEDY, CancelToken(), str)
        assert usage.used >= answer.message.metrics["input_tokens"], question
