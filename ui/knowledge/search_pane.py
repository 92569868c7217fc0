"""Search a collection: the query box, and results with file, page, score and a snippet.

Snippets come from PostgreSQL's ``ts_headline`` with matches between « and »; they are shown
as rich text (matches bold, everything else escaped) by a delegate that lays each result out
as a small text document, so long snippets wrap instead of being cut.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, Signal, Slot
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from pipelines.rag.store import Hit
from ui.inline_error import InlineError
from ui.knowledge.formatting import hit_heading, snippet_html
from ui.theme import muted_color

PATH_ROLE = Qt.ItemDataRole.UserRole
PAGE_ROLE = Qt.ItemDataRole.UserRole + 1
HTML_ROLE = Qt.ItemDataRole.UserRole + 2
PADDING = 6

AnyIndex = QModelIndex | QPersistentModelIndex


class SnippetDelegate(QStyledItemDelegate):
    """Draws a result's rich text (``HTML_ROLE``), wrapped to the list's width."""

    def __init__(self, view: QListWidget) -> None:
        super().__init__(view)
        self._view = view

    def _document(self, index: AnyIndex, width: int, palette: QPalette) -> QTextDocument:
        muted = muted_color(palette).name()
        document = QTextDocument()
        document.setDefaultFont(self._view.font())
        document.setDocumentMargin(PADDING)
        document.setDefaultStyleSheet(f".meta {{ color: {muted}; }}")
        document.setHtml(str(index.data(HTML_ROLE) or ""))
        document.setTextWidth(max(width, 50))
        return document

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        """The item's background and selection as the style draws them, then the text."""
        item_option = QStyleOptionViewItem(option)
        self.initStyleOption(item_option, index)
        item_option.text = ""
        widget = item_option.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item_option, painter, widget)
        rect = item_option.rect
        palette = item_option.palette
        document = self._document(index, rect.width(), palette)
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(item_option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, palette.color(role))
        painter.save()
        painter.translate(rect.topLeft())
        painter.setClipRect(rect.translated(-rect.topLeft()))
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        """As tall as the wrapped text at the list's current width."""
        width = self._view.viewport().width()
        document = self._document(index, width, self._view.palette())
        return QSize(width, math.ceil(document.size().height()))


class SearchPane(QWidget):
    """Query box, result count, and the results; activating a result asks to open it."""

    searchRequested = Signal(str, int)  # query, how many results
    openRequested = Signal(str, object)  # path, page (int | None)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.query = QLineEdit()
        self.query.setPlaceholderText("Search this collection by meaning or words…")
        self.query.setClearButtonEnabled(True)
        self.count = QSpinBox()
        self.count.setRange(1, 50)
        self.count.setValue(10)
        self.count.setPrefix("top ")
        self.count.setToolTip("How many passages to show")
        self.search_button = QPushButton("Search")
        self.error = InlineError()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.results = QListWidget()
        self.results.setObjectName("searchResults")
        self.results.setItemDelegate(SnippetDelegate(self.results))
        self.results.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.results.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.results.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.results.setSpacing(1)
        self.results.setToolTip("Double-click or press Enter to open the document")
        row = QHBoxLayout()
        row.addWidget(self.query, 1)
        row.addWidget(self.count)
        row.addWidget(self.search_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>Search</b>"))
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.info)
        layout.addWidget(self.results, 1)
        self.query.returnPressed.connect(self.request)
        self.search_button.clicked.connect(self.request)
        self.results.itemActivated.connect(self._on_activated)
        self.set_info("")

    @Slot()
    def request(self) -> None:
        """Ask for a search with what is typed (the panel checks it and runs it)."""
        if self.search_button.isEnabled():
            self.error.clear()
            self.searchRequested.emit(self.query.text(), self.count.value())

    def set_searching(self, searching: bool) -> None:
        """While a search runs the button waits; the query stays editable and is kept."""
        self.search_button.setEnabled(not searching)
        self.search_button.setText("Searching…" if searching else "Search")

    def set_info(self, text: str) -> None:
        """A muted line above the results ("5 passages", "Nothing found")."""
        palette = self.info.palette()
        palette.setColor(self.info.foregroundRole(), muted_color(self.palette()))
        self.info.setPalette(palette)
        self.info.setText(text)
        self.info.setVisible(bool(text))

    def show_results(self, hits: Sequence[Hit], collection: str) -> None:
        """Replace the results with ``hits`` from ``collection``."""
        self.results.clear()
        for hit in hits:
            heading = hit_heading(hit.path, hit.page, hit.score)
            name, _, meta = heading.partition(" · ")
            snippet = _with_ellipses(hit.snippet, hit.text) if hit.snippet else hit.text
            item = QListWidgetItem(f"{heading}\n{' '.join(snippet.split())}")
            item.setData(PATH_ROLE, hit.path)
            item.setData(PAGE_ROLE, hit.page)
            item.setData(
                HTML_ROLE,
                f"<b>{_escape(name)}</b> <span class='meta'>· {_escape(meta)}</span>"
                f"<br>{snippet_html(snippet)}",
            )
            item.setToolTip(hit.path)
            self.results.addItem(item)
        if hits:
            self.set_info(f"{len(hits)} passages from “{collection}” — best first")
        else:
            self.set_info(f"Nothing in “{collection}” matches this search.")

    def clear_results(self) -> None:
        """No results (another collection was chosen)."""
        self.results.clear()
        self.set_info("")

    def result_html(self, row: int) -> str:
        """The rich text drawn for one result."""
        return str(self.results.item(row).data(HTML_ROLE))

    @Slot(QListWidgetItem)
    def _on_activated(self, item: QListWidgetItem) -> None:
        page = item.data(PAGE_ROLE)
        self.openRequested.emit(str(item.data(PATH_ROLE)), int(page) if page else None)


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def _with_ellipses(snippet: str, text: str) -> str:
    """Mark where the snippet cuts the passage, so a cut sentence does not look complete."""
    plain = " ".join(snippet.replace("«", "").replace("»", "").split())
    whole = " ".join(text.split())
    if plain and not whole.startswith(plain):
        snippet = "…" + snippet
    if plain and not whole.endswith(plain):
        snippet += "…"
    return snippet
