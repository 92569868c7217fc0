"""A conversation that outgrows the context, through ChatService on the real tiny model, and the
history's token estimate against the real SmolLM2-135M's own count of the prompt.

Once the context is full, older turns are left out in blocks: between two cuts every prompt
begins as the one before it, so GenAI's prefix cache holds all but the newest messages (the
whole window was read again on every turn when one message was dropped per turn). Asserted on
what is sent and what GenAI reports, never on times: ``benchmarks/bench_context.py`` times it.

Older turns are left out by an estimate (each message's tokens plus the chat template's share,
:data:`~app.chat.history.TEMPLATE_TOKENS_PER_MESSAGE`); it must bound the prompt GenAI really
reads from above, or a prompt sent as fitting could overflow the context with its answer.
Checked on the real model's tokenizer and chat template, where the template's markers are real
tokens."""

from __future__ import annotations

import gc
import itertools
import weakref
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.chat.history import KEEP_SHARE
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from pipelines.chat import ChatModelConfig, ChatPipeline, ChatResult
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message

pytestmark = pytest.mark.integration

CONTEXT = 2048  # the tiny model's max_position_embeddings
ANSWER = GenerationSettings(max_new_tokens=16, temperature=0.0, ignore_eos=True)
SYSTEM = "You are a helpful assistant."
TURNS = 30


class ObservedPipeline(ChatPipeline):
    """The real pipeline; it keeps the prompts it is sent and counts its tokenizer's use."""

    def __init__(self, config: ChatModelConfig) -> None:
        super().__init__(config)
        self.prompts: list[list[Message]] = []
        self.counted = 0

    def generate(self, messages: Sequence[Message], *args: object, **kwargs: object) -> ChatResult:
        self.prompts.append(list(messages))
        return super().generate(messages, *args, **kwargs)  # type: ignore[arg-type]

    def count_tokens(self, text: str) -> int:
        self.counted += 1
        return super().count_tokens(text)


def question(turn: int) -> str:
    """About 150 tokens of the tiny model's, different every turn (as a person's are)."""
    return f"Question {turn}: " + " ".join(f"river{turn} flows past town{i}" for i in range(10))


def test_a_full_context_is_cut_in_blocks_and_nothing_is_deleted(
    chat_model_dir: Path, tmp_path: Path
) -> None:
    made: list[ObservedPipeline] = []

    def factory(config: ChatModelConfig) -> ChatPipeline:
        made.append(ObservedPipeline(config))
        return made[-1]

    store = ConversationStore(tmp_path / "conversations")
    service = ChatService(store, MetricsBus(), [DeviceInfo("CPU", "CPU")], pipeline_factory=factory)
    loaded = service.load_model(chat_model_dir, "CPU")
    assert loaded.context_tokens == CONTEXT
    pipeline = made[-1]
    conversation = service.new_conversation(SYSTEM)
    inputs: list[float] = []
    counted: list[int] = []
    for turn in range(TURNS):
        before = pipeline.counted
        answer = service.ask(conversation.id, question(turn), ANSWER, CancelToken(), str)
        counted.append(pipeline.counted - before)
        inputs.append(answer.message.metrics["input_tokens"])

    prompts = pipeline.prompts
    # The prompt and the answer always fit the context (GenAI's own count of the prompt).
    assert max(inputs) + ANSWER.max_new_tokens <= CONTEXT
    for turn, prompt in enumerate(prompts):
        assert prompt[0] == Message("system", SYSTEM)
        assert prompt[-1] == Message("user", question(turn))
        assert len(prompt) == 2 or prompt[1].role == "user"  # the history starts at a question
    full = next(turn for turn, prompt in enumerate(prompts) if len(prompt) < 2 * turn + 2)
    assert full < TURNS // 2, "the context must fill early enough to watch several cuts"
    # After the fill: a turn either appends to the previous prompt (its last answer and the
    # new question), or cuts older turns at once, down to KEEP_SHARE of the room.
    room = CONTEXT - ANSWER.max_new_tokens
    cuts, growth = [], []
    for turn in range(full, TURNS):
        previous, prompt = prompts[turn - 1], prompts[turn]
        if prompt[: len(previous)] == previous:
            assert len(prompt) == len(previous) + 2
            growth.append(inputs[turn] - inputs[turn - 1])
        else:
            cuts.append(turn)
            assert inputs[turn] <= KEEP_SHARE * room
    # So a cut leaves room for the turns after it: as many as (1 - KEEP_SHARE) of the room
    # holds, each reusing all the prompt before it.
    between = int((1 - KEEP_SHARE) * room / max(growth))
    assert between >= 3 and len(cuts) >= 2, (cuts, growth)
    assert all(b - a >= between for a, b in itertools.pairwise(cuts)), cuts
    # The tokenizer reads each new message once: never the whole conversation again.
    assert max(counted[1:]) <= 2, counted
    # Nothing left out is deleted: the saved conversation has every turn.
    reopened = ChatService(store, MetricsBus(), [DeviceInfo("CPU", "CPU")])
    messages = reopened.get(conversation.id).messages
    assert [m.content for m in messages[::2]] == [question(turn) for turn in range(TURNS)]


def test_the_remembered_counts_let_a_replaced_model_go(
    chat_model_dir: Path, tmp_path: Path
) -> None:
    made: list[weakref.ref[ChatPipeline]] = []

    def factory(config: ChatModelConfig) -> ChatPipeline:
        pipeline = ChatPipeline(config)
        made.append(weakref.ref(pipeline))
        return pipeline

    store = ConversationStore(tmp_path / "conversations")
    service = ChatService(store, MetricsBus(), [DeviceInfo("CPU", "CPU")], pipeline_factory=factory)
    service.load_model(chat_model_dir, "CPU")
    conversation = service.new_conversation(SYSTEM)
    service.ask(conversation.id, question(0), ANSWER, CancelToken(), str)  # counts remembered
    service.load_model(chat_model_dir, "CPU")  # a new pipeline: nothing may keep the old one
    gc.collect()
    assert len(made) == 2 and made[0]() is None and made[1]() is not None


GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)


QUESTIONS = (
    "What is the capital of France?",
    "And of Italy? Answer in one word.",
    "Name three rivers in Europe, one per line:\n- ",
    "Say 'hello' in 日本語 and in Ελληνικά.",
)


@pytest.mark.real_model
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
