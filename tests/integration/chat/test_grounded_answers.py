"""Chat answers grounded in a knowledge collection, with the real tiny LLM and MiniLM."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.knowledge.grounding import INSTRUCTIONS, Source
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.documents import write_pdf
from tests.prompt_spy import spy_on_prompts

pytestmark = pytest.mark.integration

SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.0, ignore_eos=True)


@pytest.fixture
def context(knowledge_context: AppContext, chat_model_dir: Path) -> AppContext:
    knowledge_context.chat.load_model(chat_model_dir, "CPU")
    return knowledge_context


@pytest.fixture
def documents(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    write_pdf(
        folder / "bakery.pdf",
        ["Opening hours are nine to five.", "Sourdough bread rises for twelve hours."],
    )
    (folder / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.")
    return folder


def test_answer_cites_the_right_source_and_page(
    context: AppContext, documents: Path, app_home: AppPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    context.knowledge.ingest("Kitchen", [documents])
    seen = spy_on_prompts(context, monkeypatch)
    conversation = context.chat.new_conversation("Be brief.")
    context.chat.set_knowledge(conversation.id, "Kitchen")
    question = "How long does sourdough rise?"
    answer = context.chat.ask(conversation.id, question, SETTINGS, CancelToken(), lambda _: None)

    sources = [Source.from_dict(s) for s in answer.message.sources]
    assert sources[0].label == "bakery.pdf, page 2"
    assert [s.number for s in sources] == list(range(1, len(sources) + 1))
    model_question = seen[0][-1].content
    assert "[1] bakery.pdf, page 2\nSourdough bread rises for twelve hours." in model_question
    assert model_question.startswith(INSTRUCTIONS)
    assert model_question.endswith(f"Question: {question}")
    assert answer.message.metrics["output_tokens"] == 8
    stored = json.loads((app_home.conversations_dir / f"{conversation.id}.json").read_text())
    assert stored["knowledge"] == "Kitchen"
    assert stored["messages"][0]["content"] == question  # the passages are not stored as asked
    assert stored["messages"][1]["sources"][0]["page"] == 2


def test_passages_below_the_relevance_floor_are_not_given(
    context: AppContext, documents: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context.knowledge.ingest("Kitchen", [documents])
    seen = spy_on_prompts(context, monkeypatch)
    conversation = context.chat.new_conversation("")
    context.chat.set_knowledge(conversation.id, "Kitchen")
    question = "How long does sourdough rise?"
    answer = context.chat.ask(conversation.id, question, SETTINGS, CancelToken(), len)
    sources = [Source.from_dict(s) for s in answer.message.sources]
    floor = context.settings.relevance_floor
    assert sources and all(s.relevance is not None and s.relevance >= floor for s in sources)
    assert sources[0].label == "bakery.pdf, page 2"
    assert "trams.txt" not in seen[0][-1].content  # the real MiniLM: trams match far less
    assert answer.message.sources_left_out == 3 - len(sources)  # three passages in all


def test_a_question_no_passage_matches_goes_alone_and_says_so(
    context: AppContext, documents: Path, app_home: AppPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    context.knowledge.ingest("Kitchen", [documents])
    seen = spy_on_prompts(context, monkeypatch)
    conversation = context.chat.new_conversation("")
    context.chat.set_knowledge(conversation.id, "Kitchen")
    question = "Who won the football world cup in 2014?"
    answer = context.chat.ask(conversation.id, question, SETTINGS, CancelToken(), len)
    assert seen[0][-1].content == question  # not dressed up as grounded
    assert answer.message.sources == []
    assert answer.message.sources_left_out == 3
    stored = json.loads((app_home.conversations_dir / f"{conversation.id}.json").read_text())
    assert stored["messages"][1]["sources_left_out"] == 3
    # A floor of 0 gives every passage, as before there was one.
    context.settings_store.update(relevance_floor=0.0)
    again = context.chat.ask(conversation.id, question, SETTINGS, CancelToken(), len)
    assert len(again.message.sources) == 3 and again.message.sources_left_out == 0


def test_the_next_turn_reads_the_plain_question_in_its_history(
    context: AppContext, documents: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    context.knowledge.ingest("Kitchen", [documents])
    seen = spy_on_prompts(context, monkeypatch)
    conversation = context.chat.new_conversation("")
    context.chat.set_knowledge(conversation.id, "Kitchen")
    context.chat.ask(conversation.id, "Bread?", SETTINGS, CancelToken(), lambda _: None)
    context.chat.set_knowledge(conversation.id, "")
    answer = context.chat.ask(conversation.id, "And trams?", SETTINGS, CancelToken(), len)
    assert answer.message.sources == []
    assert [m.role for m in seen[1]] == ["user", "assistant", "user"]
    assert seen[1][0].content == "Bread?"
    assert seen[1][-1].content == "And trams?"


def test_knowledge_problems_are_reported_at_the_toggle(
    context: AppContext, documents: Path
) -> None:
    conversation = context.chat.new_conversation("")
    with pytest.raises(UserError, match="no collection named") as missing:
        context.chat.set_knowledge(conversation.id, "Nope")
    assert missing.value.field == "knowledge"
    context.knowledge.create_collection("Empty")
    context.chat.set_knowledge(conversation.id, "Empty")
    with pytest.raises(UserError, match="no documents yet") as empty:
        context.chat.ask(conversation.id, "Hi?", SETTINGS, CancelToken(), lambda _: None)
    assert empty.value.field == "knowledge"
    assert context.chat.get(conversation.id).messages == []  # nothing half-stored
    context.knowledge.delete_collection("Empty")
    with pytest.raises(UserError, match="no collection named") as gone:
        context.chat.ask(conversation.id, "Hi?", SETTINGS, CancelToken(), lambda _: None)
    assert gone.value.field == "knowledge"
