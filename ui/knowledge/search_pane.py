"""Search a collection: the query box, and results with file, page, score and a snippet.

Snippets come from PostgreSQL's ``ts_headline`` with matches between « and »; they are shown
as rich text (matches bold, everything else escaped) by a delegate that lays each result out
as a small text document, so long snippets wrap instead of being cut.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal, Slot
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.knowledge import Hit
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.knowledge.formatting import hit_heading, relevance_tip, snippet_html
from ui.theme import css_color, muted_color
from ui.widgets.inline_error import InlineError

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
        muted = css_color(muted_color(palette))
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
        # The width the item is painted at: the list's spacing is taken off both sides (with
        # the whole viewport's width a snippet wrapped one line shorter than it was painted).
        width = self._view.viewport().width() - 2 * self._view.spacing()
        document = self._document(index, width, self._view.palette())
        return QSize(width, math.ceil(document.size().height()))


QUERY_CHARS = 28
"""The query box is at least this many average characters wide."""


class SearchPane(QWidget):
    """Query box, result count, and the results; activating a result asks to open it."""

    searchRequested = Signal(str, int)  # query, how many results
    openRequested = Signal(str, object)  # path, page (int | None)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.query = QLineEdit()
        self.query.setPlaceholderText(tr("Search this collection by meaning or words…"))
        self.query.setClearButtonEnabled(True)
        self.count = QSpinBox()
        self.count.setRange(1, 50)
        self.count.setValue(10)
        self.count.setPrefix(tr("top "))
        self.count.setToolTip(tr("How many passages to show"))
        self.search_button = QPushButton(tr("Search"))
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
        self.results.setToolTip(tr("Double-click or press Enter to open the document"))
        self._describe()
        # The query has the pane's whole width (at 1024 pixels a row shared with the count and
        # the button left it ~13 characters); a question of a few words stays readable.
        self.query.setMinimumWidth(self.query.fontMetrics().averageCharWidth() * QUERY_CHARS)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.count)
        row.addWidget(self.search_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel("<b>" + tr("Search") + "</b>"))
        layout.addWidget(self.query)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(self.info)
        layout.addWidget(self.results, 1)
        self.query.returnPressed.connect(self.request)
        self.search_button.clicked.connect(self.request)
        self.results.itemActivated.connect(self._on_activated)
        self.set_info("")

    def _describe(self) -> None:
        describe(self.query, tr("Search query"), tr("Search this collection by meaning or words"))
        # The spin box's own line edit takes the focus: it is read out, so it is named too.
        for part in (self.count, *self.count.findChildren(QLineEdit)):
            describe(part, tr("Number of results"), tr("How many passages to show"))
        describe(
            self.search_button, tr("Search"), tr("Find the passages that best match the query")
        )
        describe(
            self.results,
            tr("Search results"),
            tr("Best first; double-click or press Enter to open the document"),
        )
        set_icon(self.search_button, "magnify")
        for button in self.query.findChildren(QToolButton):  # the line edit's clear button
            describe(button, tr("Clear"), tr("Clear the search query"))

    @Slot()
    def request(self) -> None:
        """Ask for a search with what is typed (the panel checks it and runs it)."""
        if self.search_button.isEnabled():
            self.error.clear()
            self.searchRequested.emit(self.query.text(), self.count.value())

    def set_searching(self, searching: bool) -> None:
        """While a search runs the button waits; the query stays editable and is kept."""
        self.search_button.setEnabled(not searching)
        self.search_button.setText(tr("Searching…") if searching else tr("Search"))

    def event(self, event: QEvent) -> bool:
        """Re-pick the info line's muted colour when the theme flips (it stayed dark grey on
        the dark window); event(): see ui.chat.input_box.ChatInput.event."""
        handled = super().event(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._mute_info()
        return handled

    def _mute_info(self) -> None:
        color = muted_color(self.palette())
        palette = self.info.palette()
        if palette.color(self.info.foregroundRole()) != color:
            palette.setColor(self.info.foregroundRole(), color)
            self.info.setPalette(palette)

    def set_info(self, text: str) -> None:
        """A muted line above the results ("5 passages", "Nothing found")."""
        self._mute_info()
        self.info.setText(text)
        self.info.setVisible(bool(text))

    def show_results(self, hits: Sequence[Hit], collection: str) -> None:
        """Replace the results with ``hits`` from ``collection``."""
        self.results.clear()
        for rank, hit in enumerate(hits, start=1):
            heading = hit_heading(hit.path, hit.page, hit.relevance, hit.score, hit.lines)
            name, _, meta = heading.partition(" · ")
            snippet = _with_ellipses(hit.snippet, hit.text) if hit.snippet else hit.text
            item = QListWidgetItem(f"{rank}. {heading}\n{' '.join(snippet.split())}")
            item.setData(PATH_ROLE, hit.path)
            item.setData(PAGE_ROLE, hit.page)
            item.setData(
                HTML_ROLE,
                f"<span class='meta'>{rank}.</span> <b>{_escape(name)}</b> "
                f"<span class='meta'>· {_escape(meta)}</span>"
                f"<br>{snippet_html(snippet)}",
            )
            item.setToolTip(f"{hit.path}\n{relevance_tip()}")
            self.results.addItem(item)
        if hits:
            self.set_info(
                tr("%n passage(s) from “{collection}” — best first", "", len(hits))
                .replace("(s)", "" if len(hits) == 1 else "s")
                .format(collection=collection)
            )
        else:
            self.set_info(
                tr("Nothing in “{collection}” matches this search.").format(collection=collection)
            )

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
