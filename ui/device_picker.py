"""Device picker: every known device kind, absent ones disabled, AUTO always available."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.devices import DeviceInfo, device_choices


class DevicePicker(QComboBox):
    """Choose the device of one pipeline; emits ``deviceChanged`` with the device name."""

    deviceChanged = Signal(str)

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        pipeline: str,
        current: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.pipeline = pipeline
        self.setToolTip(f"Device for the {pipeline} model")
        model = QStandardItemModel(self)
        for choice in device_choices(devices, pipeline):
            item = QStandardItem(choice.label)
            item.setData(choice.device, Qt.ItemDataRole.UserRole)
            item.setEnabled(choice.available)
            if choice.tooltip:
                item.setToolTip(choice.tooltip)
            model.appendRow(item)
        self.setModel(model)
        self.set_device(current)
        self.currentIndexChanged.connect(self._emit_change)

    def device(self) -> str:
        """The selected device name (e.g. ``CPU``, ``GPU.0``, ``AUTO``)."""
        return str(self.currentData(Qt.ItemDataRole.UserRole))

    def is_enabled(self, device: str) -> bool:
        """Whether ``device`` can be chosen here."""
        index = self.findData(device, Qt.ItemDataRole.UserRole)
        model = self.model()
        assert isinstance(model, QStandardItemModel)
        return index >= 0 and model.item(index).isEnabled()

    def set_device(self, device: str) -> None:
        """Select ``device`` without emitting; unknown or absent devices select AUTO."""
        wanted = device.upper()
        index = self.findData(wanted, Qt.ItemDataRole.UserRole)
        if index < 0 or not self.is_enabled(wanted):
            index = self.findData("AUTO", Qt.ItemDataRole.UserRole)
        self.blockSignals(True)
        self.setCurrentIndex(index)
        self.blockSignals(False)

    @Slot(int)
    def _emit_change(self, _: int) -> None:
        self.deviceChanged.emit(self.device())
