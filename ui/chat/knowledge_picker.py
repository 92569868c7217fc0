"""The "Use knowledge" switch of a conversation and the collection its answers draw on.

Listing collections may start the embedded database and setting one checks it exists, so both
run in workers; a refused choice snaps back to what the conversation really uses and says why
next to the switch. The list is loaded when first wanted (switch ticked, list opened), so the
database is not started for people who never use knowledge. When the Knowledge panel changes
the collections, a list already loaded is loaded again: a deleted collection disappears (and a
conversation that used it stops using it, saying so).
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QCheckBox, QComboBox, QWidget

from app.chat import ChatService, Conversation
from app.knowledge import Collection, KnowledgeService
from ui.a11y import describe
from ui.i18n import tr
from ui.shell.error_router import ErrorRouter
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, over_message

MAX_VISIBLE = 30  # the popup lists every collection up to this many, without scrolling


def none_to_use() -> str:
    """Said when the switch is ticked and there is no collection."""
    return tr("There are no collections yet: add documents in the Knowledge panel first.")


def choose_text() -> str:
    """The list's text before the collections are loaded."""
    return tr("Choose a collection")


class _LazyComboBox(QComboBox):
    """A combo box that says when its list is about to open (to load it first)."""

    aboutToOpen = Signal()

    def showPopup(self) -> None:
        """Ask for fresh items, then open."""
        self.aboutToOpen.emit()
        super().showPopup()

    def reopen(self) -> None:
        """Open again at the size of the items now listed (they came after it opened: a popup
        opened on one "Loading…" row keeps that height, with a scroll arrow, otherwise)."""
        self.hidePopup()
        super().showPopup()


class KnowledgePicker(QWidget):
    """Checkbox + collection list bound to one conversation at a time."""

    changed = Signal(str)  # the collection now used ("" = off)

    def __init__(
        self,
        chat: ChatService,
        knowledge: KnowledgeService,
        tasks: TaskRunner,
        errors: ErrorRouter,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.chat = chat
        self.knowledge_service = knowledge
        self.tasks = tasks
        self.errors = errors
        self.toggle = QCheckBox(tr("Use knowledge"))
        describe(
            self.toggle,
            tr("Use knowledge"),
            tr("Answer from the passages of a knowledge collection, with numbered sources"),
        )
        self.choice = _LazyComboBox()
        self.choice.setMinimumContentsLength(18)
        self.choice.setMaxVisibleItems(MAX_VISIBLE)
        describe(
            self.choice,
            tr("Knowledge collection"),
            tr("The collection answers are grounded in; choosing one turns knowledge on"),
        )
        self.error = InlineError()
        self._conversation_id = ""
        self._applied = ""  # what the conversation uses, as the service confirmed it
        self._names: list[str] | None = None  # None until loaded
        self._loading = False
        self._apply_when_loaded = False
        self._quiet = False  # True while the widgets are set from code, not by the user
        over_message(self, hbox(self.toggle, self.choice, 1, margins=0), self.error)
        self.toggle.toggled.connect(self._on_user_change)
        self.choice.currentIndexChanged.connect(self._on_user_change)
        self.choice.activated.connect(self._on_chosen)
        self.choice.aboutToOpen.connect(self.refresh)
        self._fill()

    # ----- what is shown ---------------------------------------------------------------

    def show_conversation(self, conversation: Conversation) -> None:
        """Show the choice of ``conversation`` (and bind later changes to it)."""
        self._conversation_id = conversation.id
        self._applied = conversation.knowledge
        self.error.clear()
        self._fill()

    @Slot()
    def forget_collections(self) -> None:
        """The collections changed: a list already shown is loaded again now (a deleted
        collection disappears); one never loaded waits until it is wanted."""
        if self._names is None:
            self._fill()
            return
        self._names = None
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        """Reload the collection names (after collections were added, renamed or deleted)."""
        if self._loading:
            return
        self._loading = True
        self._fill(keep_toggle=self._apply_when_loaded)
        self.tasks.start(
            self.knowledge_service.collections,
            on_done=self._on_collections,
            on_error=self._on_list_error,
        )

    @Slot(object)
    def _on_collections(self, collections: list[Collection]) -> None:
        self._loading = False
        self._names = [collection.name for collection in collections]
        self._fill(keep_toggle=self._apply_when_loaded)
        if self.choice.view().isVisible():
            self.choice.reopen()
        if self._applied and self._applied not in self._names:
            self._drop_deleted()
            return
        if self._apply_when_loaded:
            self._apply_when_loaded = False
            if self._names:
                self._on_user_change()
            else:
                self._fill()
                self.error.show_message(none_to_use())

    @Slot(object)
    def _on_list_error(self, error: BaseException) -> None:
        self._loading = False
        self._apply_when_loaded = False
        self._fill()
        self.errors.show(error, default_field="knowledge")

    def _fill(self, *, keep_toggle: bool = False) -> None:
        """Set the widgets from the names and the conversation's choice, without reacting."""
        self._quiet = True
        try:
            names = list(self._names or [])
            if self._applied and self._names is None:
                names.append(self._applied)  # not listed yet: what the conversation uses
            self.choice.clear()
            for name in names:
                self.choice.addItem(name, name)  # placeholders below carry no data
            if names:
                shown = self._applied in names
                self.choice.setCurrentIndex(names.index(self._applied) if shown else 0)
            elif self._loading:
                self.choice.addItem(tr("Loading collections…"))
            elif self._names is None:
                self.choice.addItem(choose_text())
            else:
                self.choice.addItem(tr("No collections yet — add documents in Knowledge"))
            if not keep_toggle:
                self.toggle.setChecked(bool(self._applied) and self._applied in names)
        finally:
            self._quiet = False

    def known_collections(self) -> list[str] | None:
        """The collections as last listed (None until they are: listing may start the
        database, so it waits until they are wanted)."""
        return None if self._names is None else list(self._names)

    @property
    def selected(self) -> str:
        """The collection the widgets show as in use ("" when the switch is off)."""
        if not self.toggle.isChecked():
            return ""
        name = self.choice.currentData()
        return name if isinstance(name, str) else ""

    # ----- changes by the user ---------------------------------------------------------

    @Slot(int)
    def _on_chosen(self, index: int) -> None:
        """A collection picked from the list turns knowledge on (the index change, if any,
        has already been handled; ticking the switch applies the choice)."""
        if self._quiet or self.toggle.isChecked():
            return
        if isinstance(self.choice.itemData(index), str):
            self.toggle.setChecked(True)  # toggled → _on_user_change applies it

    def _drop_deleted(self) -> None:
        """The conversation's collection was deleted: it stops using knowledge, and says so."""
        gone = self._applied
        if not self._conversation_id:
            return
        self.error.show_message(
            tr("“{name}” was deleted: this chat no longer uses knowledge.").format(name=gone)
        )
        self.tasks.start(
            self.chat.set_knowledge,
            self._conversation_id,
            "",
            on_done=self._on_applied,
            on_error=self._on_apply_error,
        )

    @Slot()
    def _on_user_change(self) -> None:
        if self._quiet or not self._conversation_id:
            return
        if self.toggle.isChecked() and not self.selected:
            self._apply_when_loaded = True  # applied once the names are known
            self.refresh()
            return
        self._apply_when_loaded = False
        wanted = self.selected
        if wanted == self._applied:
            return
        self.error.clear()
        self.tasks.start(
            self.chat.set_knowledge,
            self._conversation_id,
            wanted,
            on_done=self._on_applied,
            on_error=self._on_apply_error,
        )

    @Slot(object)
    def _on_applied(self, conversation: Conversation) -> None:
        if conversation.id != self._conversation_id:
            return  # the user switched conversations meanwhile; that one is stored
        self._applied = conversation.knowledge
        self._fill()
        self.changed.emit(self._applied)

    @Slot(object)
    def _on_apply_error(self, error: BaseException) -> None:
        self._fill()  # back to what the conversation really uses
        self.errors.show(error, default_field="knowledge")
