"""Small widgets for sound devices: a device list, a level meter, and a hook on window close.

With no sound card PortAudio lists nothing: the device list then shows "No audio device"
(disabled) and the controls that need it are disabled by their owners, with that text next
to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QComboBox, QProgressBar, QWidget

from app.core import AudioDevice, Level
from ui.a11y import describe
from ui.i18n import tr
from ui.numbers import decimal


def no_audio_device() -> str:
    """What stands in for a device list when PortAudio lists none."""
    return tr("No audio device")


def no_input_hint() -> str:
    """Why Record is disabled with no microphone."""
    return tr("No audio device: recording is unavailable. A clip from a file works the same way.")


def no_output_hint() -> str:
    """Why speech is not heard with no speaker."""
    return tr("No audio device: the voice is made but not played; Save as wav… keeps it.")


class AudioDeviceCombo(QComboBox):
    """The input or output devices PortAudio lists, the default first."""

    def __init__(self, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setMinimumContentsLength(12)
        if kind == "input":
            describe(self, tr("Microphone"), tr("Microphone to record from"))
        else:
            describe(self, tr("Speaker"), tr("Speaker to play on"))
        self._devices: list[AudioDevice] = []

    def set_devices(self, devices: Sequence[AudioDevice]) -> None:
        """Show ``devices`` (keeping the selection by name); none: "No audio device"."""
        previous = self.currentText()
        self._devices = list(devices)
        self.blockSignals(True)
        self.clear()
        for device in self._devices:
            self.addItem(device.label, device.index)
            self.setItemData(
                self.count() - 1,
                f"{device.name} · {device.host_api}",
                Qt.ItemDataRole.ToolTipRole,
            )
        if not self._devices:
            self.addItem(no_audio_device(), None)
        index = self.findText(previous)
        self.setCurrentIndex(index if index >= 0 else 0)
        self.blockSignals(False)
        self.setEnabled(bool(self._devices))

    @property
    def available(self) -> bool:
        """Whether there is any device to use."""
        return bool(self._devices)

    def device_index(self) -> int | None:
        """The PortAudio index of the chosen device (None when there is none)."""
        data = self.currentData()
        return int(data) if data is not None else None


FALL_PER_TICK = 6


class LevelMeter(QProgressBar):
    """The input level, 0–100 on a −60…0 dBFS scale; the tooltip says the number."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, 100)
        self.setTextVisible(False)
        self.setMaximumHeight(10)
        describe(self, tr("Input level"), tr("How loud the microphone hears you"))
        self.setValue(0)

    def show_level(self, level: Level) -> None:
        """Move the bar to ``level``: up at once, down gently (the eye follows a falling bar)."""
        self.setValue(max(round(100 * level.fraction()), self.value() - FALL_PER_TICK))
        self.setToolTip(
            tr("Input level {level} dBFS (peak {peak})").format(
                level=decimal(level.rms_dbfs, 0),
                peak=decimal(level.peak, 2),
            )
        )


class CloseHook(QObject):
    """Calls ``on_close`` when the window holding ``widget`` is closed.

    The main window cancels its workers on close; sound streams are not workers, so the
    widgets that own them stop them here (nothing plays on after the window is gone).
    """

    def __init__(self, widget: QWidget, on_close: Callable[[], None]) -> None:
        super().__init__(widget)
        self._widget = widget
        self._on_close = on_close
        self._window: QWidget | None = None

    def attach(self) -> None:
        """Watch the widget's current top-level window (call when it is shown)."""
        window = self._widget.window()
        if window is self._window:
            return
        if self._window is not None:
            self._window.removeEventFilter(self)
        self._window = window
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Stop on Close; the event goes on to the window."""
        if watched is self._window and event.type() == QEvent.Type.Close:
            self._on_close()
        return False
