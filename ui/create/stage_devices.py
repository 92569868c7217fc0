"""The Create panel's *Advanced* devices: the text encoder, the denoiser and the VAE decoder each
on a device of its own, behind a disclosure (most people want one device, or AUTO).

Each stage offers "As the device" (the picker above decides) and the devices present here; the
choice is the settings' ``image_stages`` spec (``text=CPU,denoise=GPU,vae=GPU``), saved as it
changes, so the command line and the next start place the stages the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QComboBox, QFormLayout, QToolButton, QVBoxLayout, QWidget

from app.core import AUTO, DeviceInfo
from app.images import STAGE_KEYS, is_stage_spec, parse_stage_spec
from pipelines.core import InvalidInputError
from ui.a11y import describe
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.settings_changes import Report, change_settings

AS_DEVICE = ""
"""A stage's entry that leaves it to the device picker."""


class StageDevicesBox(QWidget):
    """Three drop-downs under an *Advanced* disclosure; ``specChanged`` with the new spec."""

    specChanged = Signal(str)

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        signals: SettingsSignals,
        report: Report,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._signals = signals
        self._report = report
        self.toggle = QToolButton()
        self.toggle.setText(tr("Advanced: a device per stage"))
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        describe(self.toggle, tr("Advanced devices"), tr("Show a device for each stage"))
        self.stages = QWidget()
        form = QFormLayout(self.stages)
        form.setContentsMargins(0, 0, 0, 0)
        names = (tr("Text encoder"), tr("Denoiser"), tr("VAE decoder"))
        self.pickers: dict[str, QComboBox] = {}
        for key, name in zip(STAGE_KEYS, names, strict=True):
            picker = QComboBox()
            picker.addItem(tr("As the device"), AS_DEVICE)
            picker.addItem(AUTO, AUTO)
            for info in devices:
                picker.addItem(info.name, info.name)
            describe(picker, name, tr("Where this stage of the image model runs"))
            picker.currentIndexChanged.connect(self._save)
            form.addRow(name, picker)
            self.pickers[key] = picker
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle)
        layout.addWidget(self.stages)
        self.toggle.toggled.connect(self._disclose)
        signals.connect_keys({"image_stages"}, self.show_setting)
        self.show_setting()
        self._disclose(bool(self.spec()))

    def spec(self) -> str:
        """The stages placed by hand as a spec ("" when every stage follows the device)."""
        return ",".join(
            f"{key}={picker.currentData()}"
            for key, picker in self.pickers.items()
            if picker.currentData() != AS_DEVICE
        )

    def clear(self) -> None:
        """Every stage as the device again (saved): "Use CPU instead" means all of it."""
        for picker in self.pickers.values():
            picker.blockSignals(True)
            picker.setCurrentIndex(0)
            picker.blockSignals(False)
        self._save()

    @Slot()
    def show_setting(self) -> None:
        """Select what the settings' spec says (a spec that cannot be read: every stage as
        the device; its sentence comes when a picture is drawn)."""
        saved = self._signals.settings.image_stages.strip()
        try:
            placed = parse_stage_spec(saved) if is_stage_spec(saved) else {}
        except InvalidInputError:
            placed = {}
        for key, picker in self.pickers.items():
            picker.blockSignals(True)
            index = picker.findData(placed.get(key, AS_DEVICE))
            picker.setCurrentIndex(max(0, index))
            picker.blockSignals(False)

    @Slot(bool)
    def _disclose(self, shown: bool) -> None:
        self.toggle.setChecked(shown)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.stages.setVisible(shown)

    @Slot()
    def _save(self) -> None:
        spec = self.spec()
        if change_settings(self._signals.store, self._report, image_stages=spec):
            self.specChanged.emit(spec)
