"""Collections: a list with document and chunk counts; create, rename in place, delete.

The pane only shows and asks: the panel runs each request in a worker and calls back with
:meth:`CollectionsPane.set_collections` or an error for :attr:`CollectionsPane.error`.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.knowledge import Collection
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.knowledge.formatting import plural
from ui.widgets.inline_error import InlineError
from ui.widgets.list_tree import make_list_tree, rename_action, tree_items, wanted_rename

NAME_ROLE = Qt.ItemDataRole.UserRole


class CollectionsPane(QWidget):
    """The collection list and its New / Rename / Delete controls."""

    selected = Signal(str)  # the current collection's name ("" when none)
    createRequested = Signal(str)
    renameRequested = Signal(str, str)  # current name, wanted name
    deleteRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._collections: dict[str, Collection] = {}
        self._filling = False
        self._busy = False
        self._writing = False
        title = QLabel("<b>" + tr("Collections") + "</b>")
        self.tree = make_list_tree(
            "collectionTree", [tr("Name"), tr("Docs"), tr("Chunks")], right=(1, 2)
        )
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(tr("New collection name"))
        self.name_edit.setClearButtonEnabled(True)
        self.new_button = QPushButton(tr("New"))
        self.new_button.setToolTip(tr("Create an empty collection with this name (Enter)"))
        self.rename_button = QPushButton(tr("Rename"))
        self.rename_button.setToolTip(tr("Rename the selected collection (F2, or double-click it)"))
        self.delete_button = QPushButton(tr("Delete…"))
        self.delete_button.setToolTip(
            tr("Delete the selected collection from the knowledge base (your files stay)")
        )
        self.error = InlineError()
        self.rename_action = rename_action(self.tree, self)
        self._describe()
        self._layout(title)
        self.name_edit.returnPressed.connect(self._create)
        self.name_edit.textChanged.connect(self._update_buttons)
        self.new_button.clicked.connect(self._create)
        self.rename_button.clicked.connect(self.start_rename)
        self.rename_action.triggered.connect(self.start_rename)
        self.delete_button.clicked.connect(self._delete)
        self.tree.itemDoubleClicked.connect(self._on_double_clicked)
        self.tree.itemChanged.connect(self._on_item_changed)
        self.tree.currentItemChanged.connect(self._on_current_changed)
        self._update_buttons()

    def _describe(self) -> None:
        describe(
            self.tree,
            tr("Collections"),
            tr("Your collections with their documents and chunks; F2 renames one"),
        )
        describe(self.tree.header(), tr("Collection columns"), tr("Click a column to sort"))
        describe(
            self.name_edit,
            tr("New collection name"),
            tr("Type a name, then press Enter or click New"),
        )
        set_icon(self.new_button, "plus")
        set_icon(self.rename_button, "pencil")
        set_icon(self.delete_button, "delete-outline")

    def _layout(self, title: QLabel) -> None:
        create_row = QHBoxLayout()
        create_row.addWidget(self.name_edit, 1)
        create_row.addWidget(self.new_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.rename_button)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.tree, 1)
        layout.addLayout(buttons)
        layout.addLayout(create_row)
        layout.addWidget(self.error)

    # ----- what is shown ---------------------------------------------------------------

    def set_collections(self, collections: Sequence[Collection], current: str = "") -> None:
        """Show ``collections`` and select ``current`` (else the one selected, else the first).

        Emits nothing: the caller reads :meth:`current_name` and shows its documents.
        """
        wanted = current or self.current_name()
        self._filling = True
        self.tree.blockSignals(True)
        try:
            self.tree.clear()
            self._collections = {c.name: c for c in collections}
            chosen: QTreeWidgetItem | None = None
            for collection in collections:
                item = QTreeWidgetItem(
                    [collection.name, str(collection.documents), str(collection.chunks)]
                )
                item.setData(0, NAME_ROLE, collection.name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
                item.setToolTip(0, _tooltip(collection))
                for column in (1, 2):
                    item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
                self.tree.addTopLevelItem(item)
                if chosen is None or collection.name == wanted:
                    chosen = item
            if chosen is not None:
                self.tree.setCurrentItem(chosen)
        finally:
            self.tree.blockSignals(False)
            self._filling = False
        self._update_buttons()

    def editing(self) -> bool:
        """Whether a collection's name is being edited in place."""
        return self.tree.state() == QAbstractItemView.State.EditingState

    def current_name(self) -> str:
        """The selected collection's name ("" when none)."""
        item = self.tree.currentItem()
        return str(item.data(0, NAME_ROLE)) if item is not None else ""

    def current(self) -> Collection | None:
        """The selected collection with its counts, as last listed."""
        return self._collections.get(self.current_name())

    def items(self) -> list[QTreeWidgetItem]:
        """The rows, top to bottom."""
        return tree_items(self.tree)

    def names(self) -> list[str]:
        """The collection names shown, top to bottom."""
        return [item.text(0) for item in self.items()]

    def row_texts(self) -> list[tuple[str, str, str]]:
        """Every row as the user reads it: (name, documents, chunks)."""
        return [(item.text(0), item.text(1), item.text(2)) for item in self.items()]

    def created(self) -> None:
        """The typed name became a collection: empty the box for the next one."""
        self.name_edit.clear()

    def set_busy(self, busy: bool, *, writing: bool = False) -> None:
        """Disable what would conflict with a running job.

        Args:
            busy: A create/rename/delete is running (every control waits for it).
            writing: An ingest or re-index is running (rename and delete wait for it).
        """
        self._busy = busy
        self._writing = writing
        self._update_buttons()

    # ----- requests --------------------------------------------------------------------

    @Slot()
    def start_rename(self) -> None:
        """Open the name of the selected collection for editing."""
        item = self.tree.currentItem()
        if item is not None and self.rename_button.isEnabled():
            self.tree.editItem(item, 0)

    @Slot(QTreeWidgetItem, int)
    def _on_double_clicked(self, item: QTreeWidgetItem, _: int) -> None:
        if self.rename_button.isEnabled():
            self.tree.editItem(item, 0)

    @Slot(QTreeWidgetItem, int)
    def _on_item_changed(self, item: QTreeWidgetItem, column: int) -> None:
        if self._filling or column != 0:
            return
        old = str(item.data(0, NAME_ROLE))
        wanted = wanted_rename(old, item.text(0))
        if wanted is None:
            self._restore(item, old)  # nothing to do; undo stray white space
            return
        self.error.clear()
        self.renameRequested.emit(old, wanted)

    def _restore(self, item: QTreeWidgetItem, name: str) -> None:
        self._filling = True
        try:
            item.setText(0, name)
        finally:
            self._filling = False

    @Slot()
    def _create(self) -> None:
        if not self.new_button.isEnabled():
            return
        self.error.clear()
        self.createRequested.emit(self.name_edit.text())

    @Slot()
    def _delete(self) -> None:
        name = self.current_name()
        if name:
            self.error.clear()
            self.deleteRequested.emit(name)

    @Slot(QTreeWidgetItem, QTreeWidgetItem)
    def _on_current_changed(self, _: QTreeWidgetItem | None, __: QTreeWidgetItem | None) -> None:
        self._update_buttons()
        if not self._filling:
            self.selected.emit(self.current_name())

    @Slot()
    def _update_buttons(self) -> None:
        busy, writing = self._busy, self._writing
        has_current = self.tree.currentItem() is not None
        self.tree.setEnabled(not busy)
        self.new_button.setEnabled(not busy and bool(self.name_edit.text().strip()))
        self.rename_button.setEnabled(not busy and not writing and has_current)
        self.rename_action.setEnabled(self.rename_button.isEnabled())
        self.delete_button.setEnabled(not busy and not writing and has_current)


def _tooltip(collection: Collection) -> str:
    return (
        f"{collection.name}\n{plural(collection.documents, 'document')}, "
        f"{plural(collection.chunks, 'chunk')}\n"
        + tr("Embedded with {model} ({dim}-d)").format(
            model=collection.embedding_model, dim=collection.dim
        )
    )
