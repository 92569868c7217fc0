"""An empty area's one sentence and one button: the panel's own action, or a missing model's
*Download…*/*Convert…* (the model line's way), or no button at all."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.core import ModelMissingError
from app.models import ModelTask
from tests.ui.helpers import click
from ui.icons import PROPERTY
from ui.widgets.empty_state import EmptyState


@pytest.fixture
def empty(qtbot: QtBot) -> EmptyState:
    widget = EmptyState()
    qtbot.addWidget(widget)
    widget.resize(500, 300)
    widget.show()
    return widget


def test_the_panels_own_button_says_clicked(qtbot: QtBot, empty: EmptyState) -> None:
    empty.show_need("No voices yet.", "From file…", "folder-open", "Pick a clip")
    assert empty.text() == "No voices yet." and empty.button.text() == "From file…"
    assert empty.button.property(PROPERTY) == "folder-open"
    with qtbot.assertNotEmitted(empty.modelRequested), qtbot.waitSignal(empty.clicked):
        click(qtbot, empty.button)


def test_a_missing_model_asks_for_the_model_manager(qtbot: QtBot, empty: EmptyState) -> None:
    full = "No lip-sync model is installed. Convert a checkpoint in Models… → Convert."
    empty.show_model(ModelMissingError(full, ModelTask.LIPSYNC.value))
    assert empty.text() == "A talking face needs a lip-sync model, and none is installed."
    assert empty.label.toolTip() == full
    assert empty.button.text() == "Convert…"
    with qtbot.assertNotEmitted(empty.clicked), qtbot.waitSignal(empty.modelRequested) as asked:
        click(qtbot, empty.button)
    assert asked.args == ["lipsync"]
    # Then the need is met: the next sentence's button is the panel's own again.
    empty.show_need("Your video appears here.")
    assert empty.button.isHidden()
    empty.show_need("Choose a face.", "Choose face…")
    with qtbot.assertNotEmitted(empty.modelRequested), qtbot.waitSignal(empty.clicked):
        click(qtbot, empty.button)
