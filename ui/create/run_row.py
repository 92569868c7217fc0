"""Where a picture is drawn and the control that draws it: the device — a local device, AUTO,
or a remote endpoint (listed as the endpoints are saved) —, Generate (Cancel while drawing),
and under them what the last run has to say: its error, the pictures the gallery could not
keep, and a status line that is not an error. Under the device, *Advanced* places the model's
stages one by one (:mod:`ui.create.stage_devices`)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QLabel, QWidget

from app.core import DeviceInfo
from app.engines import is_remote
from app.images import DEVICE_KEY
from ui.a11y import announce, describe
from ui.create.run_button import RunButton
from ui.create.stage_devices import StageDevicesBox
from ui.create.unsaved import UnsavedPictures
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.device_picker import DevicePicker
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox


class RunRow(QWidget):
    """The device picker, Generate, and the lines under them."""

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.signals = signals
        self.device = DevicePicker(
            devices,
            DEVICE_KEY,
            settings=signals.store,
            report=notifications.warn,
            remotes=signals.settings.remote_endpoints,  # an endpoint's model draws there
        )
        self.device.setToolTip("")  # the picker's own names the pipeline key ("images")
        describe(self.device, tr("Image device"), tr("Where the image model runs"))
        # Endpoints are edited in the chat's Remote… dialog: listed here as they are saved.
        signals.connect_keys({"remote_endpoints"}, self._show_remotes)
        self.button = RunButton()
        self.error = InlineError()
        self.unsaved = UnsavedPictures(tasks)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.hide()
        self.stages = StageDevicesBox(devices, signals, notifications.warn)
        self.device.deviceChanged.connect(self._show_stages)
        self._show_stages()
        controls = hbox(QLabel(tr("Device")), self.device, 1, self.button, margins=0)
        vbox(controls, self.stages, self.error, self.unsaved, self.status, parent=self, margins=0)

    def device_value(self) -> str:
        """Where to draw: the picker's device, or — on a local device with stages placed by
        hand — the stage spec (``text=CPU,denoise=GPU,vae=GPU``)."""
        device = self.device.device()
        spec = self.stages.spec()
        return spec if spec and not is_remote(device) else device

    def show_status(self, text: str) -> None:
        """A line under Generate that is not an error ("" hides it)."""
        self.status.setText(text)
        self.status.setVisible(bool(text))
        announce(self.status, text)

    @Slot()
    def _show_stages(self) -> None:
        """A remote endpoint places its own stages: the per-stage choice is for this machine."""
        self.stages.setVisible(not is_remote(self.device.device()))

    @Slot()
    def _show_remotes(self) -> None:
        self.device.set_remotes(self.signals.settings.remote_endpoints)
