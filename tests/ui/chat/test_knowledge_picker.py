"""Chat with knowledge: the per-conversation switch, grounded answers, clickable citations,
passages below the relevance floor left out (and said), the passages counted in the context
meter; the collections popup (every collection listed, picking one turns knowledge on, a deleted one
leaves the list); the input area labelled for screen readers."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from pytestqt.qtbot import QtBot

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.settings import Settings
from app.knowledge.grounding import SOURCES_SHARE, GroundingRules
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection
from tests.ui.chat.test_chat_presets import own_unlabelled
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, FakeChatPipeline, Script
from tests.ui.helpers import UrlCatcher, ask, load, open_window, shown, type_and_send
from tests.ui.knowledge_fakes import FakeFollower
from tests.ui.panels import open_panel
from ui.chat.knowledge_picker import choose_text, none_to_use
from ui.chat.panel import ChatPanel
from ui.shell import main_panels
from ui.shell.main_window import MainWindow


class FakeKnowledge:
    """Collections and passages the test decides; listing can be held like a slow start."""

    def __init__(self, names: list[str], passages: list[Hit]) -> None:
        self.names = names
        self.passages = passages
        self.gate = threading.Event()
        self.gate.set()
        self.listed = 0
        self.follower = FakeFollower()  # the Knowledge panel's followed folders

    def follow_in_background(self) -> None:
        """The window's start: nothing is followed here."""

    def collections(self) -> list[Collection]:
        self.gate.wait(10)
        self.listed += 1
        return [Collection(i, name, "minilm", 384, 3, 9) for i, name in enumerate(self.names)]

    def collection(self, name: str, *, create: bool = False) -> Collection:
        if name not in self.names:
            raise UserError(f"There is no collection named “{name}”.", field="collection")
        return Collection(self.names.index(name), name, "minilm", 384, 3, 9)

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        return self.passages[:k]

    def grounding_rules(self) -> GroundingRules:
        defaults = Settings()  # the real service reads the settings
        return GroundingRules(defaults.relevance_floor, defaults.chunk_tokens)

    def needs_setup(self) -> bool:
        return False  # the embedder is there (the Knowledge panel's footer asks)

    def close(self) -> None:
        pass


@pytest.fixture
def guide(tmp_path: Path) -> Path:
    path = tmp_path / "guide.pdf"
    path.write_bytes(b"%PDF-1.4 stand-in")
    return path


@pytest.fixture
def knowledge(guide: Path) -> FakeKnowledge:
    passages = [
        Hit(1, str(guide), 2, 0.033, "Sourdough rises for twelve hours.", "«Sourdough»", 1, 1),
        Hit(2, "/notes/trams.md", None, 0.02, "Trams climb hills.", "Trams", 2, None),
    ]
    return FakeKnowledge(["Kitchen", "Travel"], passages)


def knowledge_context(app_home: AppPaths, script: Script, knowledge: FakeKnowledge) -> AppContext:
    """An app context whose chat searches ``knowledge``."""
    ctx = make_context(app_home, [CPU], script)
    ctx.knowledge = knowledge  # type: ignore[assignment]
    ctx.chat = ChatService(
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=lambda config: FakeChatPipeline(config, script),  # type: ignore[arg-type, return-value]
        retriever=knowledge,
    )
    return ctx


@pytest.fixture
def kpanel(
    qtbot: QtBot, app_home: AppPaths, script: Script, knowledge: FakeKnowledge
) -> Iterator[ChatPanel]:
    """The Chat panel over a chat that searches ``knowledge``."""
    ctx = knowledge_context(app_home, script, knowledge)
    yield open_panel(qtbot, ctx, main_panels.chat_panel)
    knowledge.gate.set()


@pytest.fixture
def kwindow(
    qtbot: QtBot, app_home: AppPaths, script: Script, knowledge: FakeKnowledge
) -> Iterator[MainWindow]:
    """The main window over a chat that searches ``knowledge``."""
    yield open_window(qtbot, knowledge_context(app_home, script, knowledge))
    knowledge.gate.set()


def _tick(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    qtbot.mouseClick(chat_panel.knowledge.toggle, Qt.MouseButton.LeftButton)


def _use_kitchen(qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path) -> str:
    """Load a model and tick the knowledge switch; wait until the conversation uses the first
    collection, "Kitchen". Returns the conversation's id."""
    load(qtbot, chat_panel, model_folder)
    _tick(qtbot, chat_panel)
    conversation_id = chat_panel.current_conversation_id()
    qtbot.waitUntil(lambda: chat_panel.chat.get(conversation_id).knowledge == "Kitchen")
    return conversation_id


def test_the_database_is_not_touched_until_knowledge_is_wanted(
    qtbot: QtBot, kpanel: ChatPanel, knowledge: FakeKnowledge
) -> None:
    picker = kpanel.knowledge
    assert knowledge.listed == 0
    assert not picker.toggle.isChecked() and picker.choice.currentText() == choose_text()


def test_ticking_the_switch_grounds_answers_and_shows_sources(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path, script: Script, app_home: AppPaths
) -> None:
    panel = kpanel
    conversation_id = _use_kitchen(qtbot, panel, model_folder)
    assert panel.knowledge.choice.currentText() == "Kitchen"
    script.chunks = ["Twelve hours ", "[1]."]
    ask(qtbot, panel, "How long does sourdough rise?")
    assert "[1] bakery" not in script.seen[0][-1].content
    assert "[1] guide.pdf, page 2\nSourdough rises" in script.seen[0][-1].content
    text = shown(panel)
    assert "Sources: [1] guide.pdf, page 2 · [2] trams.md" in text
    assert "Twelve hours [1]." in text
    stored = (app_home.conversations_dir / f"{conversation_id}.json").read_text()
    assert '"knowledge": "Kitchen"' in stored


def test_passages_below_the_floor_are_left_out_and_the_sources_line_says_so(
    qtbot: QtBot,
    kpanel: ChatPanel,
    model_folder: Path,
    script: Script,
    knowledge: FakeKnowledge,
    guide: Path,
) -> None:
    panel = kpanel
    knowledge.passages = [
        Hit(1, str(guide), 2, 0.033, "Sourdough rises for twelve hours.", "«S»", 1, 1, 0.71, 0.71),
        Hit(2, "/notes/trams.md", None, 0.02, "Trams climb hills.", "Trams", 2, None, 0.12, 0.12),
        Hit(3, "/notes/bus.md", None, 0.01, "Buses stop here.", "Buses", 3, None, 0.04, 0.04),
    ]
    _use_kitchen(qtbot, panel, model_folder)
    script.chunks = ["Twelve hours [1]."]
    ask(qtbot, panel, "How long does sourdough rise?")
    sent = script.seen[0][-1].content
    assert "Sourdough rises" in sent and "Trams" not in sent and "Buses" not in sent
    text = shown(panel)
    assert "Sources: [1] guide.pdf, page 2 · 2 below the relevance floor left out" in text
    assert "not from your documents" not in text


def test_with_no_passage_above_the_floor_the_answer_says_it_is_not_grounded(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path, script: Script, knowledge: FakeKnowledge
) -> None:
    panel = kpanel
    knowledge.passages = [
        Hit(2, "/notes/trams.md", None, 0.02, "Trams climb hills.", "Trams", 2, None, 0.12, 0.12),
    ]
    _use_kitchen(qtbot, panel, model_folder)
    script.chunks = ["Paris."]
    ask(qtbot, panel, "What is the capital of France?")
    assert script.seen[0][-1].content == "What is the capital of France?"  # nothing pretends
    text = shown(panel)
    assert "Sources:" not in text
    assert (
        "No passage matched this question well enough (1 below the relevance floor left out): "
        "this answer is not from your documents." in text
    )


def test_the_context_meter_counts_the_passages_while_knowledge_is_on(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path
) -> None:
    panel = kpanel
    load(qtbot, panel, model_folder)
    without = panel.context_usage
    assert without is not None and without.sources == 0
    with qtbot.waitSignal(panel.context_budget_changed) as counted:
        _tick(qtbot, panel)
    usage = counted.args[0]
    defaults = Settings()
    most = GroundingRules(defaults.relevance_floor, defaults.chunk_tokens).most_tokens(
        panel.chat.pipeline.count_tokens  # type: ignore[union-attr]
    )
    # The most five passages take, or the share of the free context passages may have.
    room = int((usage.limit - usage.answer - without.used) * SOURCES_SHARE)
    assert usage.sources == min(most, room) > 0
    assert usage.used == without.used + usage.sources
    assert f"up to {usage.sources:,} of them for sources" in panel.context_label.toolTip()
    with qtbot.waitSignal(panel.context_budget_changed) as again:
        _tick(qtbot, panel)  # off again: nothing kept for passages
    assert again.args[0].sources == 0 and again.args[0].used == without.used


def test_a_citation_opens_the_pdf_at_its_page(
    qtbot: QtBot,
    kpanel: ChatPanel,
    model_folder: Path,
    script: Script,
    guide: Path,
    opened: UrlCatcher,
) -> None:
    panel = kpanel
    _use_kitchen(qtbot, panel, model_folder)
    qtbot.waitUntil(lambda: panel.knowledge.selected == "Kitchen")
    script.chunks = ["See [1] and [2]; not [7]."]
    ask(qtbot, panel, "Bread?")
    with qtbot.waitSignal(panel.view.sourceRequested) as requested:
        panel.view.anchorClicked.emit(QUrl("source:1:1"))
    assert requested.args[0].page == 2
    assert [url.toLocalFile() for url in opened.urls] == [str(guide)]
    assert opened.urls[0].fragment() == "page=2"
    with qtbot.waitSignal(panel.statusMessage) as status:
        panel.view.anchorClicked.emit(QUrl("source:1:2"))  # /notes/trams.md does not exist
    assert "trams.md is no longer at /notes" in status.args[0]
    html = panel.view.toHtml()
    assert 'href="source:1:1"' in html and 'href="source:1:2"' in html
    assert "source:1:7" not in html  # only real sources become links


def test_no_collections_says_so_next_to_the_switch(
    qtbot: QtBot, kpanel: ChatPanel, knowledge: FakeKnowledge
) -> None:
    knowledge.names = []
    picker = kpanel.knowledge
    _tick(qtbot, kpanel)
    qtbot.waitUntil(lambda: picker.error.text() == none_to_use())
    assert not picker.toggle.isChecked()


def test_a_deleted_collection_is_refused_at_send_and_the_text_kept(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path, knowledge: FakeKnowledge
) -> None:
    panel = kpanel
    _use_kitchen(qtbot, panel, model_folder)
    knowledge.names.remove("Kitchen")
    with qtbot.waitSignal(panel.answerFinished) as finished:
        type_and_send(qtbot, panel, "Still there?")
    assert finished.args == [False]
    assert "no collection named “Kitchen”" in panel.knowledge.error.text()
    assert panel.input.toPlainText() == "Still there?"


def test_each_conversation_keeps_its_own_choice(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path, knowledge: FakeKnowledge
) -> None:
    panel = kpanel
    first = _use_kitchen(qtbot, panel, model_folder)
    panel.knowledge.choice.setCurrentText("Travel")
    qtbot.waitUntil(lambda: panel.chat.get(first).knowledge == "Travel")
    with qtbot.waitSignal(panel.answerFinished):
        type_and_send(qtbot, panel, "Trams?")  # a conversation is kept once it has a turn
    panel.new_conversation()
    assert panel.current_conversation_id() != first
    assert not panel.knowledge.toggle.isChecked()
    panel.conversations.list.conversationSelected.emit(first)  # as a click on its row
    qtbot.waitUntil(lambda: panel.knowledge.toggle.isChecked())
    assert panel.knowledge.choice.currentText() == "Travel"


MANY = [f"Collection {i}" for i in range(12)]


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")  # offscreen
def test_the_popup_shows_every_collection_without_scrolling(
    qtbot: QtBot, kpanel: ChatPanel, knowledge: FakeKnowledge
) -> None:
    knowledge.names = list(MANY)
    knowledge.gate.clear()  # the list arrives after the popup opened on "Loading…"
    picker = kpanel.knowledge
    picker.choice.showPopup()
    view = picker.choice.view()
    qtbot.waitUntil(view.isVisible)
    knowledge.gate.set()
    qtbot.waitUntil(lambda: picker.choice.count() == len(MANY))
    qtbot.waitUntil(lambda: view.isVisible() and view.height() >= view.sizeHintForRow(0) * 12)
    assert view.verticalScrollBar().maximum() == 0  # every row shows: nothing to scroll
    picker.choice.hidePopup()


def test_choosing_a_collection_ticks_use_knowledge(
    qtbot: QtBot, kpanel: ChatPanel, model_folder: Path
) -> None:
    panel = kpanel
    load(qtbot, panel, model_folder)
    picker = panel.knowledge
    picker.refresh()
    qtbot.waitUntil(lambda: picker.choice.count() == 2)
    assert not picker.toggle.isChecked()
    picker.choice.setCurrentIndex(1)
    picker.choice.activated.emit(1)  # as a pick in the popup
    assert picker.toggle.isChecked()
    conversation_id = panel.current_conversation_id()
    qtbot.waitUntil(lambda: panel.chat.get(conversation_id).knowledge == "Travel")


def test_a_deleted_collection_leaves_the_list_and_the_chat(
    qtbot: QtBot, kwindow: MainWindow, model_folder: Path, knowledge: FakeKnowledge
) -> None:
    panel = kwindow.chat_panel
    load(qtbot, panel, model_folder)
    qtbot.mouseClick(panel.knowledge.toggle, Qt.MouseButton.LeftButton)
    conversation_id = panel.current_conversation_id()
    qtbot.waitUntil(lambda: kwindow.ctx.chat.get(conversation_id).knowledge == "Kitchen")
    knowledge.names.remove("Kitchen")
    kwindow.panels["Knowledge"].collectionsChanged.emit()  # deleted in the Knowledge panel
    picker = panel.knowledge
    qtbot.waitUntil(lambda: kwindow.ctx.chat.get(conversation_id).knowledge == "")
    items = [picker.choice.itemText(i) for i in range(picker.choice.count())]
    assert items == ["Travel"]
    assert not picker.toggle.isChecked()
    assert "“Kitchen” was deleted" in picker.error.text()


def test_the_input_area_is_labelled(qtbot: QtBot, kpanel: ChatPanel, model_folder: Path) -> None:
    panel = kpanel
    load(qtbot, panel, model_folder)
    panel.system_prompt.set_expanded(True)
    panel.generation.show_action.trigger()
    mine = [
        panel.input,
        panel.send_button,
        panel.attachments,
        panel.knowledge,
        panel.system_prompt,
        panel.system_prompt.body,
        panel.options_button,
        panel.generation,
    ]
    for widget in mine:
        assert own_unlabelled(widget) == [], type(widget).__name__
