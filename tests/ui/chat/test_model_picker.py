"""The chat model picker (fake pipeline): a GGUF file's architecture and quantization, the
first-load conversion and the notes under the picker, installed models and recent folders to
load in a click, the model line elided at 1024×700."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

from PySide6.QtCore import QLocale
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from tests.ui.fakes import Script, embedding_model_folder, fake_gguf_file, fake_model_folder
from tests.ui.helpers import click, load
from tests.ui.widgets.test_elided_label import fits, shown
from ui.chat.model_picker import NO_INSTALLED, no_model_text
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow
from ui.widgets.elided_label import ELLIPSIS, ElidedLabel

SMOL = "SmolLM2-135M-Instruct.Q4_1"
NOT_CACHED = (
    "The converted model could not be kept in /cache/gguf (Read-only file system); "
    "the next start converts SmolLM2-135M-Instruct.Q4_1.gguf again."
)


def test_a_gguf_model_shows_its_architecture_and_quantization(
    qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> None:
    gguf = fake_gguf_file(tmp_path)
    load(qtbot, window.chat_panel, gguf)
    assert window.model_status.label.text() == f"{SMOL} · llama Q4_1 · CPU"
    picker = window.chat_panel.model_picker
    assert picker.name.text() == f"<b>{SMOL}</b> (llama Q4_1 · CPU)"
    context = QLocale().toString(8192)  # the language's digit grouping ("8,192" in English)
    details = f"llama · Q4_1 · 135M parameters · {context}-token context · 64 bytes"
    assert details in picker.name.toolTip()
    assert details in window.model_status.label.toolTip()
    assert window.statusBar().currentMessage().startswith(f"Loaded {SMOL} in ")
    picker.fill_installed_menu()
    actions = picker.installed_menu.actions()
    assert not any(action.isSeparator() for action in actions)  # no empty line on top
    entries = [(a.text(), a.data(), a.isEnabled()) for a in actions]
    assert entries == [("Recent", None, False), (gguf.name, str(gguf.resolve()), True)]


def test_the_first_load_of_a_gguf_says_it_converts_and_cancel_keeps_the_model_in_use(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    load(qtbot, window.chat_panel, model_folder)
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
    load(qtbot, window.chat_panel, fake_gguf_file(tmp_path))
    assert picker.note.isVisible() and picker.note.text() == NOT_CACHED
    assert not picker.error.isVisible()  # loaded: a note, not an error
    assert window.statusBar().currentMessage().endswith(f" s. {NOT_CACHED}")
    script.notes = ()
    load(qtbot, window.chat_panel, model_folder)
    assert not picker.note.isVisible()


def _entries(chat_panel: ChatPanel) -> list[str]:
    picker = chat_panel.model_picker
    picker.fill_installed_menu()
    return [a.text() for a in picker.installed_menu.actions() if not a.isSeparator()]


def test_nothing_installed_says_how(chat_panel: ChatPanel) -> None:
    assert _entries(chat_panel) == [NO_INSTALLED]


def test_installed_chat_models_load_from_the_menu(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, tmp_path: Path
) -> None:
    chat = fake_model_folder(tmp_path / "a", "qwen-chat")
    gone = fake_model_folder(tmp_path / "b", "deleted-chat")
    embedder = embedding_model_folder(tmp_path / "c")
    (embedder / "openvino_tokenizer.xml").write_text("<net/>")
    ctx.models.add_folder(chat)
    ctx.models.add_folder(gone)
    ctx.models.add_folder(embedder, ModelTask.EMBEDDING)
    shutil.rmtree(gone)
    assert _entries(chat_panel) == ["qwen-chat  (unknown)"]  # usable chat models only
    picker = chat_panel.model_picker
    [action] = [a for a in picker.installed_menu.actions() if a.data()]
    with qtbot.waitSignal(chat_panel.modelLoaded, timeout=5000):
        action.trigger()
    assert ctx.chat.loaded_model is not None
    assert ctx.chat.loaded_model.model_path == chat.resolve()
    assert "Recent folders" not in _entries(chat_panel)  # it is installed, listed once


def test_the_model_line_is_elided_at_1024(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.resize(1024, 700)
    name = window.chat_panel.model_picker.name
    assert isinstance(name, ElidedLabel)
    qtbot.waitUntil(lambda: name.width() > 0, timeout=2000)
    assert name.text() == no_model_text()  # the full text stays the label's text
    if name.elided:
        assert shown(name).endswith(ELLIPSIS) and fits(name)
        assert no_model_text() in name.toolTip()
    else:
        assert shown(name) == no_model_text() and fits(name)
    load(
        qtbot,
        window.chat_panel,
        fake_gguf_file(tmp_path, f"{SMOL}-with-a-rather-long-file-name.gguf"),
    )
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: name.elided, timeout=2000)
    assert shown(name).endswith(ELLIPSIS) and fits(name)
    assert shown(name).startswith("SmolLM2")
    assert "llama" in name.toolTip()  # the model's details are in the tooltip
    window.resize(1600, 1000)  # room again: the whole line, cut no more
    qtbot.waitUntil(lambda: not name.elided, timeout=2000)
    assert ELLIPSIS not in shown(name)
