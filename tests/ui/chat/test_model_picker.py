"""The chat model picker (fake pipeline): a GGUF file's architecture and quantization, the
first-load conversion and the notes above the composer, installed models and recent folders to
load in a click from the model button's menu, the button's name elided at 1024×700."""

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
from ui.chat.model_button import choose_a_model
from ui.chat.model_menu import no_installed
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
    assert (picker.button.name.text(), picker.button.place.text()) == (SMOL, "CPU")
    context = QLocale().toString(8192)  # the language's digit grouping ("8,192" in English)
    details = f"llama · Q4_1 · 135M parameters · {context}-token context · 64 bytes"
    assert details in picker.button.toolTip()
    assert details in window.model_status.label.toolTip()
    assert window.statusBar().currentMessage().startswith(f"Loaded {SMOL} in ")
    picker.menu.fill()
    actions = picker.menu.actions()
    assert not actions[0].isSeparator()  # no empty line on top
    entries = [(a.text(), a.data(), a.isEnabled(), a.isChecked()) for a in actions[:2]]
    in_use = (gguf.name, str(gguf.resolve()), True, True)
    assert entries == [("Recent", None, False, False), in_use]  # the model in use: checked


def test_the_first_load_of_a_gguf_says_it_converts_and_cancel_keeps_the_model_in_use(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script, tmp_path: Path
) -> None:
    load(qtbot, window.chat_panel, model_folder)
    status, picker = window.model_status, window.chat_panel.model_picker
    script.load_gate = threading.Event()
    assert window.chat_panel.load_model(fake_gguf_file(tmp_path))
    converting = f"Converting {SMOL} for OpenVINO (first time only)…"
    assert status.label.text() == converting
    assert picker.button.name.text() == converting
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


def test_what_a_load_notes_stays_above_the_composer_until_the_next_load(
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
    """The menu's lines above *Open model file…* (its models, or why there are none)."""
    menu = chat_panel.model_picker.menu
    menu.fill()
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    return texts[: texts.index("Open model file…")]


def test_nothing_installed_says_how(chat_panel: ChatPanel) -> None:
    assert _entries(chat_panel) == [no_installed()]


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
    [action] = picker.menu.model_entries()
    assert not action.isChecked()
    with qtbot.waitSignal(chat_panel.modelLoaded, timeout=5000):
        action.trigger()
    assert ctx.chat.loaded_model is not None
    assert ctx.chat.loaded_model.model_path == chat.resolve()
    assert _entries(chat_panel) == ["qwen-chat  (unknown)"]  # installed: listed once
    [action] = picker.menu.model_entries()
    assert action.isChecked()  # the model in use


def test_the_model_name_is_elided_at_1024(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.resize(1024, 700)
    button = window.chat_panel.model_picker.button
    name = button.name
    assert isinstance(name, ElidedLabel)
    qtbot.waitUntil(lambda: name.width() > 0, timeout=2000)
    assert name.text() == choose_a_model()  # the full text stays the label's text
    assert shown(name) == choose_a_model() and fits(name)
    load(
        qtbot,
        window.chat_panel,
        fake_gguf_file(tmp_path, f"{SMOL}-with-a-rather-long-file-name.gguf"),
    )
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: name.elided, timeout=2000)
    assert shown(name).endswith(ELLIPSIS) and fits(name)
    assert shown(name).startswith("SmolLM2") and button.place.text() == "CPU"  # not cut
    assert "llama" in button.toolTip()  # the model's details are in the tooltip
    long_name = f"{SMOL}-with-a-rather-long-file-name"
    assert long_name in button.toolTip()  # the whole name, where it is cut
    load(qtbot, window.chat_panel, fake_model_folder(tmp_path))  # a name that fits: not cut
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: not name.elided, timeout=2000)
    assert shown(name) == "tiny-chat"
