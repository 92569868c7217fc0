"""Storing chat defaults where the generation settings are edited: a model's own preset, or
the global defaults when no model is loaded (the scoping every section of the panel shares)."""

from __future__ import annotations

from typing import Any

from app.chat import ModelSampling
from app.core import ChatDefaults, SettingsStore
from ui.shell.settings_changes import Report, change_settings


def chat_defaults(
    store: SettingsStore, model: str | None, recommended: ModelSampling | None = None
) -> ChatDefaults:
    """The defaults in effect for ``model`` (a preset key; None: the global defaults), with
    the sampling it ``recommended`` while it has no preset."""
    return store.settings.chat_for(model, recommended)


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
