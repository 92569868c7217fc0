"""*Read the text* on a chat attachment, on rapidocr's real weights (OpenVINO, CPU): the words
of a page rendered from pydoc text arrive in the message box (at the cursor, after what was
typed); a blank picture gives one sentence next to the attachments and leaves the box alone;
Cancel puts nothing in the box."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pytestqt.qtbot import QtBot

from app.context import AppContext
from tests.scanned_pages import FONT_FILES, character_error_rate, draw_page, pydoc_lines
from tests.ui.helpers import click
from ui.chat.panel import ChatPanel

pytestmark = pytest.mark.integration
WAIT = 60_000  # the first reading loads the OCR models (seconds on a busy 2-core machine)


@pytest.fixture
def panel(chat_panel: ChatPanel, ctx: AppContext) -> ChatPanel:
    """The Chat panel whose pictures are read on the CPU (the test machine's GPU is a fake)."""
    ctx.settings_store.update(ocr_device="CPU")
    return chat_panel


def attach(qtbot: QtBot, panel: ChatPanel, path: Path) -> None:
    strip = panel.attachments
    strip.add_paths([path])
    qtbot.waitUntil(lambda: len(strip.tiles) == 1 and not strip.busy, timeout=WAIT)


def test_the_words_of_a_picture_arrive_in_the_message_box(
    qtbot: QtBot, panel: ChatPanel, tmp_path: Path
) -> None:
    page = draw_page(pydoc_lines("argparse", 3), FONT_FILES[2], 12, "argparse page")
    path = tmp_path / "screenshot.png"
    Image.fromarray(page.pixels).save(path)
    attach(qtbot, panel, path)
    qtbot.keyClicks(panel.input, "Summarise this:")
    tile = panel.attachments.tiles[0]
    assert tile.read_button.toolTip().startswith("Put the text in this picture")
    click(qtbot, tile.read_button)
    reading = panel.attachments.reading
    assert reading.isVisible() and reading.label.text() == "Reading the text in screenshot.png…"
    assert not tile.read_button.isEnabled()  # one picture at a time
    qtbot.waitUntil(lambda: not reading.busy, timeout=WAIT)
    typed, _, read = panel.input.toPlainText().partition("\n")
    assert typed == "Summarise this:"
    assert character_error_rate(read, page.text) <= 0.05, read
    assert not reading.isVisible() and tile.read_button.isEnabled()
    assert not panel.attachments.error.isVisible()
    assert len(panel.attachments.tiles) == 1  # the picture stays attached


def test_a_blank_picture_says_so_and_leaves_the_box_alone(
    qtbot: QtBot, panel: ChatPanel, tmp_path: Path
) -> None:
    path = tmp_path / "blank.png"
    Image.new("RGB", (640, 480), "white").save(path)
    attach(qtbot, panel, path)
    qtbot.keyClicks(panel.input, "What does it say?")
    click(qtbot, panel.attachments.tiles[0].read_button)
    error = panel.attachments.error
    qtbot.waitUntil(lambda: error.isVisible(), timeout=WAIT)
    assert error.text() == "No text was found in blank.png."
    assert panel.input.toPlainText() == "What does it say?"
    qtbot.waitUntil(lambda: not panel.attachments.reading.busy, timeout=WAIT)


def test_cancel_puts_nothing_in_the_box(qtbot: QtBot, panel: ChatPanel, tmp_path: Path) -> None:
    page = draw_page(pydoc_lines("heapq", 2), FONT_FILES[0], 14, "heapq page")
    path = tmp_path / "page.png"
    Image.fromarray(page.pixels).save(path)
    attach(qtbot, panel, path)
    click(qtbot, panel.attachments.tiles[0].read_button)
    reading = panel.attachments.reading
    click(qtbot, reading.cancel_button)
    assert reading.cancel_button.text() == "Stopping…"
    qtbot.waitUntil(lambda: not reading.busy, timeout=WAIT)
    assert panel.input.toPlainText() == ""
    assert not panel.attachments.error.isVisible()
