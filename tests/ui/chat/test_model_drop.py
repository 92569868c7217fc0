"""Dropping on the chat (fake pipeline): a GGUF file or a model folder loads, anything else gets
one sentence next to the picker, a drop while an answer is written waits for it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QUrl
from pytestqt.qtbot import QtBot

from tests.ui.chat.test_model_picker import SMOL
from tests.ui.fakes import Script, fake_gguf_file, fake_model_folder
from tests.ui.helpers import ask_and_hold, drop, local
from ui.chat.panel import ChatPanel
from ui.chat.panel_model import drop_while_answering
from ui.shell.main_window import MainWindow


def text(words: str) -> QMimeData:
    mime = QMimeData()
    mime.setText(words)
    return mime


def web(address: str) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl(address)])
    return mime


def test_a_gguf_file_dropped_on_the_chat_loads_it(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    panel = window.chat_panel
    gguf = fake_gguf_file(tmp_path)
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000) as loaded:
        assert drop(panel, local(gguf))
    assert loaded.args[0].model_path == gguf.resolve()
    assert window.model_status.label.text() == f"{SMOL} · llama Q4_1 · AUTO → GPU"


def test_a_model_folder_dropped_on_the_message_box_loads_it_and_types_nothing(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    panel = window.chat_panel
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        # The box refuses files, so Qt passes the drag up to the panel.
        assert panel.input.canInsertFromMimeData(text("hello"))
        assert not panel.input.canInsertFromMimeData(local(model_folder))
        assert drop(panel.input.viewport(), local(model_folder))
    assert panel.input.toPlainText() == ""
    assert window.model_status.label.text() == "tiny-chat · AUTO → GPU"


@pytest.mark.parametrize(
    ("what", "sentence"),
    [
        (lambda root: local(root / "notes.txt"), "notes.txt is not a chat model: choose an "),
        (lambda root: local(root / "notes.txt", root / "more.txt"), "Drop one model at a time"),
        (lambda root: local(root), "is not an OpenVINO model folder (no openvino_model.xml)."),
        (lambda root: web("https://example.com/model.gguf"), "Only a model on this computer"),
        (lambda root: text("some words"), "Drop a .gguf file or an OpenVINO"),
    ],
    ids=["text-file", "two-files", "plain-folder", "web-address", "text"],
)
def test_anything_else_dropped_gets_one_sentence_next_to_the_picker(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    script: Script,
    what: Callable[[Path], QMimeData],
    sentence: str,
) -> None:
    for name in ("notes.txt", "more.txt"):
        (tmp_path / name).write_text("not a model", encoding="utf-8")
    panel = window.chat_panel
    assert drop(panel.view.viewport(), what(tmp_path))  # over the conversation: passed up
    assert panel.model_picker.error.isVisible()
    assert sentence in panel.model_picker.error.text()
    assert script.loads == [] and window.model_status.label.text() == "No model loaded"
    assert not window.notifications.isVisible()


def test_a_drop_while_an_answer_is_written_waits_for_it(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    ask_and_hold(qtbot, chat_panel, script, model_folder, "Hello?")
    panel = chat_panel
    assert drop(panel, local(fake_gguf_file(tmp_path)))
    assert panel.model_picker.error.text() == drop_while_answering()
    assert script.loads == ["CPU"]  # only the first load
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    other = fake_model_folder(tmp_path, "other-chat")
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        assert drop(panel, local(other))
    assert not panel.model_picker.error.isVisible()
