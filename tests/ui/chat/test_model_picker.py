"""GGUF files in the window (fake pipeline): names, the first-load conversion, notes, drops."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale, QMimeData, QUrl
from pytestqt.qtbot import QtBot

from tests.ui.fakes import Script, fake_gguf_file, fake_model_folder
from tests.ui.helpers import ask_and_hold, click, drop, load, local
from ui.chat.panel_model import drop_while_answering
from ui.shell.main_window import MainWindow

SMOL = "SmolLM2-135M-Instruct.Q4_1"
NOT_CACHED = (
    "The converted model could not be kept in /cache/gguf (Read-only file system); "
    "the next start converts SmolLM2-135M-Instruct.Q4_1.gguf again."
)


def test_a_gguf_model_shows_its_architecture_and_quantization(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    gguf = fake_gguf_file(tmp_path)
    load(qtbot, window, gguf)
    assert window.model_status.label.text() == f"{SMOL} · llama Q4_1 · CPU"
    picker = window.chat_panel.model_picker
    assert picker.name.text() == f"<b>{SMOL}</b> (llama Q4_1 · CPU)"
    context = QLocale().toString(8192)  # the language's digit grouping ("8,192" in English)
    details = f"llama · Q4_1 · 135M parameters · {context}-token context · 64 bytes"
    assert details in picker.name.toolTip()
    assert details in window.model_status.label.toolTip()
    assert window.statusBar().currentMessage().startswith(f"Loaded {SMOL} in ")
    picker.fill_installed_menu()
    entries = [(a.text(), a.data()) for a in picker.installed_menu.actions()]
    assert entries == [("Recent", None), (gguf.name, str(gguf.resolve()))]


def test_the_first_load_of_a_gguf_says_it_converts_and_cancel_keeps_the_model_in_use(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    load(qtbot, window, model_folder)
    status, picker = window.model_status, window.chat_panel.model_picker
    script.load_gate = threading.Event()
    assert window.chat_panel.load_model(fake_gguf_file(tmp_path))
    converting = f"Converting {SMOL} for OpenVINO (first time only)…"
    assert status.label.text() == converting
    assert picker.name.text() == converting
    assert status.progress.isVisible() and status.cancel_button.isVisible()
    assert status.elapsed.text() == "0:00"  # then counts the seconds
    qtbot.waitUntil(lambda: status.elapsed.text() == "0:01", timeout=3000)
    click(qtbot, status.cancel_button)
    assert status.label.text() == "tiny-chat · CPU" and not status.elapsed.isVisible()
    assert window.statusBar().currentMessage() == "Model load cancelled."
    script.load_gate.set()  # OpenVINO returns after the cancel: the new model is dropped
    qtbot.waitUntil(lambda: not window.chat_panel.loader.busy, timeout=5000)
    loaded = window.ctx.chat.loaded_model
    assert loaded is not None and loaded.model_path == model_folder.resolve()


def test_what_a_load_notes_stays_under_the_picker_until_the_next_load(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    picker = window.chat_panel.model_picker
    script.notes = (NOT_CACHED,)
    load(qtbot, window, fake_gguf_file(tmp_path))
    assert picker.note.isVisible() and picker.note.text() == NOT_CACHED
    assert not picker.error.isVisible()  # loaded: a note, not an error
    assert window.statusBar().currentMessage().endswith(f" s. {NOT_CACHED}")
    script.notes = ()
    load(qtbot, window, model_folder)
    assert not picker.note.isVisible()


# ----- drag and drop ----------------------------------------------------------------------


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
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    ask_and_hold(qtbot, window, script, model_folder, "Hello?")
    panel = window.chat_panel
    assert drop(panel, local(fake_gguf_file(tmp_path)))
    assert panel.model_picker.error.text() == drop_while_answering()
    assert script.loads == ["CPU"]  # only the first load
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    other = fake_model_folder(tmp_path, "other-chat")
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        assert drop(panel, local(other))
    assert not panel.model_picker.error.isVisible()
