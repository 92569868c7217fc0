"""Device picker: every known device kind, absent ones disabled, AUTO always available."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from app.core import (
    AUTO,
    PIPELINE_TASKS,
    DeviceInfo,
    SettingsStore,
    device_choices,
    device_value_of,
    placement_of,
)
from app.engines import RemoteEndpoint, remote_choices
from ui.a11y import describe
from ui.i18n import tr, translated
from ui.shell.settings_changes import Report, change_settings

DEVICE_ROLE = Qt.ItemDataRole.UserRole


class DevicePicker(QComboBox):
    """Choose the device of one pipeline; emits ``deviceChanged`` with the device name.

    With ``settings`` the choice is also saved through the store as the placement of the
    pipeline's model (and of the models placed with it: :func:`ModelChoices.with_placement`),
    so every panel's picker persists the same way; a choice that cannot be saved is undone and
    ``report`` says why.
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
        self._store = settings
        self._report = report
        describe(
            self,
            tr("Device"),
            tr("Device for the {pipeline} model").format(pipeline=pipeline),
        )
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._devices = list(devices)
        self._fill(remotes)
        self.set_device(self._saved() if settings is not None else current)
        self.currentIndexChanged.connect(self._on_index_changed)

    def _fill(self, remotes: Sequence[RemoteEndpoint]) -> None:
        model = self.model()
        if not isinstance(model, QStandardItemModel) or model.parent() is not self:
            model = QStandardItemModel(self)
            self.setModel(model)
        model.clear()
        for choice in [*device_choices(self._devices, self.pipeline), *remote_choices(remotes)]:
            item = QStandardItem(translated(choice.label))
            item.setData(choice.device, DEVICE_ROLE)
            item.setEnabled(choice.available)  # listed, so the user learns it is missing
            if choice.tooltip:
                item.setToolTip(translated(choice.tooltip))
            model.appendRow(item)

    def set_remotes(self, remotes: Sequence[RemoteEndpoint]) -> None:
        """List ``remotes`` (the endpoints were edited), keeping the selection without
        emitting; a selected endpoint that is gone, or has no model now, selects AUTO."""
        current = self.device()
        self.blockSignals(True)
        self._fill(remotes)
        self.blockSignals(False)
        self.set_device(current)

    def device(self) -> str:
        """The selected device name (e.g. ``CPU``, ``GPU.0``, ``AUTO``)."""
        return str(self.currentData(DEVICE_ROLE))

    def is_enabled(self, device: str) -> bool:
        """Whether ``device`` can be chosen here."""
        index = self.findData(device, DEVICE_ROLE)
        model = self.model()
        assert isinstance(model, QStandardItemModel)
        return index >= 0 and model.item(index).isEnabled()

    def set_device(self, device: str) -> None:
        """Select ``device`` without emitting; unknown or absent devices select AUTO."""
        # Case-blind: local names are upper case, a remote endpoint's name is the user's.
        wanted = device.casefold()
        found = [
            i
            for i in range(self.count())
            if str(self.itemData(i, DEVICE_ROLE)).casefold() == wanted
        ]
        index = found[0] if found else -1
        if index < 0 or not self.is_enabled(str(self.itemData(index, DEVICE_ROLE))):
            index = self.findData(AUTO, DEVICE_ROLE)
        self.blockSignals(True)
        self.setCurrentIndex(index)
        self.blockSignals(False)

    def choose(self, device: str) -> None:
        """Select ``device`` as if the user had, persisting it (e.g. "Use CPU instead")."""
        self.set_device(device)
        self._persist()

    @Slot(int)
    def _on_index_changed(self, _: int) -> None:
        self._persist()
        self.deviceChanged.emit(self.device())

    def _persist(self) -> None:
        if self._store is None:
            return
        task = PIPELINE_TASKS[self.pipeline]
        models = self._store.settings.models.with_placement(task, placement_of(self.device()))
        if not change_settings(self._store, self._report or _unreported, models=models):
            self.set_device(self._saved())  # not kept

    def _saved(self) -> str:
        """The saved device of this picker's pipeline (``REMOTE:<name>`` for an endpoint)."""
        assert self._store is not None
        return device_value_of(self._store.settings.model_choice(PIPELINE_TASKS[self.pipeline]))


def _unreported(_: str) -> None:
    """A picker with no place to report: the reverted choice shows the refusal."""
