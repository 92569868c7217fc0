"""Conversion errors name the Convert view's fields, never command-line flags, and go as soon as
the field they are about is edited."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.errors import UserError
from app.models.convert_plan import ConvertRequest
from ui.models.convert_wording import gui_message
from ui.shell.main_window import MainWindow


def test_flags_become_field_names() -> None:
    text = gui_message("Use --weight-format int8 or set --group-size; --sym needs --weights int4.")
    assert "--" not in text
    assert "“Weight format” int8" in text and "“Group size”" in text and "“Symmetric”" in text
    assert gui_message("a well-known --task-free word") == "a well-known --task-free word"


def test_a_flag_in_an_error_is_reworded_and_cleared_on_edit(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def plan(request: ConvertRequest, _registry: object) -> None:
        raise UserError("--weight-format int4 is not supported for this model.", field="weights")

    monkeypatch.setattr("ui.models.convert_view.plan_conversion", plan)
    view = window.open_models().convert_view
    window.open_models().show_conversion()
    view.set_source(str(tmp_path))
    view.convert()
    assert view.weights_error.isVisible()
    assert view.weights_error.text() == "“Weight format” int4 is not supported for this model."
    view.weights.setCurrentIndex((view.weights.currentIndex() + 1) % view.weights.count())
    assert view.weights_error.isHidden()  # the field it was about changed


def test_a_source_error_goes_when_the_checkpoint_is_edited(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    manager = window.open_models()
    manager.show_conversion()
    view = manager.convert_view
    view.set_source(str(tmp_path / "nothing-here"))
    view.convert()
    assert view.source_error.isVisible() and "nothing-here" in view.source_error.text()
    view.source.setFocus()
    qtbot.keyClick(view.source, Qt.Key.Key_Backspace)
    assert view.source_error.isHidden()
