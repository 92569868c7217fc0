"""Conversations: search them, select, rename in place (F2 / double-click / menu), pin,
delete with undo, export one and import one."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from PySide6.QtCore import QPoint, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QMenu, QWidget

from app.chat import FORMATS, Conversation, Format
from ui.a11y import describe
from ui.app_style import SIDE_LIST
from ui.chat.chat_files import FORMAT_ICONS, format_names
from ui.chat.conversation_delegate import ID_ROLE, PINNED_ROLE, SNIPPET_ROLE, ConversationDelegate
from ui.i18n import tr
from ui.icons import set_icon

__all__ = ["ID_ROLE", "ConversationList"]


class ConversationList(QListWidget):
    """The list itself: emits ids; the pane owns the service calls."""

    conversationSelected = Signal(str)
    renameRequested = Signal(str, str)
    deleteRequested = Signal(str)
    pinRequested = Signal(str, bool)
    exportRequested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(SIDE_LIST)  # on the panel's surface, not in a box
        self.setEditTriggers(
            QListWidget.EditTrigger.DoubleClicked | QListWidget.EditTrigger.EditKeyPressed
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        # Rows take the view's width and elide their titles: never a horizontal scroll bar.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setItemDelegate(ConversationDelegate(self))
        describe(
            self,
            tr("Conversations"),
            tr("Your chats; F2 renames, Delete deletes, the context menu pins and exports"),
            tooltip=False,
        )
        self.customContextMenuRequested.connect(self._show_menu)
        self.currentItemChanged.connect(self._on_current_changed)
        self.itemChanged.connect(self._on_item_changed)
        self._populating = False
        self.delete_action = QAction(tr("Delete"), self)
        set_icon(self.delete_action, "delete-outline")
        self.delete_action.setShortcut(QKeySequence.StandardKey.Delete)
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self._delete_current)
        self.addAction(self.delete_action)

    def set_conversations(
        self,
        conversations: Sequence[Conversation],
        current: str,
        snippets: dict[str, str] | None = None,
    ) -> None:
        """Show ``conversations`` (with a search ``snippets`` line each, if given) and select
        the one with id ``current`` when it is among them."""
        self._populating = True
        self.blockSignals(True)
        self.clear()
        for conversation in conversations:
            item = QListWidgetItem(conversation.title)
            item.setData(ID_ROLE, conversation.id)
            item.setData(PINNED_ROLE, conversation.pinned)
            if snippets:
                item.setData(SNIPPET_ROLE, snippets.get(conversation.id, ""))
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

    def snippets(self) -> list[str]:
        """The search snippets shown, top to bottom ("" for none)."""
        return [str(self.item(row).data(SNIPPET_ROLE) or "") for row in range(self.count())]

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
        conversation_id = str(item.data(ID_ROLE))
        pinned = bool(item.data(PINNED_ROLE))
        menu = QMenu(self)
        rename = menu.addAction(tr("Rename"), partial(self.editItem, item))
        set_icon(rename, "pencil")
        pin = menu.addAction(
            tr("Unpin") if pinned else tr("Pin to top"),
            partial(self.pinRequested.emit, conversation_id, not pinned),
        )
        set_icon(pin, "pin-off" if pinned else "pin")
        export = menu.addMenu(tr("Export as"))
        names = format_names()
        for fmt in FORMATS:
            action = export.addAction(
                names[fmt], partial(self.exportRequested.emit, conversation_id, fmt)
            )
            set_icon(action, FORMAT_ICONS[fmt])
        menu.addSeparator()
        delete = menu.addAction(tr("Delete"), partial(self.deleteRequested.emit, conversation_id))
        set_icon(delete, "delete-outline")
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


def export_format(value: str) -> Format:
    """``value`` as an export format (the menus only ever send one of :data:`FORMATS`)."""
    for fmt in FORMATS:
        if fmt == value:
            return fmt
    raise ValueError(value)
