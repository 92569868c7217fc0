"""Choosing the voice to speak in: the Voice box, and what a Kokoro model adds under it — a
second voice to blend in with its share, and the pace.

A blend is stored as a voice name (``jf_alpha+jm_kumo@0.30``, see :class:`PresetVoice`) in
the ``voice`` setting, so the chat's Speak, Avatar mode, the server and the command line speak
the same mix; the pace is the ``voice_speed`` setting. A SpeechT5 model has one pace and speaks
voices made from clips, so its rows are hidden. Settings are written when a slider is let go
(or moved by the keyboard), not on every step of a drag.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSlider, QWidget

from app.core import UserError
from app.voice import PresetVoice, parse_preset
from ui.a11y import describe
from ui.i18n import tr
from ui.numbers import decimal, percent
from ui.settings_signals import SettingsSignals
from ui.shell.settings_changes import Report, change_settings

SPEED_STEPS = 100
"""The speed slider's units per 1× (0.5× is 50, 2× is 200)."""
MIN_SPEED_STEP, MAX_SPEED_STEP = 50, 200
SHARE_STEPS = 100
"""The share slider's units: percent of the second voice."""
DEFAULT_SHARE = 30


@dataclasses.dataclass(frozen=True)
class PickerRow:
    """One row of the picker for a parent's grid: its caption, the widget, the control the
    caption's mnemonic focuses, and whether only a Kokoro model shows it."""

    caption: str
    widget: QWidget
    buddy: QWidget
    presets_only: bool


class _Slider(QSlider):
    """A horizontal slider that says when its value is settled: let go after a drag, or
    changed by the keyboard or a click on the groove."""

    settled = Signal(int)

    def __init__(self, low: int, high: int) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setRange(low, high)
        self.setMinimumWidth(100)
        self.setMaximumWidth(260)  # a long groove is no finer to set, and looks unfinished
        self.sliderReleased.connect(lambda: self.settled.emit(self.value()))
        self.valueChanged.connect(self._changed)

    @Slot(int)
    def _changed(self, value: int) -> None:
        if not self.isSliderDown():
            self.settled.emit(value)


class VoicePicker(QObject):
    """The voice, the second voice and its share, and the speed; remembered in the settings."""

    voiceChosen = Signal(str)
    """The Voice box changed (its text: a voice or a preset, never a blend's name)."""

    def __init__(
        self, signals: SettingsSignals, report: Report, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.signals = signals
        self._report = report
        self._presets: list[str] = []
        self.voice_combo = QComboBox()
        self.voice_combo.setMinimumContentsLength(14)
        describe(
            self.voice_combo, tr("Voice"), tr("The voice to speak in (chat answers use it too)")
        )
        self.second = QComboBox()
        self.second.setMinimumContentsLength(12)
        describe(
            self.second,
            tr("Blend with"),
            tr("A second voice mixed into the first: a voice of its own between the two"),
        )
        self.share = _Slider(1, SHARE_STEPS - 1)
        self.share.setValue(DEFAULT_SHARE)
        describe(self.share, tr("Share of the second voice"), tr("How much of it is heard"))
        self.share_label = QLabel()
        self.speed = _Slider(MIN_SPEED_STEP, MAX_SPEED_STEP)
        self.speed.setValue(SPEED_STEPS)
        self.speed.setPageStep(10)
        describe(self.speed, tr("Speed"), tr("How fast the voice speaks (1×: its own pace)"))
        self.speed_label = QLabel()
        for label in (self.share_label, self.speed_label):
            label.setMinimumWidth(label.fontMetrics().horizontalAdvance("2,00×  "))
        self.rows = [
            PickerRow(tr("&Voice:"), self.voice_combo, self.voice_combo, False),
            PickerRow(
                tr("&Blend with:"),
                _row(self.second, self.share, self.share_label),
                self.second,
                True,
            ),
            PickerRow(tr("Spee&d:"), _row(self.speed, self.speed_label), self.speed, True),
        ]
        self.voice_combo.currentIndexChanged.connect(self._on_first)
        self.second.currentIndexChanged.connect(self._on_second)
        self.share.valueChanged.connect(self._show_share)
        self.share.settled.connect(self._remember_voice)
        self.speed.valueChanged.connect(self._show_speed)
        self.speed.settled.connect(self._remember_speed)
        self._show_share(self.share.value())
        self._show_speed(self.speed.value())

    # ----- what is shown ---------------------------------------------------------------

    def set_voices(self, names: Sequence[str], presets: Sequence[str] = ()) -> None:
        """List ``names``; select the remembered voice (``settings.voice``) or the first.

        ``presets``: the Kokoro model's own voices among them, which blend and change pace
        (none: a SpeechT5 model, whose rows for that are hidden by the parent).
        """
        self._presets = list(presets)
        wanted = self.signals.settings.voice or self.voice_combo.currentText()
        try:
            stored = parse_preset(wanted, self._presets) if self._presets else None
        except UserError:
            stored = None  # a blend of voices this model lacks: its first voice instead
        first = stored.first if stored is not None else wanted
        self.voice_combo.blockSignals(True)
        self.voice_combo.clear()
        self.voice_combo.addItems(list(names))
        index = next((i for i, n in enumerate(names) if n.casefold() == first.casefold()), 0)
        self.voice_combo.setCurrentIndex(index if names else -1)
        self.voice_combo.blockSignals(False)
        self._list_second(self.voice_combo.currentText(), stored)
        self._show_stored_speed()
        self._remember_voice()

    @property
    def has_presets(self) -> bool:
        """Whether the model speaks presets (Kokoro): the blend and speed rows apply."""
        return bool(self._presets)

    def chosen_voice(self) -> str:
        """The voice to speak in: the Voice box's, with the second voice blended in."""
        return self._blend().name if self._is_preset() else self.voice_combo.currentText()

    def _blend(self) -> PresetVoice:
        first = self.voice_combo.currentText()
        second = str(self.second.currentData() or "")
        if not second:
            return PresetVoice(first)
        return PresetVoice(first, second, self.share.value() / SHARE_STEPS)

    def _is_preset(self) -> bool:
        return self.voice_combo.currentText() in self._presets

    def _list_second(self, first: str, chosen: PresetVoice | None) -> None:
        """The presets other than ``first`` to blend in; ``chosen``'s second selected."""
        self.second.blockSignals(True)
        self.second.clear()
        self.second.addItem(tr("No second voice"), "")
        for name in self._presets:
            if name != first:
                self.second.addItem(name, name)
        wanted = chosen.second if chosen is not None else ""
        index = max(self.second.findData(wanted), 0)
        self.second.setCurrentIndex(index)
        self.second.blockSignals(False)
        if chosen is not None and index > 0:
            self.share.blockSignals(True)
            self.share.setValue(round(chosen.weight * SHARE_STEPS))
            self.share.blockSignals(False)
            self._show_share(self.share.value())
        self.second.setEnabled(self._is_preset() and len(self._presets) > 1)
        self._enable_share()

    def _show_stored_speed(self) -> None:
        self.speed.blockSignals(True)
        self.speed.setValue(round(self.signals.settings.voice_speed * SPEED_STEPS))
        self.speed.blockSignals(False)
        self._show_speed(self.speed.value())

    # ----- changes -----------------------------------------------------------------------

    @Slot(int)
    def _on_first(self, _: int) -> None:
        first = self.voice_combo.currentText()
        kept = self._blend()  # the second voice stays unless it is the first one now
        second = kept.second if kept.second != first else ""
        self._list_second(first, dataclasses.replace(kept, first=first, second=second))
        self._remember_voice()

    @Slot(int)
    def _on_second(self, _: int) -> None:
        self._enable_share()
        self._remember_voice()

    @Slot()
    def _remember_voice(self) -> None:
        name = self.chosen_voice()
        if name and self.signals.settings.voice != name:
            change_settings(self.signals.store, self._report, voice=name)
        self.voiceChosen.emit(self.voice_combo.currentText())

    @Slot(int)
    def _remember_speed(self, value: int) -> None:
        speed = value / SPEED_STEPS
        if self.signals.settings.voice_speed != speed:
            change_settings(self.signals.store, self._report, voice_speed=speed)

    def _enable_share(self) -> None:
        blended = bool(self.second.currentData())
        self.share.setEnabled(blended)
        self.share_label.setEnabled(blended)

    @Slot(int)
    def _show_share(self, value: int) -> None:
        self.share_label.setText(percent(value / SHARE_STEPS))

    @Slot(int)
    def _show_speed(self, value: int) -> None:
        self.speed_label.setText(tr("{speed}×").format(speed=decimal(value / SPEED_STEPS, 2)))


def _row(*widgets: QWidget) -> QWidget:
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget, 1 if isinstance(widget, QSlider) else 0)
    return row
