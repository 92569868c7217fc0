"""The documents of one collection: name, pages, chunks, file status and when it was added."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, Qt, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from app.knowledge import DocumentRow
from ui.a11y import describe
from ui.i18n import tr
from ui.theme import error_color, warning_color

PATH_ROLE = Qt.ItemDataRole.UserRole
NAME_MIN_WIDTH = 160
COLUMNS = ("Name", "Pages", "Chunks", "Status", "Added")
"""The columns (English, for code; the headers are translated where the table is built)."""


def _status_text(status: str) -> str:
    texts = {"indexed": tr("Indexed"), "changed": tr("Changed"), "missing": tr("Missing")}
    return texts.get(status, status)


def _status_tip(status: str) -> str:
    tips = {
        "indexed": tr("The file is as it was when it was indexed."),
        "changed": tr("The file changed since it was indexed: Re-index reads it again."),
        "missing": tr("The file is no longer there: Re-index removes it from the collection."),
    }
    return tips.get(status, "")


class _SortItem(QTableWidgetItem):
    """A cell that sorts by a key (numbers as numbers, "—" for no pages first)."""

    def __init__(self, text: str, key: object) -> None:
        super().__init__(text)
        self.key = key

    def __lt__(self, other: QTableWidgetItem) -> bool:
        if isinstance(other, _SortItem) and type(self.key) is type(other.key):
            return bool(self.key < other.key)  # type: ignore[operator]
        return super().__lt__(other)


class DocumentsTable(QTableWidget):
    """Read-only table; Enter or double-click opens a document, Delete asks to remove."""

    openRequested = Signal(str)  # path
    removeRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, len(COLUMNS), parent)
        self.setHorizontalHeaderLabels(
            [tr("Name"), tr("Pages"), tr("Chunks"), tr("Status"), tr("Added")]
        )
        describe(
            self,
            tr("Documents"),
            tr("The documents of the collection; Enter opens one, Delete removes it"),
        )
        describe(self.horizontalHeader(), tr("Document columns"), tr("Click a column to sort"))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        header = self.horizontalHeader()
        # The name takes what the other columns leave, but never less than NAME_MIN_WIDTH: in a
        # narrow pane a stretched name shrank to "in…ml"; now the table scrolls sideways.
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSortIndicatorShown(True)
        self.setSortingEnabled(True)
        self.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.remove_action = QAction(tr("Remove…"), self)
        self.remove_action.setShortcut(QKeySequence.StandardKey.Delete)
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.remove_action.triggered.connect(self.removeRequested)
        self.addAction(self.remove_action)
        self.itemActivated.connect(self._on_activated)

    def set_documents(self, rows: Sequence[DocumentRow]) -> None:
        """Show ``rows``, keeping the user's sort order, selection and scroll position (the
        rows are listed again each time an ingest stores a file)."""
        selected = set(self.selected_paths())
        scrolled = self.verticalScrollBar().value()
        self.setSortingEnabled(False)  # else rows re-sort while their cells are being set
        self.clearContents()
        self.setRowCount(len(rows))
        palette = self.palette()
        colors = {"changed": warning_color(palette), "missing": error_color(palette)}
        for row, document in enumerate(rows):
            pages = "—" if document.pages is None else str(document.pages)
            cells = [
                _SortItem(document.name, document.name.lower()),
                _SortItem(pages, document.pages or 0),
                _SortItem(str(document.chunks), document.chunks),
                _SortItem(_status_text(document.status), document.status),
                _SortItem(document.added_at, document.added_at),
            ]
            cells[0].setToolTip(document.path)
            cells[3].setToolTip(_status_tip(document.status))
            if document.status in colors:
                cells[3].setForeground(colors[document.status])
            for column in (1, 2):
                cells[column].setTextAlignment(
                    Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                )
            for column, cell in enumerate(cells):
                cell.setData(PATH_ROLE, document.path)
                self.setItem(row, column, cell)
        self.setSortingEnabled(True)
        self._fit_name()  # the other columns fit their new contents
        self._reselect(selected)
        self.verticalScrollBar().setValue(scrolled)

    def _reselect(self, paths: set[str]) -> None:
        if not paths:
            return
        selection = self.selectionModel()
        flags = selection.SelectionFlag.Select | selection.SelectionFlag.Rows
        for row in range(self.rowCount()):
            if self._text(row, 0, PATH_ROLE) in paths:
                selection.select(self.model().index(row, 0), flags)

    def selected_paths(self) -> list[str]:
        """Paths of the selected rows, top to bottom as shown."""
        rows = sorted({index.row() for index in self.selectedIndexes()})
        return [self._text(row, 0, PATH_ROLE) for row in rows]

    def rows_shown(self) -> list[tuple[str, ...]]:
        """Every row as the user reads it, top to bottom."""
        return [
            tuple(self._text(row, column) for column in range(len(COLUMNS)))
            for row in range(self.rowCount())
        ]

    def _text(
        self, row: int, column: int, role: Qt.ItemDataRole = Qt.ItemDataRole.DisplayRole
    ) -> str:
        item = self.item(row, column)
        return "" if item is None else str(item.data(role))

    def event(self, event: QEvent) -> bool:
        """Fit the name column to the width (event(): see ui.chat.input_box.ChatInput)."""
        handled = super().event(event)
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest, QEvent.Type.Show):
            self._fit_name()
        return handled

    def _fit_name(self) -> None:
        header = self.horizontalHeader()
        others = sum(header.sectionSize(column) for column in range(1, len(COLUMNS)))
        width = max(NAME_MIN_WIDTH, self.viewport().width() - others)
        if header.sectionSize(0) != width:
            header.resizeSection(0, width)

    @Slot(QTableWidgetItem)
    def _on_activated(self, item: QTableWidgetItem) -> None:
        self.openRequested.emit(str(item.data(PATH_ROLE)))
