"""A row of buttons that wraps: every button whole, on more lines when narrower."""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.widgets.flow_layout import flow_row


def test_a_narrow_row_wraps_its_buttons_whole(qtbot: QtBot) -> None:
    buttons = [QPushButton(text) for text in ("Play reference", "Rename", "Delete…", "Speak")]
    host = QWidget()
    qtbot.addWidget(host)
    column = QVBoxLayout(host)
    row = flow_row(*buttons)
    column.addWidget(row)
    column.addStretch(1)
    wide = sum(b.sizeHint().width() for b in buttons) + 200
    host.resize(wide, 300)
    host.show()
    qtbot.waitUntil(lambda: row.width() > 0)
    assert len({b.y() for b in buttons}) == 1  # room for all: one line
    one_line = row.height()
    narrow = max(b.sizeHint().width() for b in buttons) + 20
    assert row.minimumSizeHint().width() <= narrow  # as narrow as its widest button
    host.resize(narrow + 2 * column.contentsMargins().left(), 300)
    qtbot.waitUntil(lambda: len({b.y() for b in buttons}) == len(buttons))  # one per line
    assert row.height() > one_line  # the layout around it made room
    for button in buttons:
        assert button.width() >= button.sizeHint().width()
        assert row.rect().contains(button.geometry())
    for upper, lower in pairwise(buttons):
        assert not upper.geometry().intersects(lower.geometry())
