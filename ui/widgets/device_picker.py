"""Device picker: a drop-down over a :class:`DeviceSetting` (every known device kind, absent
ones disabled, AUTO always available)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.core import AUTO, DeviceInfo, SettingsStore
from app.engines import RemoteEndpoint
from ui.a11y import describe
from ui.i18n import tr, translated
from ui.shell.settings_changes import Report
from ui.widgets.device_setting import DeviceSetting

DEVICE_ROLE = Qt.ItemDataRole.UserRole


class DevicePicker(QComboBox):
    """Choose the device of one pipeline; emits ``deviceChanged`` with the device name.

    The choices, the selection and their saving are its :attr:`setting`'s (with ``settings``
    the choice is saved through the store, as every view of a device setting saves it); the
    drop-down only shows them and passes the user's choice on.
    """

    deviceChanged = Signal(str)

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        pipeline: str,
        current: str = AUTO,
        parent: QWidget | None = None,
        *,
        settings: SettingsStore | None = None,
        report: Report | None = None,
        remotes: Sequence[RemoteEndpoint] = (),
    ) -> None:
        super().__init__(parent)
        self.pipeline = pipeline
        self.setting = DeviceSetting(
            devices, pipeline, current, self, settings=settings, report=report, remotes=remotes
        )
        """What is listed and selected, and where a choice is saved."""
        describe(
            self,
            tr("Device"),
            tr("Device for the {pipeline} model").format(pipeline=pipeline),
        )
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setModel(QStandardItemModel(self))
        self._show()
        self.setting.changed.connect(self._show)
        self.setting.deviceChanged.connect(self.deviceChanged)
        self.currentIndexChanged.connect(self._on_index_changed)

    @Slot()
    def _show(self) -> None:
        """List the setting's choices and select its device (without passing it back)."""
        model = self.model()
        assert isinstance(model, QStandardItemModel)
        self.blockSignals(True)
        model.clear()
        for choice in self.setting.choices:
            item = QStandardItem(translated(choice.label))
            item.setData(choice.device, DEVICE_ROLE)
            item.setEnabled(choice.available)  # listed, so the user learns it is missing
            if choice.tooltip:
                item.setToolTip(translated(choice.tooltip))
            model.appendRow(item)
        self.setCurrentIndex(self.findData(self.setting.device(), DEVICE_ROLE))
        self.blockSignals(False)

    def set_remotes(self, remotes: Sequence[RemoteEndpoint]) -> None:
        """List ``remotes`` (the endpoints were edited), keeping the selection without
        emitting; a selected endpoint that is gone, or has no model now, selects AUTO."""
        self.setting.set_remotes(remotes)

    def device(self) -> str:
        """The selected device name (e.g. ``CPU``, ``GPU.0``, ``AUTO``)."""
        return self.setting.device()

    def is_enabled(self, device: str) -> bool:
        """Whether ``device`` can be chosen here."""
        return self.setting.is_enabled(device)

    def set_device(self, device: str) -> None:
        """Select ``device`` without emitting; unknown or absent devices select AUTO."""
        self.setting.set_device(device)

    def choose(self, device: str) -> None:
        """Select ``device`` as if the user had, persisting it (e.g. "Use CPU instead")."""
        self.setting.choose(device)

    @Slot(int)
    def _on_index_changed(self, index: int) -> None:
        self.setting.select(str(self.itemData(index, DEVICE_ROLE)))
