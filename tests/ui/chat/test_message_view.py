"""The conversation view on its own: hostile model output stays text, code blocks highlight,
copy and scroll inside themselves, the context marker, accessible names."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from pytestqt.qtbot import QtBot

from app.chat.storage import ChatMessage
from ui.a11y import unlabelled_widgets
from ui.chat.code_block import CodeBlock
from ui.chat.markdown_segments import split_markdown
from ui.chat.message_view import MessageView
from ui.chat.prose import Prose

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
