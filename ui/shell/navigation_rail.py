"""The navigation rail: the panels as a slim column of icons with their names underneath.

Each item's geometry comes from the design tokens and the rail's own font, never from the style
sheet: a list view lays its items out once, when they are added, and a style sheet's item
padding only reaches the size hints when the widget is polished (when it is first shown). With
the padding in the style sheet, the items stayed at their unpolished 22 px spacing while the
selection was painted 40 px tall, so on every panel but the first the highlight covered its
neighbours' names. Here the size hint is the same before and after polishing, the layout is
redone whenever the font or the style changes (:meth:`NavigationRail.fit`), and everything an
item paints stays inside its own rectangle (:meth:`NavigationRail.highlight_rect`,
:meth:`NavigationRail.label_rect`).
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QIcon, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QListWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui.app_style import FOCUS_RING_WIDTH, Radius, Space, Surfaces, TypeScale, type_font

Index = QModelIndex | QPersistentModelIndex
ICON_SIZE = 24
MIN_WIDTH = 72
"""The rail's width when every name is short: an icon with room either side."""
ITEM_INSET = Space.XS
"""The gap between an item's highlight and the edge of its rectangle: neighbours never touch."""


def label_font(base: QFont) -> QFont:
    """The font of the names under the icons (the selected one is drawn in this weight too, so
    choosing a panel never changes the room a name needs)."""
    return type_font(base, TypeScale.CAPTION)


def item_height(base: QFont) -> int:
    """One item's height for the rail's font ``base``: padding, icon, gap, name, padding."""
    line = QFontMetrics(label_font(base)).height()
    height = ITEM_INSET + Space.S + ICON_SIZE + Space.XS + line + Space.S + ITEM_INSET
    return -(-height // Space.XS) * Space.XS  # on the 4 px grid


def highlight_in(item: QRect) -> QRect:
    """The selection's rounded rectangle inside an item's rectangle ``item``."""
    return item.adjusted(ITEM_INSET, ITEM_INSET, -ITEM_INSET, -ITEM_INSET)


def icon_in(item: QRect) -> QRect:
    """Where the icon of the item in ``item`` is drawn: centred at the top."""
    top = item.top() + ITEM_INSET + Space.S
    return QRect(item.center().x() - ICON_SIZE // 2 + 1, top, ICON_SIZE, ICON_SIZE)


def label_in(item: QRect, base: QFont) -> QRect:
    """Where the name of the item in ``item`` is drawn: under the icon, inside the highlight."""
    line = QFontMetrics(label_font(base)).height()
    highlight = highlight_in(item)
    top = icon_in(item).bottom() + 1 + Space.XS
    return QRect(highlight.left(), top, highlight.width(), line)


class RailDelegate(QStyledItemDelegate):
    """Paints an item as an icon over its name, on a rounded highlight when chosen."""

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        """The same height for every item; width 0 so each follows the rail's width."""
        return QSize(0, item_height(option.font))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        """Highlight (chosen or under the pointer), focus ring, icon and name."""
        rect: QRect = option.rect
        state = option.state
        widget: QWidget | None = option.widget
        # The window's colours (the surfaces around the rail).
        surfaces = Surfaces.of(widget.window().palette() if widget is not None else option.palette)
        selected = bool(state & QStyle.StateFlag.State_Selected)
        highlight = highlight_in(rect)
        painter.save()
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            if selected or state & QStyle.StateFlag.State_MouseOver:
                painter.setBrush(surfaces.selected if selected else surfaces.hover)
                painter.drawRoundedRect(highlight, Radius.LARGE, Radius.LARGE)
            if state & QStyle.StateFlag.State_HasFocus and widget is not None and widget.hasFocus():
                pen = painter.pen()
                pen.setStyle(Qt.PenStyle.SolidLine)
                pen.setColor(surfaces.focus_ring)
                pen.setWidth(FOCUS_RING_WIDTH)
                painter.setPen(pen)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                ring = highlight.adjusted(1, 1, -1, -1)
                painter.drawRoundedRect(ring, Radius.LARGE, Radius.LARGE)
            icon = index.data(Qt.ItemDataRole.DecorationRole)
            if isinstance(icon, QIcon):
                icon.paint(painter, icon_in(rect))
            font = label_font(option.font)
            painter.setFont(font)
            painter.setPen(surfaces.text)
            label = label_in(rect, option.font)
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            elided = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, label.width())
            painter.drawText(label, int(Qt.AlignmentFlag.AlignCenter), elided)
        finally:
            painter.restore()


class NavigationRail(QListWidget):
    """The panels' list at the window's left edge: one item per panel, one chosen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panelNav")
        self.setItemDelegate(RailDelegate(self))
        self.setUniformItemSizes(True)
        self.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.setMovement(QListView.Movement.Static)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QListWidget.Shape.NoFrame)
        # On the window's background, with no style sheet of its own: a widget's style sheet
        # stops the window's font from reaching it.
        self.viewport().setAutoFillBackground(False)

    def fit(self) -> None:
        """Be as wide as the longest (translated) name needs, and at least :data:`MIN_WIDTH`,
        and lay the items out again: the window calls this when the font or the style changes.

        (Not from an ``event()`` override of the rail's own: under PySide6 6.12.0 every bool a
        Python override returns leaks a reference to ``True``; see ui.shell.singleton_guard.)
        """
        metrics = QFontMetrics(label_font(self.font()))
        widest = max(
            (metrics.horizontalAdvance(self.item(r).text()) for r in range(self.count())),
            default=0,
        )
        # The name sits inside the highlight, which sits inside the item: insets both sides,
        # and a little air so the widest name does not touch the highlight's rounded edge.
        self.setFixedWidth(max(MIN_WIDTH, widest + 2 * (ITEM_INSET + Space.S)))
        self.doItemsLayout()

    def highlight_rect(self, row: int) -> QRect:
        """Where the highlight of item ``row`` is painted (in the viewport's coordinates)."""
        return highlight_in(self.visualItemRect(self.item(row)))

    def label_rect(self, row: int) -> QRect:
        """Where the name of item ``row`` is painted (in the viewport's coordinates)."""
        return label_in(self.visualItemRect(self.item(row)), self.font())

    def label_width(self, row: int) -> int:
        """The width the name of item ``row`` needs to be read in full."""
        return QFontMetrics(label_font(self.font())).horizontalAdvance(self.item(row).text())
