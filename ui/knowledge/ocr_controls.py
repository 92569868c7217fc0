"""*Read text in images* for the selected collection, and the device OCR runs on.

Both are settings (``collections_without_ocr``, ``ocr_device``) read when an ingest starts, so
a change applies to the next files added; the controls show the settings and follow their
changes wherever they come from.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.core import DeviceInfo, device_choices
from ui.i18n import tr, translated
from ui.settings_signals import SettingsSignals
from ui.shell.settings_changes import Report, change_settings

OFFERED_KINDS = ("CPU", "GPU", "AUTO")
"""An NPU is not offered: the recogniser's input changes shape with every line."""


class OcrControls(QWidget):
    """The collection's *Read text in images* switch and the OCR device drop-down."""

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        signals: SettingsSignals,
        report: Report,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.signals = signals
        self.report = report
        self.collection = ""
        self.read_images = QCheckBox(tr("Read text in images"))
        self.read_images.setToolTip(
            tr(
                "Scanned PDF pages and pictures added to this collection are read by OCR "
                "(text recognition on this computer)."
            )
        )
        self.device = QComboBox()
        self.device.setToolTip(tr("Device that reads the text in images"))
        for choice in device_choices(devices, "ocr"):
            if choice.device.split(".", 1)[0] in OFFERED_KINDS:
                self.device.addItem(translated(choice.label), choice.device)
                if not choice.available:
                    index = self.device.count() - 1
                    self.device.model().item(index).setEnabled(False)  # type: ignore[attr-defined]
        device_label = QLabel(tr("&OCR on:"))
        device_label.setBuddy(self.device)
        # Under the collections (the switch is the selected collection's): the switch on its
        # own line, the device under it, so the column's 220 pixels hold both.
        device_row = QHBoxLayout()
        device_row.addWidget(device_label)
        device_row.addWidget(self.device, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.read_images)
        layout.addLayout(device_row)
        self._show()
        self.read_images.toggled.connect(self._on_read_images)
        self.device.currentIndexChanged.connect(self._on_device)
        signals.connect_keys({"ocr_device", "collections_without_ocr"}, self._show)

    def show_collection(self, name: str) -> None:
        """Show the switch of collection ``name`` ("" when none is selected: disabled)."""
        self.collection = name
        self._show()

    @Slot()
    def _show(self) -> None:
        settings = self.signals.settings
        self.read_images.blockSignals(True)
        self.read_images.setEnabled(bool(self.collection))
        self.read_images.setChecked(self.collection not in settings.collections_without_ocr)
        self.read_images.blockSignals(False)
        index = self.device.findData(settings.ocr_device)
        self.device.blockSignals(True)
        self.device.setCurrentIndex(max(0, index))
        self.device.blockSignals(False)

    @Slot(bool)
    def _on_read_images(self, checked: bool) -> None:
        if not self.collection:
            return
        off = [n for n in self.signals.settings.collections_without_ocr if n != self.collection]
        if not checked:
            off.append(self.collection)
        if not change_settings(self.signals.store, self.report, collections_without_ocr=off):
            self._show()

    @Slot(int)
    def _on_device(self, index: int) -> None:
        device = self.device.itemData(index)
        if isinstance(device, str) and not change_settings(
            self.signals.store, self.report, ocr_device=device
        ):
            self._show()
