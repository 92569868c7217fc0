"""The chat's context: the context used shown under the input (and emitted for the conversation's
marker), dropped turns said in the warning colour, numbers in the user's locale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from app.chat.context_window import ContextUsage
from app.context import AppContext
from tests.ui.helpers import ask, load
from ui.chat.context_meter import context_sentence, context_text
from ui.chat.panel import ChatPanel
from ui.theme import warning_color

FAKE_CONTEXT = 2048  # the fake model folder's max_position_embeddings

pytestmark = pytest.mark.usefixtures("english_locale")


@pytest.fixture
def english_locale() -> Iterator[None]:
    """Numbers as an English-speaking user sees them (the language setting sets the default
    locale in the app; tests otherwise run in the C locale, without group separators)."""
    before = QLocale()
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    yield
    QLocale.setDefault(before)


def test_context_used_is_shown_and_emitted_after_each_turn(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    panel = chat_panel
    assert not panel.context_label.isVisibleTo(panel)  # no model: nothing to count
    load(qtbot, panel, model_folder)
    assert panel.context_label.isVisibleTo(panel)
    with qtbot.waitSignal(panel.context_budget_changed, timeout=5000) as emitted:
        ask(qtbot, panel, "one two three")
    usage = emitted.args[0]
    assert isinstance(usage, ContextUsage)
    assert usage.limit == FAKE_CONTEXT and usage.first_sent == 0 and usage.messages == 2
    # The fake counts words: system prompt, the turn and the next question's place, each with
    # the template's share.
    assert usage.used == (5 + 8) + (3 + 8) + (3 + 8) + 8
    assert panel.context_label.text() == "Context 2%"
    assert panel.context_label.toolTip().startswith("Context used: 43 / 2,048 tokens\n")
    assert not panel.context_label.warning  # far from full: muted


def test_dropped_turns_are_said_and_the_warning_colour_shows(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    panel = chat_panel
    chat = ctx.settings.chat.model_copy(update={"max_new_tokens": 1500})
    ctx.settings_store.update(chat=chat)  # 548 tokens left for what the model reads
    load(qtbot, panel, model_folder)
    long_question = " ".join(["word"] * 200)
    for _ in range(3):
        ask(qtbot, panel, long_question)
    usage = panel.context_usage
    # The first turn, question and answer, is left out: what is sent starts at a question.
    assert usage is not None and usage.first_sent == 2 and usage.dropped == 2
    assert "2 older message(s) no longer sent" in panel.context_label.toolTip()
    assert "2 older message(s) no longer sent" in panel.context_label.accessibleName()
    # The conversation marks where the model stops reading, before the oldest message sent.
    marker = panel.view.marker
    assert marker.isVisibleTo(panel.view)
    assert panel.view.rows.indexOf(marker) == panel.view.rows.indexOf(panel.view._widgets[2]) - 1
    assert panel.context_label.warning
    color = panel.context_label.palette().color(QPalette.ColorRole.WindowText)
    assert color == warning_color(panel.palette())


def test_context_numbers_follow_the_locale() -> None:
    usage = ContextUsage(used=1234, limit=2048, answer=512, first_sent=0, messages=4)
    QLocale.setDefault(QLocale(QLocale.Language.German, QLocale.Country.Germany))
    assert context_text(usage) == "Context 60%"  # the English catalog: no German words
    assert context_sentence(usage) == "Context used: 1.234 / 2.048 tokens"
    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    assert context_text(usage) == "Context 60%"
