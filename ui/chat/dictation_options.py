"""The microphone button's menu: which microphone, which language, which Whisper on which device.

Filled each time it opens (a headset plugged in a moment ago is listed; so is a model just
downloaded). Every choice is saved through the settings store (``change_settings``); a refusal
is reported next to the button. An English-only model keeps the language list visible but
disabled, with the reason as its first line, so the user learns why it cannot be changed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMenu

from app.core import (
    DeviceInfo,
    UserError,
    audio_devices,
    device_choices,
    device_value_of,
    placement_of,
)
from app.models import ModelRegistry, ModelTask
from app.speech import DEVICE_KEY, SpeechInputService, SpeechRecognizer
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.settings_changes import Report, change_settings

# The two submenus that change the speech-to-text model's choice, not a field of their own.
_MODEL = "models.speech_to_text.folder"
_DEVICE = "models.speech_to_text.placement"


def languages() -> list[tuple[str, str]]:
    """The dictation languages: (Whisper's code, the name shown)."""
    return [
        ("auto", tr("Detect automatically")),
        ("en", tr("English")),
        ("de", tr("German")),
        ("fr", tr("French")),
        ("es", tr("Spanish")),
        ("it", tr("Italian")),
        ("pt", tr("Portuguese")),
        ("nl", tr("Dutch")),
        ("pl", tr("Polish")),
        ("ru", tr("Russian")),
        ("uk", tr("Ukrainian")),
        ("tr", tr("Turkish")),
        ("zh", tr("Chinese")),
        ("ja", tr("Japanese")),
        ("ko", tr("Korean")),
        ("hi", tr("Hindi")),
        ("ar", tr("Arabic")),
    ]


def microphone_title() -> str:
    """The microphone submenu's title."""
    return tr("Microphone")


def language_title() -> str:
    """The language submenu's title."""
    return tr("Language")


def model_title() -> str:
    """The speech model submenu's title."""
    return tr("Speech model")


def device_title() -> str:
    """The device submenu's title."""
    return tr("Device")


def english_only_reason(folder: Path) -> str:
    """Why the language cannot be chosen for the Whisper in ``folder`` ("" when it can)."""
    if SpeechRecognizer(folder).multilingual:
        return ""
    return tr("{model} understands English only: choose a multilingual model to pick one.").format(
        model=folder.name
    )


class DictationOptions:
    """Fills ``menu`` with the dictation choices, saving each through the settings store."""

    def __init__(
        self,
        speech_input: SpeechInputService,
        models: ModelRegistry,
        devices: list[DeviceInfo],
        signals: SettingsSignals,
        menu: QMenu,
        report: Report,
    ) -> None:
        """Args:
        speech_input: Knows the Whisper in use.
        models: The installed speech-to-text models.
        devices: What Whisper may run on.
        signals: The settings read and changed.
        menu: The microphone button's menu.
        report: Where a refused choice is said.
        """
        self.speech_input = speech_input
        self.models = models
        self.devices = devices
        self.signals = signals
        self.menu = menu
        self.report = report
        menu.setToolTipsVisible(True)
        menu.aboutToShow.connect(self.fill)

    def fill(self) -> None:
        """Rebuild the menu from what is there now."""
        self.menu.clear()
        settings = self.signals.settings
        found = audio_devices.input_devices()
        mics = [(d.name, d.label) for d in found]
        # ALSA lists its own "default" (labelled "System default"): offer that one, else ours.
        system = next((d.name for d in found if d.name.casefold() == "default"), None)
        if found and system is None:
            mics.insert(0, ("", tr("System default")))
        current = settings.microphone or system or ""
        no_input = tr("No microphone found")
        self._choices(microphone_title(), mics, current, "microphone", "" if mics else no_input)
        folder = self._model_folder()
        no_model = tr("No speech-to-text model installed")
        reason = english_only_reason(folder) if folder is not None else no_model
        self._choices(
            language_title(), languages(), settings.speech_language, "speech_language", reason
        )
        models = [
            (m.folder, m.id) for m in self.models.models(ModelTask.SPEECH_TO_TEXT) if m.usable
        ]
        if folder is not None and folder not in [f for f, _ in models]:
            models.insert(0, (folder, folder.name))  # chosen by path, not registered
        reason = "" if models else no_model
        self._choices(model_title(), models, folder, _MODEL, reason)
        devices = [(c.device, c.label) for c in device_choices(self.devices, DEVICE_KEY)]
        enabled = {c.device for c in device_choices(self.devices, DEVICE_KEY) if c.available}
        self._choices(
            device_title(),
            devices,
            device_value_of(settings.model_choice(ModelTask.SPEECH_TO_TEXT)),
            _DEVICE,
            "",
            enabled=enabled,
        )

    def submenu(self, title: str) -> QMenu:
        """The submenu called ``title`` (after :meth:`fill`)."""
        for action in self.menu.actions():
            if action.menu() is not None and action.text() == title:
                found = action.menu()
                assert isinstance(found, QMenu)
                return found
        raise KeyError(title)

    def _model_folder(self) -> Path | None:
        try:
            return self.speech_input.model_folder()
        except UserError:
            return None

    def _choices(
        self,
        title: str,
        choices: list[tuple[Any, str]],
        current: Any,
        field: str,
        reason: str,
        *,
        enabled: set[Any] | None = None,
    ) -> None:
        """A submenu of exclusive choices; ``reason`` (when set) heads it and disables them."""
        sub = self.menu.addMenu(title)
        sub.setToolTipsVisible(True)
        if reason:
            note = sub.addAction(reason)
            note.setEnabled(False)
            if choices:
                sub.addSeparator()
        group = QActionGroup(sub)
        for value, label in choices:
            action = sub.addAction(label)
            action.setCheckable(True)
            action.setChecked(value == current)
            action.setEnabled(not reason and (enabled is None or value in enabled))
            group.addAction(action)
            action.triggered.connect(self._saver(field, value))

    def _saver(self, field: str, value: Any) -> Callable[[], None]:
        def save() -> None:
            models = self.signals.settings.models
            if field == _DEVICE:
                models = models.with_placement(ModelTask.SPEECH_TO_TEXT, placement_of(value))
                change_settings(self.signals.store, self.report, models=models)
            elif field == _MODEL:
                models = models.with_folder(ModelTask.SPEECH_TO_TEXT, value)
                change_settings(self.signals.store, self.report, models=models)
            else:
                change_settings(self.signals.store, self.report, **{field: value})

        return save
