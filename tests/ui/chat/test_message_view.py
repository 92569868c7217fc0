"""The conversation view on its own: hostile model output stays text, code blocks highlight,
copy and scroll inside themselves, the context marker, accessible names; a live light ↔ dark
switch through View → Theme recolours everything that bakes colours in (code blocks, message
text), and message text is never boxed like an input."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QDesktopServices, QGuiApplication, QImage
from PySide6.QtWidgets import QApplication, QFrame
from pytestqt.qtbot import QtBot

from app.chat.storage import ChatMessage
from ui.a11y import unlabelled_widgets
from ui.app_style import COMPOSER, app_style_sheet
from ui.chat.code_block import DARK_STYLE, CodeBlock
from ui.chat.markdown_segments import split_markdown
from ui.chat.message_view import MessageView
from ui.chat.prose import Prose
from ui.shell.main_window import MainWindow
from ui.theme import ThemeFollower, is_dark, muted_color

CODE = "def greet(name):\n    return f'hello {name}'  # say it"


@pytest.fixture
def view(qtbot: QtBot) -> MessageView:
    view = MessageView()
    qtbot.addWidget(view)
    view.resize(900, 700)
    view.show()
    return view


def turn(answer: str, question: str = "Q?") -> list[ChatMessage]:
    return [ChatMessage("user", question), ChatMessage("assistant", answer, model="SmolLM2")]


def parts(view: MessageView, index: int) -> list[Prose | CodeBlock]:
    return view.message_widgets()[index].body


def test_who_said_what_is_in_each_header(view: MessageView) -> None:
    view.show_messages(turn("Hi."))
    user, answer = view.message_widgets()
    assert user.header.name.text() == "You" and answer.header.name.text() == "SmolLM2"
    assert user.background() != answer.background()  # told apart by colour, too
    old = ChatMessage("assistant", "From before the model was stored.")
    view.show_messages([ChatMessage("user", "Q"), old])
    assert view.message_widgets()[1].header.name.text() == "Assistant"


@pytest.mark.parametrize(
    "hostile",
    [
        "<b>bold</b>",
        "<script>alert(1)</script>",
        '<img src="file:///etc/passwd">',
        "<div style='color:red'>block</div>",
    ],
)
def test_html_from_the_model_is_shown_as_text(view: MessageView, hostile: str) -> None:
    view.show_messages(turn(f"Look: {hostile} done"))
    shown = view.toPlainText()
    assert hostile in shown  # every character, tags included
    html = view.toHtml()
    assert "<b>bold" not in html and "<script" not in html and "<img" not in html


def test_a_user_message_is_shown_exactly(view: MessageView) -> None:
    typed = "**not bold** <i>x</i>\n```\nnot code"
    view.show_messages(turn("ok", typed))
    prose = parts(view, 0)
    assert len(prose) == 1 and isinstance(prose[0], Prose)
    assert prose[0].toPlainText() == typed


def test_links_the_model_writes_open_only_web_addresses(
    view: MessageView, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
    view.show_messages(turn("[a](javascript:alert(1)) [b](file:///etc/passwd) [c](https://x.org)"))
    for address in ("javascript:alert(1)", "file:///etc/passwd", "https://x.org"):
        view.anchorClicked.emit(QUrl(address))
    assert [url.toString() for url in opened] == ["https://x.org"]


def test_images_the_model_names_are_never_loaded(view: MessageView) -> None:
    view.show_messages(turn("![secret](file:///etc/passwd) ![web](https://x.org/a.png)"))
    prose = parts(view, 1)[0]
    assert isinstance(prose, Prose)
    assert prose.loadResource(2, QUrl("file:///etc/passwd")) is None


def test_an_unterminated_fence_is_code_to_the_end(view: MessageView) -> None:
    view.show_messages(turn("Here:\n```python\nprint(1)\nprint(2)"))
    body = parts(view, 1)
    assert isinstance(body[1], CodeBlock) and body[1].code == "print(1)\nprint(2)"
    assert split_markdown("```\nx")[0].closed is False


def test_a_huge_line_of_prose_wraps(view: MessageView) -> None:
    view.show_messages(turn("x" * 20_000))
    assert view.horizontalScrollBar().maximum() == 0
    assert view.column.width() <= view.viewport().width()


def test_code_is_highlighted_and_copied_exactly(view: MessageView, qtbot: QtBot) -> None:
    view.show_messages(turn(f"Try:\n\n```python\n{CODE}\n```\nThen run it."))
    body = parts(view, 1)
    assert [type(p) for p in body] == [Prose, CodeBlock, Prose]
    block = body[1]
    assert isinstance(block, CodeBlock) and block.label.text() == "python"
    colours = set()
    text_block = block.view.document().begin()
    while text_block.isValid():
        for fmt_range in text_block.layout().formats() or []:
            colours.add(fmt_range.format.foreground().color().name())
        iterator = text_block.begin()
        while not iterator.atEnd():
            colours.add(iterator.fragment().charFormat().foreground().color().name())
            iterator += 1
        text_block = text_block.next()
    assert len(colours) >= 3  # keyword, string, comment … in their own colours
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(block.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == CODE
    assert block.copy_button.text() == "Copied"
    qtbot.waitUntil(lambda: block.copy_button.text() == "Copy", timeout=5000)


def test_a_long_code_line_scrolls_inside_its_block(view: MessageView, qtbot: QtBot) -> None:
    view.show_messages(turn(f"```\n{'y = 1  # ' + 'z' * 500}\n```"))
    block = parts(view, 1)[0]
    assert isinstance(block, CodeBlock)
    qtbot.waitUntil(lambda: block.view.horizontalScrollBar().maximum() > 0)
    assert view.horizontalScrollBar().maximum() == 0  # the conversation never scrolls sideways
    assert view.column.width() <= view.viewport().width()
    assert block.width() < 900
    # The block is tall enough for its line and its own scrollbar.
    bar = block.view.horizontalScrollBar()
    assert block.view.height() >= block.view.fontMetrics().lineSpacing() + bar.sizeHint().height()


def test_streaming_redoes_only_the_tail(view: MessageView) -> None:
    view.show_messages([])
    view.begin_answer("Q")
    view.append_text("Intro.\n\n```python\nx = 1\n")
    first_prose = view.message_widgets()[-1].body[0]
    block = view.message_widgets()[-1].body[1]
    view.append_text("y = 2\n")
    body = view.message_widgets()[-1].body
    assert body[0] is first_prose and body[1] is block  # kept, not rebuilt
    assert isinstance(block, CodeBlock) and block.code == "x = 1\ny = 2\n"
    assert view.streaming_text == "Intro.\n\n```python\nx = 1\ny = 2\n"


def test_unchanged_messages_keep_their_widgets(view: MessageView) -> None:
    messages = turn("One.")
    view.show_messages(messages)
    first = view.message_widgets()
    view.show_messages([*messages, *turn("Two.", "Again?")])
    assert view.message_widgets()[:2] == first


def test_the_context_marker_stands_before_the_first_message_sent(view: MessageView) -> None:
    view.show_messages([*turn("One."), *turn("Two.", "Again?")])
    view.set_context_marker(2)
    assert view.marker.isVisibleTo(view)
    rows = view.rows
    assert rows.indexOf(view.marker) == rows.indexOf(view.message_widgets()[2]) - 1
    text = view.toPlainText()
    assert text.index("One.") < text.index("no longer sent to the model") < text.index("Two.")
    view.show_messages(turn("Fresh."))  # fewer messages than the marker's index
    assert not view.marker.isVisibleTo(view)
    view.set_context_marker(None)
    assert "no longer sent" not in view.toPlainText()


def test_every_control_is_named(view: MessageView) -> None:
    answer = ChatMessage("assistant", f"```python\n{CODE}\n```", model="m")
    answer.versions = [ChatMessage("assistant", "older")]
    answer.version = 1
    view.show_messages([ChatMessage("user", "Q"), answer])
    assert unlabelled_widgets(view) == []
    view.message_widgets()[0].header.buttons["edit"].click()
    assert unlabelled_widgets(view) == []


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
    themed_view.show_messages(
        [ChatMessage("user", "Code?"), ChatMessage("assistant", ANSWER, model="M")]
    )
    block = themed_view.message_widgets()[1].body[1]
    assert isinstance(block, CodeBlock)
    qtbot.waitUntil(lambda: block.view.isVisible(), timeout=2000)
    return block


@pytest.mark.parametrize("first, second", [("light", "dark"), ("dark", "light")])
def test_code_blocks_follow_a_live_theme_switch(
    app: QApplication,
    window: MainWindow,
    themed_view: MessageView,
    qtbot: QtBot,
    first: str,
    second: str,
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
    # A real input keeps a rounded border: the chat's, around the composer that holds it.
    box = window.chat_panel.findChild(QFrame, COMPOSER)
    assert box is not None and box.isAncestorOf(window.chat_panel.input)
    shot = box.grab().toImage()
    assert shot.pixel(shot.width() // 2, 0) != shot.pixel(shot.width() // 2, 5)


@pytest.mark.parametrize("first, second", [("light", "dark"), ("dark", "light")])
def test_a_cut_notice_follows_a_live_theme_switch(
    app: QApplication,
    window: MainWindow,
    themed_view: MessageView,
    qtbot: QtBot,
    first: str,
    second: str,
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
