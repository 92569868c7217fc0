"""The model manager's tables share their width: the catalog's About column wraps its
sentences (rows grow to fit) and every other cell is whole or whole in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from pytestqt.qtbot import QtBot

from app.context import AppContext
from tests.ui.panels import PanelHost
from ui.models.manager import CATALOG_COLUMNS, ModelManager


def _manager_over(qtbot: QtBot, ctx: AppContext) -> tuple[PanelHost, ModelManager]:
    """The model manager over ``ctx``, a dialog of a shown panel host (as of the window); the
    host is returned too, for the test to hold (its dialog goes with it)."""
    host = PanelHost(ctx)
    qtbot.addWidget(host)
    host.show()
    manager = ModelManager(
        ctx.models, ctx.paths, host.settings_signals, host.tasks, host.notifications, host
    )
    manager.show()
    qtbot.waitExposed(manager)
    return host, manager


def test_the_catalogs_about_column_wraps_instead_of_cutting(qtbot: QtBot, ctx: AppContext) -> None:
    _host, manager = _manager_over(qtbot, ctx)
    manager.tabs.setCurrentIndex(1)
    table = manager.catalog
    about = CATALOG_COLUMNS.index("About")
    qtbot.waitUntil(lambda: table.columnWidth(about) > 0)
    width = table.columnWidth(about) - 6  # the text's room: the cell less its margins
    for row in range(table.rowCount()):  # tall enough for the About text wrapped at its width
        text = table.item(row, about).text()
        wrapped = table.fontMetrics().boundingRect(
            QRect(0, 0, width, 10_000), Qt.TextFlag.TextWordWrap, text
        )
        assert table.rowHeight(row) >= max(wrapped.height(), table.sizeHintForRow(row)), text
    metrics = table.fontMetrics()
    for column in range(table.columnCount()):  # each word whole, or all of it in the tooltip
        for row in range(table.rowCount()):
            item = table.item(row, column)
            words = item.text().split() or [""]
            fits = max(metrics.horizontalAdvance(w) for w in words) < table.columnWidth(column)
            assert fits or item.text() in item.toolTip()
