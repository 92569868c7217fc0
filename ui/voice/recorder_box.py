"""Recording a reference clip: input choice, 3-2-1 countdown, live level, elapsed / 30 s, Stop.

The :class:`~app.core.audio.recording.Recorder` captures on PortAudio's thread; a GUI timer polls
its level and length every 50 ms. The recording ends at 30 s by itself or at Stop, and is
handed on with ``recorded``.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.core import MAX_RECORD_SECONDS, AudioDevice, AudioDeviceError, Recorder
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count, decimal
from ui.voice.audio_widgets import (
    AudioDeviceCombo,
    LevelMeter,
    no_audio_device,
    no_input_hint,
)
from ui.widgets.inline_error import InlineError

METER_MS = 50


class RecordBox(QWidget):
    """Record, with a countdown first; emits ``recorded(Recording)`` when it ends."""

    recorded = Signal(object)  # app.core.audio.recording.Recording
    busyChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.countdown_seconds = 3
        self.max_seconds = MAX_RECORD_SECONDS
        self.recorder: Recorder | None = None
        self._count = 0
        self.input_combo = AudioDeviceCombo("input")
        self.record_button = QPushButton(tr("Record"))
        set_icon(self.record_button, "record-rec")
        describe(
            self.record_button,
            tr("Record"),
            tr("Record 5–{seconds} s of someone speaking (after a 3-2-1 countdown)").format(
                seconds=count(round(MAX_RECORD_SECONDS))
            ),
        )
        self.stop_button = QPushButton(tr("Stop"))
        set_icon(self.stop_button, "stop")
        describe(
            self.stop_button,
            tr("Stop recording"),
            tr("Stop recording now (the clip so far is kept)"),
        )
        self.no_input = QLabel(no_audio_device())
        self.no_input.setToolTip(no_input_hint())
        self.meter = LevelMeter()
        self.status = QLabel()
        self.error = InlineError()
        """Placed by the owner, under its controls (it must not push Record around)."""
        self._countdown = QTimer(self)
        self._countdown.setInterval(1000)
        self._countdown.timeout.connect(self._tick)
        self._poll = QTimer(self)
        self._poll.setInterval(METER_MS)
        self._poll.timeout.connect(self._update)
        row = QHBoxLayout()
        row.addWidget(self.input_combo)
        row.addWidget(self.record_button)
        row.addWidget(self.stop_button)
        row.addWidget(self.no_input)
        row.addStretch(1)
        meter_row = QHBoxLayout()
        meter_row.addWidget(self.meter, 1)
        meter_row.addWidget(self.status)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addLayout(meter_row)
        self.record_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self._update_buttons()

    def set_inputs(self, devices: Sequence[AudioDevice]) -> None:
        """The microphones to offer; none: "No audio device" and Record disabled."""
        self.input_combo.set_devices(devices)
        self.input_combo.setVisible(bool(devices))
        self.no_input.setVisible(not devices)
        self._update_buttons()

    @property
    def busy(self) -> bool:
        """Counting down or recording."""
        return self._countdown.isActive() or self.recorder is not None

    @Slot()
    def start(self) -> None:
        """Count down 3-2-1, then record."""
        if self.busy or not self.input_combo.available:
            return
        self.error.clear()
        self._count = self.countdown_seconds
        self.meter.setValue(0)
        if self._count > 0:
            self.status.setText(tr("Recording in {count}…").format(count=self._count))
            self._countdown.start()
        else:
            self._begin()
        self._update_buttons()
        self.busyChanged.emit(True)

    @Slot()
    def _tick(self) -> None:
        self._count -= 1
        if self._count > 0:
            self.status.setText(tr("Recording in {count}…").format(count=self._count))
            return
        self._countdown.stop()
        self._begin()

    def _begin(self) -> None:
        recorder = Recorder(self.input_combo.device_index(), max_seconds=self.max_seconds)
        try:
            recorder.start()
        except AudioDeviceError as error:
            self.error.show_message(str(error))
            self.status.clear()
            self._update_buttons()
            self.busyChanged.emit(False)
            return
        self.recorder = recorder
        self._poll.start()
        self._update()
        self._update_buttons()

    @Slot()
    def _update(self) -> None:
        recorder = self.recorder
        if recorder is None:
            return
        self.meter.show_level(recorder.level())
        self.status.setText(f"● {decimal(recorder.elapsed, 1)} / {decimal(self.max_seconds, 0)} s")
        if not recorder.recording:  # 30 s reached (or the device went away)
            self.stop()

    @Slot()
    def stop(self) -> None:
        """Stop early (or cancel the countdown); a recording made so far is handed on."""
        if self._countdown.isActive():
            self._countdown.stop()
            self.status.setText(tr("Cancelled."))
            announce(self.status, self.status.text())
            self._update_buttons()
            self.busyChanged.emit(False)
            return
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return
        self._poll.stop()
        recording = recorder.stop()
        self.meter.setValue(0)
        seconds = decimal(recording.seconds, 1)
        self.status.setText(
            tr("Recorded {seconds} s (the 30 s limit)").format(seconds=seconds)
            if recorder.reached_limit
            else tr("Recorded {seconds} s").format(seconds=seconds)
        )
        announce(self.status, self.status.text())
        self._update_buttons()
        self.busyChanged.emit(False)
        if recording.samples.size:
            self.recorded.emit(recording)
        else:
            self.error.show_message(tr("Nothing was recorded: the microphone sent no sound."))
            announce(self.error, self.error.text())

    def shutdown(self) -> None:
        """The window closes: stop without handing anything on."""
        self._countdown.stop()
        self._poll.stop()
        recorder, self.recorder = self.recorder, None
        if recorder is not None:
            recorder.stop()

    def _update_buttons(self) -> None:
        busy = self.busy
        available = self.input_combo.available
        self.record_button.setEnabled(available and not busy)
        self.stop_button.setEnabled(busy)
        self.input_combo.setEnabled(available and not busy)
