""" "Use CPU instead" for the Avatar panel: which model moves to the CPU after a device failed.

A lip-sync job loads two models, the lip-sync model (on the panel's device picker) and the
face detector (on its own device setting, with no picker here). When one fails on a device,
:meth:`CpuFallback.offer` gives what the notification's "Use CPU instead" does: move the
model(s) on that device to the CPU, saved in the settings, and try again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject

from app.core import device_value_of
from app.engines import Local
from app.models import ModelTask
from pipelines.core import DeviceError
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import same_device
from ui.shell.settings_changes import change_settings
from ui.widgets.device_picker import DevicePicker


class CpuFallback(QObject):
    """Moves the Avatar panel's models to the CPU after a device failure, then retries."""

    def __init__(
        self,
        signals: SettingsSignals,
        device: DevicePicker,
        warn: Callable[[str], None],
        parent: QObject | None = None,
    ) -> None:
        """Args:
        signals: The settings (the face detector's device is saved there).
        device: The panel's lip-sync device picker.
        warn: Says a settings change that could not be saved.
        parent: The panel.
        """
        super().__init__(parent)
        self._signals = signals
        self._device = device
        self._warn = warn

    def offer(self, error: BaseException, retry: Callable[[], None]) -> Callable[[], None] | None:
        """What "Use CPU instead" does after ``error``: None unless a model failed on a device."""
        if not isinstance(error, DeviceError):
            return None
        return partial(self.use_cpu, error.device, retry)

    def use_cpu(self, failed: str, retry: Callable[[], None]) -> None:
        """Move the model(s) that failed on ``failed`` to the CPU (persisted), then ``retry``.

        The face detector loads with the lip-sync model, on its own device setting: the one
        on ``failed`` moves; when that names neither (AUTO, say), both do.
        """
        settings = self._signals.settings
        detector_choice = settings.model_choice(ModelTask.FACE_DETECTOR)
        detector = same_device(failed, device_value_of(detector_choice))
        lipsync = same_device(failed, self._device.device())
        if detector or not lipsync:
            models = settings.models.with_placement(ModelTask.FACE_DETECTOR, Local(device="CPU"))
            change_settings(self._signals.store, self._warn, models=models)
        if lipsync or not detector:
            self._device.choose("CPU")
        retry()
