"""A *Device* submenu over a :class:`DeviceSetting`: one radio item per choice, the one in use
checked, the absent ones disabled with the reason as their tooltip."""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QWidget

from ui.i18n import translated
from ui.widgets.device_setting import DeviceSetting


class DeviceMenu(QMenu):
    """The choices of ``setting`` as radio items; choosing one is the setting's
    :meth:`DeviceSetting.select` (saved, then ``deviceChanged``), as the drop-down's is."""

    def __init__(self, title: str, setting: DeviceSetting, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setting = setting
        self.setToolTipsVisible(True)  # why GPU is not offered, what AUTO does
        self._group = QActionGroup(self)
        self._group.setExclusive(True)
        self._listed: list[tuple[str, str, bool, str]] = []
        self._show()
        # Filled again when it opens (labels in the language of the moment); only the check
        # mark follows a choice: the item triggered is still in use then.
        self.aboutToShow.connect(self._fill)
        setting.changed.connect(self._show)
        self.triggered.connect(self._on_triggered)

    def device_action(self, device: str) -> QAction:
        """The item of ``device`` (KeyError if it is not listed)."""
        for action in self.actions():
            if action.data() == device:
                return action
        raise KeyError(device)

    def devices(self) -> list[str]:
        """The devices listed, in order."""
        return [str(action.data()) for action in self.actions()]

    @Slot()
    def _show(self) -> None:
        """Check the device in use; list the choices again if they changed."""
        listed = [(c.device, c.label, c.available, c.tooltip) for c in self.setting.choices]
        if listed != self._listed:
            self._fill()
        for action in self.actions():
            action.setChecked(action.data() == self.setting.device())

    @Slot()
    def _fill(self) -> None:
        self._listed = [(c.device, c.label, c.available, c.tooltip) for c in self.setting.choices]
        for action in self.actions():
            self._group.removeAction(action)
        self.clear()
        for choice in self.setting.choices:
            action = self.addAction(translated(choice.label))
            action.setData(choice.device)
            action.setCheckable(True)
            action.setEnabled(choice.available)
            action.setChecked(choice.device == self.setting.device())
            if choice.tooltip:
                action.setToolTip(translated(choice.tooltip))
            self._group.addAction(action)

    @Slot(QAction)
    def _on_triggered(self, action: QAction) -> None:
        self.setting.select(str(action.data()))
