"""Conversations: a list to select, rename in place (F2 / double-click / menu) and delete."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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

from app.errors import UserError
from app.services.chat import ChatService
from app.storage.conversations import Conversation
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
        self.setObjectName("conversationList")
        self.setStyleSheet("#conversationList::item { padding: 4px 6px; }")
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

    def titles(self) -> list[str]:
        """The titles shown, top to bottom."""
        return [self.item(row).text() for row in range(self.count())]

    def set_title(self, conversation_id: str, title: str) -> None:
        """Show a conversation's (normalised or restored) title without a rename signal."""
        for row in range(self.count()):
            item = self.item(row)
            if item.data(ID_ROLE) == conversation_id:
                self.blockSignals(True)
                item.setText(title)
                item.setToolTip(title)
                self.blockSignals(False)

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
    """ "New chat", the conversation list, and which conversation is current.

    Emits ``currentChanged`` when the user selects another conversation or the current one is
    deleted; :meth:`refresh` (after an answer) re-reads titles without emitting.
    """

    currentChanged = Signal(str)

    def __init__(
        self, service: ChatService, default_prompt: Callable[[], str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._default_prompt = default_prompt
        self._current_id = ""
        self.new_button = QPushButton("New chat")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.list = ConversationList()
        self.error = InlineError()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.new_button)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.error)
        self.new_button.clicked.connect(self.new_conversation)
        self.list.conversationSelected.connect(self._on_selected)
        self.list.renameRequested.connect(self._rename)
        self.list.deleteRequested.connect(self._delete)
        self.refresh(select_first=True)

    @property
    def current_id(self) -> str:
        """Id of the conversation on screen (there is always one)."""
        return self._current_id

    def refresh(self, *, select_first: bool = False) -> None:
        """Re-read the conversations; make sure one (possibly new and empty) is current."""
        conversations = self._service.conversations()
        if select_first and conversations:
            self._current_id = conversations[0].id
        if self._current_id not in {c.id for c in conversations}:
            self._current_id = self._service.new_conversation(self._default_prompt()).id
            conversations = self._service.conversations()
        self.list.set_conversations(conversations, self._current_id)

    @Slot()
    def new_conversation(self) -> None:
        """Start an empty conversation (the current one is reused while it is still empty)."""
        if self._service.get(self._current_id).messages:
            self._current_id = self._service.new_conversation(self._default_prompt()).id
            self.refresh()
            self.currentChanged.emit(self._current_id)

    @Slot(str)
    def _on_selected(self, conversation_id: str) -> None:
        if conversation_id and conversation_id != self._current_id:
            self._current_id = conversation_id
            self.error.clear()
            self.currentChanged.emit(conversation_id)

    @Slot(str, str)
    def _rename(self, conversation_id: str, title: str) -> None:
        self.error.clear()
        try:
            self._service.rename(conversation_id, title)
        except UserError as error:  # an empty name, or (StorageError) renamed but not saved
            self.error.show_message(str(error))
        # Updated in place: rebuilding the list would delete the row the editor is closing on.
        self.list.set_title(conversation_id, self._service.get(conversation_id).title)

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
        was_current = conversation_id == self._current_id
        self.refresh(select_first=was_current)
        if was_current:
            self.currentChanged.emit(self._current_id)
