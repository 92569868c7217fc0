"""*Convert a file…* beside *Download* for the speaker-similarity entry: a wheel or ``.pt``
the user has is converted in a worker and installed; a hostile one is said next to the
catalog, in one sentence."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from tests.ui.helpers import answer_files, click
from ui.models.manager import ModelManager
from ui.shell.main_window import MainWindow


def _pretrained(path: Path) -> Path:
    """Random weights in resemblyzer's layout, saved as resemblyzer's ``pretrained.pt`` was."""
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    lstm = torch.nn.LSTM(40, 256, 3, batch_first=True)
    linear = torch.nn.Linear(256, 256)
    state = {f"lstm.{key}": value for key, value in lstm.state_dict().items()}
    state |= {f"linear.{key}": value for key, value in linear.state_dict().items()}
    buffer = io.BytesIO()
    torch.save({"model_state": state}, buffer, _use_new_zipfile_serialization=False)
    path.write_bytes(buffer.getvalue())
    return path


def _at_the_wheel_entry(window: MainWindow) -> ModelManager:
    manager = window.open_models()
    manager.show_entry(ModelTask.SPEAKER_SIMILARITY)
    return manager


def test_a_picked_weights_file_is_converted_and_installed(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = _at_the_wheel_entry(window)
    assert manager.wheel_button.isVisible() and manager.wheel_button.isEnabled()
    answer_files(monkeypatch, _pretrained(tmp_path / "pretrained.pt"))
    with qtbot.waitSignal(manager.modelsChanged, timeout=60_000):
        click(qtbot, manager.wheel_button)
    assert manager.progress_label.text().startswith("Installed resemblyzer-ge2e")
    assert [m.task for m in manager.models.models()] == [ModelTask.SPEAKER_SIMILARITY]
    assert manager.wheel_button.isEnabled() and manager.catalog_error.isHidden()


def test_a_file_that_is_not_a_wheel_is_one_sentence_next_to_the_catalog(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    manager = _at_the_wheel_entry(window)
    fake = tmp_path / "Resemblyzer-0.1.4-py3-none-any.whl"
    fake.write_text("#!/bin/sh\necho not a wheel\n", encoding="utf-8")
    answer_files(monkeypatch, fake)
    click(qtbot, manager.wheel_button)
    qtbot.waitUntil(lambda: "is not a wheel" in manager.catalog_error.text(), timeout=30_000)
    assert "\n" not in manager.catalog_error.text()
    assert manager.models.models() == []
    assert manager.wheel_button.isEnabled()


def test_the_button_shows_only_for_a_wheel_entry(window: MainWindow) -> None:
    manager = _at_the_wheel_entry(window)
    assert manager.wheel_button.isVisible()
    manager.show_entry(ModelTask.CHAT)
    assert manager.wheel_button.isHidden()
