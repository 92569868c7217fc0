"""An elided label shows what fits, ending in "…", and keeps its full text in the tooltip."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from ui.widgets.elided_label import ELLIPSIS, ElidedLabel


def shown(label: QLabel) -> str:
    """The text on screen (the elided label's cut one), as plain text."""
    document = QTextDocument()
    document.setHtml(QLabel.text(label))
    return document.toPlainText()


def fits(label: QLabel) -> bool:
    document = QTextDocument()
    document.setDefaultFont(label.font())
    document.setDocumentMargin(0)
    document.setHtml(QLabel.text(label))
    return document.idealWidth() <= label.contentsRect().width()


def test_an_elided_label_shows_what_fits_and_keeps_its_text(qtbot: QtBot) -> None:
    label = ElidedLabel("<b>A bold name</b> (and a long tail of details that will not fit)")
    qtbot.addWidget(label)
    label.resize(120, 20)
    label.show()
    assert label.elided and shown(label).endswith(ELLIPSIS) and fits(label)
    assert "<b>" in QLabel.text(label) or "font-weight" in QLabel.text(label)  # still bold
    assert "long tail" in label.toolTip()
    label.setToolTip("own tip")
    assert label.toolTip() == "own tip"
    label.resize(900, 20)
    assert not label.elided and label.text().startswith("<b>A bold name</b>")
    plain = ElidedLabel("No model — get one in File → Models…, or open one")
    qtbot.addWidget(plain)
    plain.resize(100, 20)
    plain.show()
    assert plain.elided and shown(plain).endswith(ELLIPSIS) and fits(plain)
