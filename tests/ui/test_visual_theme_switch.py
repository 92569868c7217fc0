"""A live light ↔ dark switch through View → Theme recolours everything in the conversation
that bakes colours in (code blocks, message text), and message text is never boxed like an
input."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.chat.storage import ChatMessage
from ui.app_style import app_style_sheet
from ui.chat.code_block import DARK_STYLE, CodeBlock
from ui.chat.message_view import MessageView
from ui.chat.prose import Prose
from ui.shell.main_window import MainWindow
from ui.theme import ThemeFollower, is_dark, muted_color

ANSWER = (
    "Here it is, see [the docs](https://example.org):\n\n```python\ndef f(x):\n    return x\n```\n"
)


@pytest.fixture
def app(qapp: QApplication) -> Iterator[QApplication]:
    """The application; the theme follower the View menu made is removed afterwards."""
    yield qapp
    follower = qapp.findChild(ThemeFollower)
    if isinstance(follower, ThemeFollower):
        follower.remove()


def colours(image: QImage) -> Counter[int]:
    """How often each colour occurs in ``image`` (every second pixel, for speed)."""
    counts: Counter[int] = Counter()
    for y in range(0, image.height(), 2):
        for x in range(0, image.width(), 2):
            counts[image.pixel(x, y)] += 1
    return counts


def code_looks(block: CodeBlock) -> tuple[QColor, float]:
    """The code view's background (its commonest colour) and how much its text stands out:
    of the pixels the text covers (any other colour), the share far from the background in
    lightness (the glyphs' cores, not their smoothed edges).

    A share of the text's own pixels, not of the view: it does not depend on how many pixels
    a font's glyphs take (thin and thick monospace fonts give 0.47–0.65; text left in the
    other theme's colours gives next to none)."""
    image = block.view.viewport().grab().toImage()
    counts = colours(image)
    background = QColor.fromRgb(counts.most_common(1)[0][0])
    text = sum(n for rgb, n in counts.items() if rgb != background.rgb())
    ink = sum(
        n
        for rgb, n in counts.items()
        if abs(QColor.fromRgb(rgb).lightness() - background.lightness()) > 90
    )
    return background, ink / text if text else 0.0


@pytest.fixture
def themed_view(qtbot: QtBot) -> MessageView:
    """A conversation view of its own (the window's shows only with a model loaded)."""
    view = MessageView()
    qtbot.addWidget(view)
    view.resize(800, 500)
    view.show()
    return view


def show_answer(themed_view: MessageView, qtbot: QtBot) -> CodeBlock:
    themed_view.show_messages([ChatMessage("user", "Code?"), ChatMessage("assistant", ANSWER, model="M")])
    block = themed_view.message_widgets()[1].body[1]
    assert isinstance(block, CodeBlock)
    qtbot.waitUntil(lambda: block.view.isVisible(), timeout=2000)
    return block


@pytest.mark.parametrize("first, second", [("light", "dark"), ("dark", "light")])
def test_code_blocks_follow_a_live_theme_switch(
    app: QApplication, window: MainWindow, themed_view: MessageView, qtbot: QtBot, first: str, second: str
) -> None:
    themes = window.menus.view.theme_actions
    themes[first].trigger()
    block = show_answer(themed_view, qtbot)
    for theme in (first, second, first):
        themes[theme].trigger()
        dark = theme == "dark"
        qtbot.waitUntil(lambda dark=dark: (block.style_name == DARK_STYLE) == dark, timeout=2000)
        background, ink = code_looks(block)
        # The code's background is the new theme's, and its text stands out from it.
        assert (background.lightness() < 100) == dark, (theme, background.name())
        assert ink > 0.3, (theme, background.name(), ink)
        prose = themed_view.message_widgets()[1].body[0]
        assert isinstance(prose, Prose)
        links = prose.document().toHtml()
        link = app.palette().link().color().name()
        assert link in links, (theme, link)  # the link is in this theme's link colour


def test_a_new_conversation_after_a_switch_draws_code_in_the_new_theme(
    app: QApplication, window: MainWindow, themed_view: MessageView, qtbot: QtBot
) -> None:
    window.menus.view.theme_actions["light"].trigger()
    window.menus.view.theme_actions["dark"].trigger()
    block = show_answer(themed_view, qtbot)
    background, ink = code_looks(block)
    assert background.lightness() < 100 and ink > 0.3


def test_message_text_has_no_box_but_inputs_keep_theirs(
    app: QApplication, window: MainWindow, themed_view: MessageView, qtbot: QtBot
) -> None:
    window.menus.view.theme_actions["light"].trigger()
    sheet = app_style_sheet(app.palette())
    assert 'QTextEdit[messageText="true"]' in sheet
    themed_view.show_messages(
        [ChatMessage("user", "A question"), ChatMessage("assistant", "Plain words.")]
    )
    prose = themed_view.message_widgets()[1].body[0]
    assert isinstance(prose, Prose)
    qtbot.waitUntil(prose.isVisible, timeout=2000)
    message = themed_view.message_widgets()[1]
    image = message.grab(prose.geometry()).toImage()  # on its bubble
    # No border: the edge pixels are the bubble's colour, the same all round.
    bubble = themed_view.message_widgets()[1].background().rgb()
    edge = [image.pixel(x, 0) for x in range(2, image.width() - 2)]
    edge += [image.pixel(0, y) for y in range(2, image.height() - 2)]
    assert set(edge) == {bubble}, {QColor.fromRgb(c).name() for c in set(edge)}
    # A real input (the chat box) keeps its rounded border.
    box = window.chat_panel.input
    box.setVisible(True)
    shot = box.grab().toImage()
    assert shot.pixel(shot.width() // 2, 0) != shot.pixel(shot.width() // 2, 5)


@pytest.mark.parametrize("first, second", [("light", "dark"), ("dark", "light")])
def test_a_cut_notice_follows_a_live_theme_switch(
    app: QApplication, window: MainWindow, themed_view: MessageView, qtbot: QtBot, first: str, second: str
) -> None:
    themes = window.menus.view.theme_actions
    themes[first].trigger()
    cut = ChatMessage("assistant", "A long answer", model="M", cut=True)
    cut.metrics["output_tokens"] = 512
    themed_view.show_messages([ChatMessage("user", "Essay?"), cut])
    label = themed_view.message_widgets()[1].cut.label
    assert label.isVisible() and label.text() == "Cut off at 512 tokens"
    for theme in (first, second, first):
        themes[theme].trigger()

        def recoloured(dark: bool = theme == "dark") -> bool:
            palette = app.palette()
            shown = label.palette().color(label.foregroundRole())
            # rgba(): a light palette's muted colour is half-transparent black.
            return is_dark(palette) == dark and shown.rgba() == muted_color(palette).rgba()

        qtbot.waitUntil(recoloured, timeout=10_000)
