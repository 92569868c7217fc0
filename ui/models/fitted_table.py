"""The model manager's tables: columns that share the width so that no text is lost.

One column holds sentences (the Installed view's State, the catalog's About): it takes the
width the others leave — at least :data:`WRAPPED_SHARE` of the table — and wraps its text onto
more lines, the rows growing to fit. The others are as wide as their contents when there is
room; when there is not, the widest give up width first (down to their titles' width), so their
text wraps at spaces or, a name without spaces, is cut in its middle with "…" (every cell's
tooltip holds its whole text). The columns are fitted again whenever the table is resized.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.models.tables import column_title

CELL_PADDING = 12
"""Room between one column's text and the next (px)."""
WIDEST_COLUMN = 260
"""No column but the wrapped one grows wider than this (px), even with room to spare."""
WRAPPED_SHARE = 0.25
"""The least share of the table's width the wrapped column keeps."""
WRAPPED_LEAST = 180
"""…and never less than this (px), so its sentences stay readable."""


def fit_columns(table: QTableWidget) -> None:
    """Share the table's width between its columns (see the module's notes); call it after
    the rows changed (a resize calls it by itself)."""
    header = table.horizontalHeader()
    others = [
        column
        for column in range(table.columnCount())
        if header.sectionResizeMode(column) is not QHeaderView.ResizeMode.Stretch
    ]
    titles = {column: header.sectionSizeHint(column) for column in others}
    wanted = {
        column: min(
            max(table.sizeHintForColumn(column) + CELL_PADDING, titles[column]), WIDEST_COLUMN
        )
        for column in others
    }
    room = table.viewport().width()
    room -= max(int(room * WRAPPED_SHARE), WRAPPED_LEAST)
    cap = _widest_that_fits(wanted, titles, room)
    for column in others:
        header.resizeSection(column, max(titles[column], min(wanted[column], cap)))
    table.resizeRowsToContents()  # wrapped text takes the lines its new width needs


def _widest_that_fits(wanted: dict[int, int], titles: dict[int, int], room: int) -> int:
    """The largest width ``cap`` such that the columns, each ``min(wanted, cap)`` but never
    narrower than its title, fit ``room``: the widest columns give up width first, short
    ones ("Chat", "93.8 MB") stay whole."""

    def total(cap: int) -> int:
        return sum(max(titles[c], min(wanted[c], cap)) for c in wanted)

    low, high = 0, WIDEST_COLUMN
    while low < high:
        middle = (low + high + 1) // 2
        if total(middle) <= room:
            low = middle
        else:
            high = middle - 1
    return low


class _Refit(QObject):
    """Fits the columns of its parent table again when the table's viewport changes size."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        table = self.parent()
        if event.type() == QEvent.Type.Resize and isinstance(table, QTableWidget):
            fit_columns(table)
        return False


def model_table(columns: tuple[str, ...], wrapped: str) -> QTableWidget:
    """A read-only table of whole-row, single selection whose ``wrapped`` column takes the
    width the others leave and wraps its text (see the module's notes)."""
    table = QTableWidget(0, len(columns))
    table.setHorizontalHeaderLabels([column_title(column) for column in columns])
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # fit_columns sizes them
    header.setSectionResizeMode(columns.index(wrapped), QHeaderView.ResizeMode.Stretch)
    header.setStretchLastSection(False)
    table.setWordWrap(True)
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.viewport().installEventFilter(_Refit(table))
    describe(table.horizontalHeader(), tr("Column headers"), tr("What each column shows"))
    describe(table.verticalHeader(), tr("Row headers"), tr("One row per model"))
    describe(table.horizontalScrollBar(), tr("Scroll sideways"), tr("Shows the other columns"))
    describe(table.verticalScrollBar(), tr("Scroll"), tr("Shows the other rows"))
    return table
