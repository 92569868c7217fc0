"""Conversations: a list to select, rename in place (F2 / double-click / menu) and delete."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.conversations import Conversation
from app.errors import UserError
from app.services.chat import ChatService
from ui.inline_error import InlineError

ID_ROLE = Qt.ItemDataRole.UserRole


class ConversationList(QListWidget):
    """The list itself: emits ids; the pane owns the service calls and confirmation."""

    conversationSelected = Signal(str)
    renameRequested = Signal(str, str)
    deleteRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditTriggers(
            QListWidget.EditTrigger.DoubleClicked | QListWidget.EditTrigger.EditKeyPressed
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.customContextMenuRequested.connect(self._show_menu)
        self.currentItemChanged.connect(self._on_current_changed)
        self.itemChanged.connect(self._on_item_changed)
        self._populating = False
        self.delete_action = QAction("Delete…", self)
        self.delete_action.setShortcut(QKeySequence.StandardKey.Delete)
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self._delete_current)
        self.addAction(self.delete_action)

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

    def menu_for(self, item: QListWidgetItem) -> QMenu:
        """The context menu of one row (built separately so it can be tested without exec)."""
        menu = QMenu(self)
        menu.addAction("Rename", partial(self.editItem, item))
        menu.addAction("Delete…", partial(self.deleteRequested.emit, str(item.data(ID_ROLE))))
        return menu

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
        if item is not None:
            self.menu_for(item).exec(self.viewport().mapToGlobal(position))

    @Slot()
    def _delete_current(self) -> None:
        if self.current_id():
            self.deleteRequested.emit(self.current_id())


class ConversationsPane(QWidget):
    """"New chat", the conversation list, and the inline error of a refused rename."""

    conversationSelected = Signal(str)
    conversationDeleted = Signal(str)
    conversationRenamed = Signal(str)
    newRequested = Signal()

    def __init__(self, service: ChatService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._service = service
        self.new_button = QPushButton("New chat")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.list = ConversationList()
        self.error = InlineError()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.new_button)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.error)
        self.new_button.clicked.connect(self.newRequested)
        self.list.conversationSelected.connect(self.conversationSelected)
        self.list.renameRequested.connect(self._rename)
        self.list.deleteRequested.connect(self._delete)

    def set_conversations(self, conversations: Sequence[Conversation], current: str) -> None:
        """Show ``conversations`` with ``current`` selected."""
        self.list.set_conversations(conversations, current)

    @Slot(str, str)
    def _rename(self, conversation_id: str, title: str) -> None:
        self.error.clear()
        try:
            self._service.rename(conversation_id, title)
        except UserError as error:  # an empty name, or (StorageError) renamed but not saved
            self.error.show_message(str(error))
        self.conversationRenamed.emit(conversation_id)

    @Slot(str)
    def _delete(self, conversation_id: str) -> None:
        self.error.clear()
        title = self._service.get(conversation_id).title
        # Deleting cannot be undone: the one place a confirmation box is worth its interruption.
        answer = QMessageBox.question(
            self, "Delete conversation", f"Delete “{title}”? This cannot be undone."
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self._service.delete(conversation_id)
        except UserError as error:
            self.error.show_message(str(error))
            return
        self.conversationDeleted.emit(conversation_id)
