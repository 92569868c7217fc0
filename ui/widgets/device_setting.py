"""Which device one pipeline runs on: the choices, the one selected, and its saving.

One source for every view of it: the drop-down of the Knowledge, Voice and Avatar panels
(:class:`ui.widgets.device_picker.DevicePicker`) and the chat model menu's *Device* submenu
(:class:`ui.widgets.device_menu.DeviceMenu`) list the same choices and save a choice the same
way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from PySide6.QtCore import QObject, Signal

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
from ui.shell.settings_changes import Report, change_settings


class Choice(Protocol):
    """One entry of the list (``app.core``'s device choices and remote choices)."""

    @property
    def device(self) -> str:
        """The device name saved and loaded on (``REMOTE:<name>`` for an endpoint)."""

    @property
    def label(self) -> str:
        """What the entry says (a core text: shown through ``ui.i18n.translated``)."""

    @property
    def available(self) -> bool:
        """Whether it can be chosen on this machine now."""

    @property
    def tooltip(self) -> str:
        """Why not, or what it means (a core text; "" for none)."""


class DeviceSetting(QObject):
    """The device of one pipeline: every known device kind (absent ones listed, not available),
    AUTO always, then the remote endpoints given.

    With ``settings`` a choice is saved through the store as the placement of the pipeline's
    model (and of the models placed with it: :func:`ModelChoices.with_placement`); a choice
    that cannot be saved is undone and ``report`` says why.
    """

    deviceChanged = Signal(str)
    """The user chose another device (and it was kept): its name."""
    changed = Signal()
    """The choices or the selection changed: views show them again."""

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        pipeline: str,
        current: str = AUTO,
        parent: QObject | None = None,
        *,
        settings: SettingsStore | None = None,
        report: Report | None = None,
        remotes: Sequence[RemoteEndpoint] = (),
    ) -> None:
        """Args:
        devices: The machine's devices.
        pipeline: Whose device this is (``chat``, ``embedding``, ``tts``…).
        current: The device selected at first when there are no ``settings``.
        parent: The owner.
        settings: Where the choice is saved (and read at first).
        report: Where a choice that could not be saved is said.
        remotes: The remote endpoints to offer.
        """
        super().__init__(parent)
        self.pipeline = pipeline
        self._devices = list(devices)
        self._store = settings
        self._report = report
        self._choices = self._list(remotes)
        self._device = AUTO
        self.set_device(self._saved() if settings is not None else current)

    @property
    def choices(self) -> list[Choice]:
        """What may be chosen, in order (the unavailable ones too: the user learns what is
        missing)."""
        return list(self._choices)

    def device(self) -> str:
        """The selected device name (e.g. ``CPU``, ``GPU.0``, ``AUTO``, ``REMOTE:name``)."""
        return self._device

    def is_enabled(self, device: str) -> bool:
        """Whether ``device`` can be chosen here."""
        return any(c.device == device and c.available for c in self._choices)

    def set_device(self, device: str) -> None:
        """Select ``device`` without saving it; unknown or absent devices select AUTO."""
        # Case-blind: local names are upper case, a remote endpoint's name is the user's.
        wanted = device.casefold()
        found = [c.device for c in self._choices if c.device.casefold() == wanted]
        self._device = found[0] if found and self.is_enabled(found[0]) else AUTO
        self.changed.emit()

    def choose(self, device: str) -> None:
        """Select ``device`` as if the user had, saving it, without ``deviceChanged`` (the
        caller loads there itself, e.g. "Use CPU instead")."""
        self.set_device(device)
        self._persist()

    def select(self, device: str) -> None:
        """The user chose ``device``: save it and emit ``deviceChanged`` (unless it was the
        device already, or could not be saved)."""
        if device == self._device:
            return
        self.set_device(device)
        if self._persist():
            self.deviceChanged.emit(self._device)

    def set_remotes(self, remotes: Sequence[RemoteEndpoint]) -> None:
        """List ``remotes`` (the endpoints were edited), keeping the selection; a selected
        endpoint that is gone, or has no model now, selects AUTO."""
        self._choices = self._list(remotes)
        self.set_device(self._device)

    def _list(self, remotes: Sequence[RemoteEndpoint]) -> list[Choice]:
        return [*device_choices(self._devices, self.pipeline), *remote_choices(remotes)]

    def _persist(self) -> bool:
        """Save the selection; False (and the saved one selected again) if it was refused."""
        if self._store is None:
            return True
        task = PIPELINE_TASKS[self.pipeline]
        models = self._store.settings.models.with_placement(task, placement_of(self._device))
        if not change_settings(self._store, self._report or _unreported, models=models):
            self.set_device(self._saved())  # not kept
            return False
        return True

    def _saved(self) -> str:
        """The saved device of this pipeline (``REMOTE:<name>`` for an endpoint)."""
        assert self._store is not None
        return device_value_of(self._store.settings.model_choice(PIPELINE_TASKS[self.pipeline]))


def _unreported(_: str) -> None:
    """A setting with no place to report: the reverted choice shows the refusal."""
