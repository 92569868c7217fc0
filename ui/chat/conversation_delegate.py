"""How one row of the conversation list is drawn: the title (elided), a pin, and the snippet
of a search match on a second line in a quieter colour.

The row's width is always the view's: the size hint asks for no width, so a long title is
elided with "…" and the list never needs a horizontal scroll bar.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ui.icons import icon

ID_ROLE = Qt.ItemDataRole.UserRole
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 1
PINNED_ROLE = Qt.ItemDataRole.UserRole + 2
PADDING = 6
Index = QModelIndex | QPersistentModelIndex


class ConversationDelegate(QStyledItemDelegate):
    """Paints title, pin and snippet; the default line editor renames the title in place."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """One line, or two with a snippet; width 0 so rows follow the view's width."""
        line = option.fontMetrics.height()
        lines = 2 if index.data(SNIPPET_ROLE) else 1
        return QSize(0, lines * line + (lines - 1) * 2 + 2 * PADDING)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        """Background and focus as the style draws them, then our text."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        title = opt.text
        opt.text = ""
        widget: QWidget | None = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = opt.rect.adjusted(PADDING, PADDING, -PADDING, -PADDING)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        metrics = opt.fontMetrics
        line = metrics.height()
        painter.save()
        try:
            if index.data(PINNED_ROLE):
                size = min(line, 16)
                pin = icon("pin", color=palette.color(text_role))
                pin.paint(painter, QRect(rect.right() - size + 1, rect.top(), size, size))
                rect.setRight(rect.right() - size - 4)
            painter.setPen(palette.color(text_role))
            painter.setFont(opt.font)
            elided = metrics.elidedText(title, Qt.TextElideMode.ElideRight, rect.width())
            top = QRect(rect.left(), rect.top(), rect.width(), line)
            painter.drawText(
                top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), elided
            )
            snippet = str(index.data(SNIPPET_ROLE) or "")
            if snippet:
                quiet = palette.color(text_role)
                if not selected:
                    quiet = palette.color(QPalette.ColorRole.PlaceholderText)
                painter.setPen(quiet)
                second = QRect(rect.left(), rect.top() + line + 2, rect.width(), line)
                text = metrics.elidedText(snippet, Qt.TextElideMode.ElideRight, rect.width())
                painter.drawText(
                    second, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text
                )
        finally:
            painter.restore()
