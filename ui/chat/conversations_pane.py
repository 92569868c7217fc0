"""The conversations column: search, "New chat", the list, Undo after a delete, import/export.

Search runs on a worker (``ui.tasks``) after a short pause in typing, over a snapshot taken on
the GUI thread, so hundreds of long chats never hold up the window; a newer query cancels the
older one. A delete moves the chat's file to the trash at once and offers Undo; the file is
deleted for good when Undo expires or the window closes (:meth:`commit_pending_delete`), and a
chat whose process died meanwhile is back on the next start (``ConversationStore.load_all``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.chat import (
    FORMATS,
    ChatService,
    Conversation,
    SearchMatch,
    default_file_name,
    read_import,
    search_conversations,
    snapshot,
    write_export,
)
from app.core import UserError
from pipelines.core import Cancelled
from ui.a11y import announce, describe
from ui.chat import chat_files
from ui.chat.chat_files import FORMAT_ICONS, format_names
from ui.chat.conversation_list import ConversationList, export_format
from ui.chat.undo_bar import UndoBar
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import Policy, TaskState
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.menu_button import hide_menu_arrow, menu_button

SEARCH_DELAY_MS = 200
"""Pause in typing before a search starts (one search per word, not per key)."""


class ConversationsPane(QWidget):
    """Search, "New chat", the conversation list, and which conversation is current.

    Emits ``currentChanged`` when the user selects another conversation or the current one is
    deleted; :meth:`refresh` (after an answer) re-reads titles without emitting.
    """

    currentChanged = Signal(str)
    searchFinished = Signal()

    def __init__(
        self,
        service: ChatService,
        default_prompt: Callable[[], str],
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._default_prompt = default_prompt
        self._tasks = tasks
        self._current_id = ""
        self._trashed: Conversation | None = None
        self.search = QLineEdit()
        self.search.setPlaceholderText(tr("Search chats"))
        self.search.setClearButtonEnabled(True)
        self.search.addAction(
            _icon_action(self.search, "magnify"), QLineEdit.ActionPosition.LeadingPosition
        )
        describe(
            self.search, tr("Search chats"), tr("Find chats by title or message text; Esc clears")
        )
        for part in self.search.findChildren(QToolButton):  # the line edit's own buttons
            if part.defaultAction() is not None and part.defaultAction().objectName().endswith(
                "clearaction"
            ):
                describe(part, tr("Clear search"), tr("Show all chats again (Esc)"))
            else:
                describe(part, tr("Search"), tr("Find chats by title or message text"))
        clear = QAction(self.search)
        clear.setShortcut(Qt.Key.Key_Escape)
        clear.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        clear.triggered.connect(self.search.clear)
        self.search.addAction(clear)
        self.new_button = QPushButton(tr("New chat"))
        set_icon(self.new_button, "plus")
        describe(self.new_button, tr("New chat"), tr("Start a new conversation (Ctrl+N)"))
        self.more_button, self.more_menu = menu_button("", "", self._fill_more_menu)
        set_icon(self.more_button, "dots-vertical")
        self.more_button.setAutoRaise(True)
        hide_menu_arrow(self.more_button)
        describe(self.more_button, tr("Chat files"), tr("Export this chat or import one"))
        self.list = ConversationList()
        self.no_match = QLabel()
        self.no_match.setWordWrap(True)
        self.no_match.hide()
        self.undo = UndoBar()
        self.error = InlineError()
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.new_button, 1)
        buttons.addWidget(self.more_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(self.search)
        layout.addWidget(self.no_match)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.undo)
        layout.addWidget(self.error)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._start_search)
        self.search.textChanged.connect(self._on_query_changed)
        self.new_button.clicked.connect(self.new_conversation)
        self.list.conversationSelected.connect(self._on_selected)
        self.list.renameRequested.connect(self._rename)
        self.list.deleteRequested.connect(self._delete)
        self.list.pinRequested.connect(self._pin)
        self.list.exportRequested.connect(self._on_export_requested)
        self.undo.undoRequested.connect(self._undo_delete)
        self.undo.expired.connect(self.commit_pending_delete)
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
        if self.search.text().strip():
            self._start_search()  # the filtered list follows when the search returns
        else:
            self.no_match.hide()
            self.list.set_conversations(conversations, self._current_id)

    @Slot()
    def new_conversation(self) -> None:
        """Start an empty conversation; an empty one that exists already is selected instead."""
        self.search.clear()
        empty = self._service.empty_conversation()
        if empty is not None and empty.id == self._current_id:
            return
        self._current_id = (
            empty.id if empty else self._service.new_conversation(self._default_prompt()).id
        )
        self.refresh()
        self.currentChanged.emit(self._current_id)

    # ----- search ----------------------------------------------------------------------

    @Slot(str)
    def _on_query_changed(self, _: str) -> None:
        self._search_timer.start()

    @Slot()
    def _start_search(self) -> None:
        self._search_timer.stop()
        query = self.search.text()
        if not query.strip():
            self._tasks.cancel("chat-search")
            self.refresh()
            self.searchFinished.emit()
            return
        state = TaskState()
        entries = snapshot(self._service.conversations())  # on this thread: a consistent view
        self._tasks.start(
            search_conversations,
            entries,
            query,
            state.cancel,
            state=state,
            kind="chat-search",
            policy=Policy.CANCEL_OLD,
            on_done=self._on_search_done,
            on_error=self._on_search_error,
        )

    @Slot(object)
    def _on_search_done(self, matches: list[SearchMatch]) -> None:
        if not self.search.text().strip():
            return  # cleared while it ran
        by_id = {c.id: c for c in self._service.conversations()}
        found = [by_id[m.conversation_id] for m in matches if m.conversation_id in by_id]
        snippets = {m.conversation_id: m.snippet for m in matches}
        self.list.set_conversations(found, self._current_id, snippets)
        self.no_match.setText(
            tr("No chat contains “{query}”.").format(query=self.search.text().strip()[:60])
        )
        self.no_match.setVisible(not found)
        announce(self, tr("%n chat(s) found", "", len(found)))
        self.searchFinished.emit()

    @Slot(object)
    def _on_search_error(self, error: BaseException) -> None:
        if not isinstance(error, Cancelled):
            self.error.show_message(tr("The search failed: {error}").format(error=error))

    # ----- rename, pin, delete ---------------------------------------------------------

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
        except UserError as error:  # empty, too long, or (StorageError) renamed but not saved
            self.error.show_message(str(error))
        # Updated in place: rebuilding the list would delete the row the editor is closing on.
        self.list.set_title(conversation_id, self._service.get(conversation_id).title)

    @Slot(str, bool)
    def _pin(self, conversation_id: str, pinned: bool) -> None:
        self.error.clear()
        try:
            self._service.set_pinned(conversation_id, pinned)
        except UserError as error:
            self.error.show_message(str(error))
        self.refresh()

    @Slot(str)
    def _delete(self, conversation_id: str) -> None:
        """Take the chat out of the list at once (its file to the trash) and offer Undo."""
        self.error.clear()
        self.commit_pending_delete()  # one Undo at a time: the previous delete becomes final
        try:
            self._trashed = self._service.trash(conversation_id)
        except UserError as error:
            self.error.show_message(str(error))
            return
        self.undo.offer(self._trashed.title)
        was_current = conversation_id == self._current_id
        self.refresh(select_first=was_current)
        if was_current:
            self.currentChanged.emit(self._current_id)

    @Slot()
    def _undo_delete(self) -> None:
        conversation, self._trashed = self._trashed, None
        if conversation is None:
            return
        empty = self._service.empty_conversation()
        try:
            self._service.restore(conversation)
        except UserError as error:
            self.error.show_message(str(error))
            return
        if not conversation.messages and empty is not None:
            self._service.delete(empty.id)  # still at most one empty chat
        self._current_id = conversation.id
        self.refresh()
        self.currentChanged.emit(conversation.id)

    def shut_down(self) -> None:
        """The window is closing: end a pending search and make a pending delete final."""
        self._search_timer.stop()
        self._tasks.cancel("chat-search")
        self.commit_pending_delete()

    @Slot()
    def commit_pending_delete(self) -> None:
        """Delete the chat waiting for Undo for good (Undo expired, another delete, closing)."""
        conversation, self._trashed = self._trashed, None
        self.undo.dismiss()
        if conversation is not None:
            try:
                self._service.purge(conversation.id)
            except UserError as error:
                self.error.show_message(str(error))

    # ----- export, import --------------------------------------------------------------

    def _fill_more_menu(self) -> None:
        self.more_menu.clear()
        names = format_names()
        export = self.more_menu.addMenu(tr("Export this chat as"))
        for fmt in FORMATS:
            action = export.addAction(names[fmt])
            set_icon(action, FORMAT_ICONS[fmt])
            action.triggered.connect(lambda _=False, f=fmt: self.export(self._current_id, f))
        imported = self.more_menu.addAction(tr("Import chat…"), self.import_chat)
        set_icon(imported, "import")

    @Slot(str, str)
    def _on_export_requested(self, conversation_id: str, fmt: str) -> None:
        self.export(conversation_id, fmt)

    def export(self, conversation_id: str, fmt: str) -> Path | None:
        """Ask where, then write the chat as ``fmt`` (md, html, json); the path written."""
        self.error.clear()
        kind = export_format(fmt)
        try:
            conversation = self._service.get(conversation_id)
        except UserError as error:
            self.error.show_message(str(error))
            return None
        path = chat_files.ask_export_path(self, kind, default_file_name(conversation, kind))
        if path is None:
            return None
        try:
            write_export(conversation, kind, path)
        except UserError as error:
            self.error.show_message(str(error))
            return None
        announce(self, tr("Exported to {name}").format(name=path.name))
        return path

    @Slot()
    def import_chat(self) -> None:
        """Ask for a JSON export and add it as a new chat (shown at once)."""
        self.error.clear()
        path = chat_files.ask_import_path(self)
        if path is None:
            return
        try:
            conversation = self._service.add_imported(read_import(path))
        except UserError as error:
            self.error.show_message(str(error))
            return
        self.search.clear()
        self._current_id = conversation.id
        self.refresh()
        self.currentChanged.emit(conversation.id)
        announce(self, tr("Imported “{title}”").format(title=conversation.title))


def _icon_action(parent: QLineEdit, name: str) -> QAction:
    action = QAction(parent)
    set_icon(action, name)
    return action
