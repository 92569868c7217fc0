"""A row of controls that wraps onto a new line when the panel is too narrow for all of them,
so a narrow window shows every button whole instead of cutting their texts."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget

from ui.app_style import Space


class FlowLayout(QLayout):
    """Lays its widgets out left to right, starting a new line when one does not fit.

    Its minimum width is its widest widget's; its minimum height follows the lines it needs at
    the width it is given, so the layouts around it make room for a second line. (It sets its
    widget's minimum height rather than answering ``heightForWidth``: under PySide6 6.12.0 every
    bool a Python override returns to Qt leaks a reference to ``True``, see
    ``ui.shell.singleton_guard``, and layouts ask that very often.)
    """

    def __init__(self, parent: QWidget | None = None, spacing: int = Space.S) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    def add_widgets(self, *widgets: QWidget) -> FlowLayout:
        """Add ``widgets`` in order; returns the layout."""
        for widget in widgets:
            self.addWidget(widget)
        return self

    def addItem(self, item: QLayoutItem) -> None:
        """Take ``item`` at the end of the row (Qt calls this from ``addWidget``)."""
        self._items.append(item)

    def count(self) -> int:
        """How many items the row holds."""
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        """The item at ``index``, or None past the end."""
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        """Remove and return the item at ``index`` (None past the end)."""
        if 0 <= index < len(self._items):
            return self._items.pop(index)
        return None

    def expandingDirections(self) -> Qt.Orientation:
        """Grows in neither direction of its own accord."""
        return Qt.Orientation(0)

    def setGeometry(self, rect: QRect) -> None:
        """Place the widgets inside ``rect``."""
        super().setGeometry(rect)
        height = self._arrange(rect, move=True)
        holder = self.parentWidget()
        if holder is not None and holder.minimumHeight() != height:
            holder.setMinimumHeight(height)  # the layout around it lays out again

    def sizeHint(self) -> QSize:
        """Everything on one line."""
        shown = self._shown()
        width = sum(item.sizeHint().width() for item in shown)
        width += self._gap * max(0, len(shown) - 1)
        height = max((item.sizeHint().height() for item in shown), default=0)
        margins = self.contentsMargins()
        return QSize(width + margins.left() + margins.right(), height)

    def minimumSize(self) -> QSize:
        """As wide as the widest widget: every other one can go on a line of its own."""
        size = QSize()
        for item in self._shown():
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _arrange(self, rect: QRect, move: bool) -> int:
        """Lay the lines out in ``rect`` (placing the widgets when ``move``, each centred in the
        height of its line); the height used."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        lines: list[list[QLayoutItem]] = [[]]
        x = area.x()
        for item in self._shown():
            width = item.sizeHint().width()
            if lines[-1] and x + width > area.right() + 1:
                lines.append([])
                x = area.x()
            lines[-1].append(item)
            x += width + self._gap
        y = area.y()
        for line in lines:
            height = max((item.sizeHint().height() for item in line), default=0)
            x = area.x()
            for item in line:
                hint = item.sizeHint()
                # A widget wider than the whole line gets the line (down to its minimum).
                hint.setWidth(max(min(hint.width(), area.width()), item.minimumSize().width()))
                if move:
                    top = y + (height - hint.height()) // 2
                    item.setGeometry(QRect(QPoint(x, top), hint))
                x += hint.width() + self._gap
            y += height + self._gap
        return max(0, y - self._gap - rect.y()) + margins.bottom()


def flow_row(*widgets: QWidget) -> QWidget:
    """A widget holding ``widgets`` in a :class:`FlowLayout` (a row that wraps)."""
    holder = QWidget()
    FlowLayout(holder).add_widgets(*widgets)
    return holder
