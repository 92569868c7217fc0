"""At 1024×700 long texts end in "…" (full text in the tooltip) and the knowledge search box
stays usable."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from tests.ui.fakes import fake_gguf_file
from tests.ui.helpers import load, show_panel
from ui.chat.model_picker import no_model_text
from ui.knowledge.panel import KnowledgePanel
from ui.shell.main_window import MainWindow
from ui.widgets.elided_label import ELLIPSIS, ElidedLabel

SMOL = "SmolLM2-135M-Instruct.Q4_1"


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


def test_the_model_line_is_elided_at_1024(qtbot: QtBot, window: MainWindow, tmp_path: Path) -> None:
    window.resize(1024, 700)
    name = window.chat_panel.model_picker.name
    assert isinstance(name, ElidedLabel)
    qtbot.waitUntil(lambda: name.width() > 0, timeout=2000)
    assert name.text() == no_model_text()  # the full text stays the label's text
    if name.elided:
        assert shown(name).endswith(ELLIPSIS) and fits(name)
        assert no_model_text() in name.toolTip()
    else:
        assert shown(name) == no_model_text() and fits(name)
    load(qtbot, window, fake_gguf_file(tmp_path, f"{SMOL}-with-a-rather-long-file-name.gguf"))
    window.resize(1024, 700)
    qtbot.waitUntil(lambda: name.elided, timeout=2000)
    assert shown(name).endswith(ELLIPSIS) and fits(name)
    assert shown(name).startswith("SmolLM2")
    assert "llama" in name.toolTip()  # the model's details are in the tooltip
    window.resize(1600, 1000)  # room again: the whole line, cut no more
    qtbot.waitUntil(lambda: not name.elided, timeout=2000)
    assert ELLIPSIS not in shown(name)


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


def test_the_knowledge_search_box_is_usable_at_1024(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1024, 700)
    panel = show_panel(window, "Knowledge", KnowledgePanel)
    query = panel.search.query
    qtbot.waitUntil(lambda: query.width() > 0, timeout=2000)
    question = "How do I connect to the VPN from home?"
    query.setText(question)
    room = query.width() - 40  # frame, padding and the clear button
    shown = query.fontMetrics().horizontalAdvance(question[:24])
    assert shown <= room, (query.width(), shown)  # at least 24 characters of the question
    # Nothing else in the window is pushed out of sight by it.
    assert panel.search.search_button.isVisible()
    right = panel.search.search_button.mapTo(window, panel.search.search_button.rect().topRight())
    assert right.x() <= window.width()
