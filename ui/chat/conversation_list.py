"""The list of conversations: select, rename in place (F2 / double-click), delete."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QMenu, QWidget

from app.conversations import Conversation

ID_ROLE = Qt.ItemDataRole.UserRole


class ConversationList(QListWidget):
    """Emits ids; the panel owns the service calls and confirmation."""

    conversationSelected = Signal(str)
    renameRequested = Signal(str, str)
    deleteRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(
            QListWidget.EditTrigger.DoubleClicked
            | QListWidget.EditTrigger.EditKeyPressed
            | QListWidget.EditTrigger.SelectedClicked
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._show_menu)
        self.currentItemChanged.connect(self._on_current_changed)
        self.itemChanged.connect(self._on_item_changed)
        self._populating = False
        delete = QAction("Delete", self)
        delete.setShortcut(QKeySequence.StandardKey.Delete)
        delete.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        delete.triggered.connect(self._delete_current)
        self.addAction(delete)

    def set_conversations(self, conversations: Sequence[Conversation], current: str) -> None:
        """Show ``conversations`` and select the one with id ``current``."""
        self._populating = True
        self.blockSignals(True)
        self.clear()
        for conversation in conversations:
            item = QListWidgetItem(conversation.title)
            item.setData(ID_ROLE, conversation.id)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
            item.setToolTip(conversation.title)
            self.addItem(item)
            if conversation.id == current:
                self.setCurrentItem(item)
        self.blockSignals(False)
        self._populating = False

    def current_id(self) -> str:
        """Id of the selected conversation ("" when none)."""
        item = self.currentItem()
        return str(item.data(ID_ROLE)) if item is not None else ""

    def item_for(self, conversation_id: str) -> QListWidgetItem | None:
        """The row of a conversation."""
        for row in range(self.count()):
            item = self.item(row)
            if item.data(ID_ROLE) == conversation_id:
                return item
        return None

    @Slot(QListWidgetItem, QListWidgetItem)
    def _on_current_changed(
        self, current: QListWidgetItem | None, _: QListWidgetItem | None
    ) -> None:
        if current is not None:
            self.conversationSelected.emit(str(current.data(ID_ROLE)))

    @Slot(QListWidgetItem)
    def _on_item_changed(self, item: QListWidgetItem) -> None:
        if not self._populating:
            self.renameRequested.emit(str(item.data(ID_ROLE)), item.text())

    @Slot(QPoint)
    def _show_menu(self, position: QPoint) -> None:
        item = self.itemAt(position)
        if item is None:
            return
        menu = QMenu(self)
        menu.addAction("Rename", lambda: self.editItem(item))
        menu.addAction("Delete…", lambda: self.deleteRequested.emit(str(item.data(ID_ROLE))))
        menu.exec(self.viewport().mapToGlobal(position))

    @Slot()
    def _delete_current(self) -> None:
        if self.current_id():
            self.deleteRequested.emit(self.current_id())
