"""The accessibility walker finds controls without names."""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit, QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.a11y import describe, unlabelled_widgets
from ui.icons import set_icon


def test_the_walker_finds_controls_without_names(qtbot: QtBot) -> None:
    root = QWidget()
    qtbot.addWidget(root)
    layout = QVBoxLayout(root)
    icon_only = QPushButton()
    set_icon(icon_only, "send")
    named = QPushButton("Send")
    named.setToolTip("Send the message")
    field = QLineEdit()
    for widget in (icon_only, named, field):
        layout.addWidget(widget)
    root.show()
    problems = unlabelled_widgets(root)
    assert len(problems) == 2, problems
    describe(icon_only, "Send", "Send the message to the model.")
    describe(field, "Message", "What to ask the model.")
    assert unlabelled_widgets(root) == []
    assert icon_only.toolTip() == "Send the message to the model."
