"""Storing chat defaults where the generation settings are edited: a model's own preset, or
the global defaults when no model is loaded (the scoping every section of the panel shares);
and the default system prompt in the user's language.

The default system prompt is stored in English (:data:`app.core.DEFAULT_SYSTEM_PROMPT`), and
the window shows it, and starts new chats with it, in the user's language — a German window
starts German chats with "Du bist ein hilfreicher Assistent.". A prompt the user wrote is
stored and used exactly as written, in every language.
"""

from __future__ import annotations

from typing import Any

from app.chat import ModelSampling
from app.core import DEFAULT_SYSTEM_PROMPT, ChatDefaults, Settings, SettingsStore
from ui.i18n import translated
from ui.shell.settings_changes import Report, change_settings


def chat_defaults(
    store: SettingsStore, model: str | None, recommended: ModelSampling | None = None
) -> ChatDefaults:
    """The defaults in effect for ``model`` (a preset key; None: the global defaults), with
    the sampling it ``recommended`` while it has no preset."""
    return store.settings.chat_for(model, recommended)


def prompt_in_language(stored: str) -> str:
    """The system prompt ``stored`` in the settings as the window shows and uses it: the
    default one in the user's language, any other exactly as the user wrote it."""
    return translated(DEFAULT_SYSTEM_PROMPT) if stored == DEFAULT_SYSTEM_PROMPT else stored


def prompt_to_store(shown: str) -> str:
    """The system prompt to store for ``shown``: the default one in the user's language is
    stored as the default (so it follows a later change of language), any other as written."""
    return DEFAULT_SYSTEM_PROMPT if shown == translated(DEFAULT_SYSTEM_PROMPT) else shown


def default_prompts(settings: Settings) -> set[str]:
    """Every system prompt that is a default rather than the user's words for one chat: the
    default and each preset's, as stored and as the window shows them (an empty chat that
    starts with one of them may take another default; see ``ui.chat.panel_model``)."""
    stored = {settings.chat.system_prompt}
    stored.update(preset.system_prompt for preset in settings.chat_presets.values())
    return stored | {prompt_in_language(prompt) for prompt in stored}


def save_chat(
    store: SettingsStore,
    report: Report,
    model: str | None,
    recommended: ModelSampling | None = None,
    **values: Any,
) -> bool:
    """Store ``values`` in ``model``'s preset (made on its first change from the defaults in
    effect, the ``recommended`` sampling included) or, for None, in the global defaults;
    whether they were kept (else ``report`` says why)."""
    chat = chat_defaults(store, model, recommended).model_copy(update=values)
    if model is None:
        return change_settings(store, report, chat=chat)
    presets = {**store.settings.chat_presets, model: chat}
    return change_settings(store, report, chat_presets=presets)
