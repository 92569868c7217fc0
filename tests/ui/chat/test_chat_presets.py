"""Presets per model: generation settings and the default system prompt remembered per model,
restored when the model is loaded again, kept on disk, and forgotten by Reset to defaults; the
default system prompt in the user's language, a prompt the user wrote never changed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QTranslator
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core import DEFAULT_SYSTEM_PROMPT
from app.core.settings import preset_key
from tests.ui.fakes import fake_model_folder
from tests.ui.helpers import load
from tests.ui.panels import open_panel
from ui.a11y import unlabelled_widgets
from ui.chat.panel import ChatPanel
from ui.shell import main_panels


def own_unlabelled(root: QWidget) -> list[str]:
    """``unlabelled_widgets`` less the inner parts of compound widgets that the walker in
    ui/a11y.py still lists (a spin box's line edit, a text box's scroll bar): screen readers
    read the spin box and the text box themselves."""
    parts = ("QLineEdit 'qt_spinbox_lineedit'", "QScrollBar ''")
    return [problem for problem in unlabelled_widgets(root) if not problem.startswith(parts)]


def test_each_model_keeps_its_own_settings_and_prompt(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, tmp_path: Path
) -> None:
    panel = chat_panel
    gen = panel.generation
    other = fake_model_folder(tmp_path / "b", "other-chat")
    load(qtbot, panel, model_folder)
    assert gen.reset_button.isEnabled() is False  # nothing of its own yet
    gen.temperature.setValue(0.2)
    gen.system_prompt.setPlainText("Answer in French.")
    gen.commit()
    presets = ctx.settings.chat_presets
    assert presets[preset_key(model_folder)].temperature == 0.2
    assert presets[preset_key(model_folder)].system_prompt == "Answer in French."
    assert ctx.settings.chat.temperature == 0.7  # the global defaults are untouched
    assert gen.reset_button.isEnabled()

    load(qtbot, panel, other)
    assert gen.temperature.value() == 0.7  # the other model: the global defaults
    assert gen.system_prompt.toPlainText() == "You are a helpful assistant."

    load(qtbot, panel, model_folder)
    assert gen.temperature.value() == 0.2  # switching back restores its preset
    assert panel.generation_settings().temperature == 0.2  # and answers use it
    # The empty chat on screen takes the model's prompt (it still had a default one).
    conversation = ctx.chat.get(panel.current_conversation_id())
    assert conversation.system_prompt == "Answer in French."

    saved = json.loads(ctx.settings_store.path.read_text(encoding="utf-8"))
    assert saved["chat_presets"][preset_key(model_folder)]["temperature"] == 0.2


def test_reset_to_defaults_forgets_the_models_preset(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    gen = chat_panel.generation
    load(qtbot, chat_panel, model_folder)
    gen.top_k.setValue(7)
    assert preset_key(model_folder) in ctx.settings.chat_presets
    gen.reset_button.click()
    assert preset_key(model_folder) not in ctx.settings.chat_presets
    assert gen.top_k.value() == 50
    assert not gen.reset_button.isEnabled()


def test_generation_panel_widgets_are_labelled(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    panel.generation.show_action.trigger()
    assert panel.generation.isVisible()
    assert own_unlabelled(panel.generation) == []


def test_a_model_samples_as_it_recommends_until_it_has_settings_of_its_own(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, tmp_path: Path
) -> None:
    recommended = {"do_sample": True, "temperature": 0.6, "top_k": 20, "top_p": 0.95}
    (model_folder / "generation_config.json").write_text(json.dumps(recommended), "utf-8")
    panel, gen = chat_panel, chat_panel.generation
    load(qtbot, chat_panel, model_folder)
    shown = (gen.temperature.value(), gen.top_k.value(), gen.top_p.value())
    assert shown == (0.6, 20, 0.95)
    assert gen.scope.text() == (
        "Defaults, with the sampling this model recommends (it has no settings of its own yet)"
    )
    answered = panel.generation_settings()
    assert (answered.temperature, answered.top_k, answered.repetition_penalty) == (0.6, 20, 1.0)
    # Its first change starts its own settings from what it recommends.
    gen.max_new_tokens.setValue(256)
    preset = ctx.settings.chat_presets[preset_key(model_folder)]
    assert (preset.max_new_tokens, preset.temperature, preset.top_k) == (256, 0.6, 20)
    assert gen.scope.text() == "This model's own settings"
    # Another model recommends nothing: the defaults.
    load(qtbot, chat_panel, fake_model_folder(tmp_path / "b", "other-chat"))
    assert (gen.temperature.value(), gen.top_k.value()) == (0.7, 50)
    assert gen.scope.text() == "Defaults (this model has no settings of its own yet)"


GERMAN_DEFAULT = "Du bist ein hilfreicher Assistent."


class GermanCatalog(QTranslator):
    """The catalog's German for the default system prompt (and nothing else): what the window
    does with whatever a language's translators wrote for it."""

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        return GERMAN_DEFAULT if source == DEFAULT_SYSTEM_PROMPT else None


@pytest.fixture
def german_window(qapp: QApplication) -> Iterator[None]:
    catalog = GermanCatalog()
    QCoreApplication.installTranslator(catalog)
    try:
        yield
    finally:
        QCoreApplication.removeTranslator(catalog)


def test_new_chats_start_with_the_default_prompt_in_the_users_language(
    qtbot: QtBot, german_window: None, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    panel = chat_panel
    assert panel.system_prompt.prompt() == GERMAN_DEFAULT
    assert ctx.chat.get(panel.current_conversation_id()).system_prompt == GERMAN_DEFAULT
    load(qtbot, panel, model_folder)
    assert panel.generation.system_prompt.toPlainText() == GERMAN_DEFAULT
    panel.generation.commit()  # shown, not changed: the stored default stays the English one
    assert ctx.settings.chat.system_prompt == DEFAULT_SYSTEM_PROMPT
    assert preset_key(model_folder) not in ctx.settings.chat_presets
    panel.new_conversation()
    assert ctx.chat.get(panel.current_conversation_id()).system_prompt == GERMAN_DEFAULT


def test_a_prompt_the_user_wrote_is_never_changed_by_the_language(
    qtbot: QtBot, german_window: None, ctx: AppContext, model_folder: Path
) -> None:
    ctx.settings_store.update(chat=ctx.settings.chat.model_copy(update={"system_prompt": "Arr."}))
    written = ctx.chat.new_conversation("Answer like a pirate.")  # typed into an empty chat
    panel = open_panel(qtbot, ctx, main_panels.chat_panel)
    assert panel.current_conversation_id() == written.id  # the only chat: on screen
    load(qtbot, panel, model_folder)
    assert ctx.chat.get(written.id).system_prompt == "Answer like a pirate."
    assert panel.default_prompt.text() == "Arr."  # what the next new chat starts with
    assert panel.generation.system_prompt.toPlainText() == "Arr."


def test_an_empty_chat_made_in_english_takes_the_default_in_the_new_language(
    qtbot: QtBot, ctx: AppContext, german_window: None
) -> None:
    before = ctx.chat.new_conversation(DEFAULT_SYSTEM_PROMPT)  # the window was English then
    panel = open_panel(qtbot, ctx, main_panels.chat_panel)
    assert panel.current_conversation_id() == before.id  # the only chat: on screen
    assert ctx.chat.get(before.id).system_prompt == GERMAN_DEFAULT
    assert panel.system_prompt.prompt() == GERMAN_DEFAULT
