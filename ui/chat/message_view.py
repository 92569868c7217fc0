"""The conversation: a scrolling column of message widgets (``ui.chat.message_widget``).

A widget per message (not one rich-text document) so each code block can scroll sideways on
its own while the conversation never does, and so streaming touches only the answer being
written: :meth:`MessageView.append_text` updates the last widget's tail, and
:meth:`MessageView.show_messages` keeps the widgets of messages that did not change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication, QImage
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.chat import ChatMessage
from app.mcp import ToolCall
from ui.a11y import describe
from ui.chat.message_footer import message_sources
from ui.chat.message_footer import stats_line as stats_line
from ui.chat.message_widget import MessageWidget
from ui.chat.thumbnails import DRAWN, THUMBNAIL, thumbnail_from_file
from ui.i18n import tr

SAFE_SCHEMES = ("http", "https", "mailto")
"""Links the model wrote that a click opens (in the user's browser); any other is inert."""


class ContextMarker(QWidget):
    """A divider: messages above it are no longer sent to the model."""

    def __init__(self) -> None:
        super().__init__()
        # Left out in blocks (app/chat/history.py): after a cut the context line
        # shows room to spare, so say why the messages above still are not sent.
        self.label = QLabel(
            tr(
                "Messages above this line are no longer sent to the model: once the context is "
                "full, older messages are left out several at a time, so that answers keep "
                "starting quickly. They stay in this chat."
            )
        )
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 4, 0, 4)
        for widget in (_rule(), self.label, _rule()):
            row.addWidget(widget, 1 if widget is not self.label else 4)


def _rule() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


class MessageView(QScrollArea):
    """Read-only view of a conversation, with actions on each message."""

    copied = Signal()
    speakRequested = Signal(str)  # the answer's text (markdown), to be read aloud
    regenerateRequested = Signal()
    continueRequested = Signal()  # the last answer, cut at its length limit, should go on
    sourceRequested = Signal(object)  # Source
    editRequested = Signal(int, str)  # message index, the edited question
    deleteRequested = Signal(int)  # message index
    versionRequested = Signal(int, int)  # message index, version position (0-based)
    anchorClicked = Signal(QUrl)  # a link in the conversation (also: emit to follow one)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        # The conversation never scrolls sideways: long code lines scroll inside their block.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        describe(self, tr("Conversation"), tr("The messages of this chat, oldest first"))
        self.column = QWidget()
        self.column.setObjectName("conversationColumn")
        self.rows = QVBoxLayout(self.column)
        self.rows.setContentsMargins(12, 10, 12, 10)
        self.rows.setSpacing(10)
        self.rows.addStretch(1)
        self.setWidget(self.column)
        self.marker = ContextMarker()
        self.marker.hide()
        self._first_sent: int | None = None
        self.assistant_name = ""
        """What an answer being written is headed with (the loaded model's name)."""
        self.can_continue = False
        """Whether the loaded model can go on with a cut answer (see :meth:`set_can_continue`)."""
        self._messages: list[ChatMessage] = []
        self._widgets: list[MessageWidget] = []
        self._streaming: list[MessageWidget] = []
        self._streaming_text = ""
        self._image_path: Callable[[str], Path] | None = None
        self._thumbnails: dict[str, QImage] = {}  # stored image name → decoded once
        self._stick = True  # follow the end while the user has not scrolled up
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range)
        self.anchorClicked.connect(self._on_anchor)

    # ----- whole conversation ----------------------------------------------------------

    def show_messages(
        self, messages: Sequence[ChatMessage], image_path: Callable[[str], Path] | None = None
    ) -> None:
        """Show ``messages`` (conversation switched, answer finished); ``image_path`` finds a
        stored image of theirs by name (None: keep the previous one). Widgets of unchanged
        messages are kept."""
        if image_path is not None:
            if image_path is not self._image_path:
                self._thumbnails.clear()
            self._image_path = image_path
        self._clear_streaming()
        self._messages = list(messages)
        last_answer = max(
            (i for i, m in enumerate(self._messages) if m.role == "assistant"), default=-1
        )
        for index, message in enumerate(self._messages):
            is_last = index == last_answer
            if index < len(self._widgets):
                widget = self._widgets[index]
                if widget.is_user == (message.role == "user"):
                    if widget.message != message or widget.is_last_answer != is_last:
                        widget.set_message(
                            message,
                            index,
                            is_last_answer=is_last,
                            images=self.stored_thumbnails(message),
                        )
                    widget.stop_editing()
                    continue
                row = self.rows.indexOf(widget)
                self._remove(widget)
                self._widgets[index] = self._make(message, index, is_last)
                self._insert(row, self._widgets[index])
            else:
                self._widgets.append(self._make(message, index, is_last))
                self._insert(self.rows.count() - 1, self._widgets[-1])
        while len(self._widgets) > len(self._messages):
            self._remove(self._widgets.pop())
        self._set_busy(False)
        self._place_marker()
        self._stick = True
        self._scroll_to_end()

    def _make(self, message: ChatMessage, index: int, is_last: bool) -> MessageWidget:
        widget = MessageWidget(
            message,
            index,
            is_last_answer=is_last,
            images=self.stored_thumbnails(message),
            assistant_name=self.assistant_name,
            can_continue=self.can_continue,
        )
        widget.continueRequested.connect(self.continueRequested)
        widget.copyRequested.connect(self._copy)
        widget.speakRequested.connect(self._speak)
        widget.regenerateRequested.connect(self.regenerateRequested)
        widget.deleteRequested.connect(self.deleteRequested)
        widget.editSubmitted.connect(self.editRequested)
        widget.versionRequested.connect(self.versionRequested)
        widget.linkClicked.connect(self._on_anchor)
        return widget

    def _insert(self, row: int, widget: MessageWidget) -> None:
        self.rows.insertWidget(row, widget)
        widget.show()  # at once: a layout would show it only after the next event loop turn

    def _remove(self, widget: MessageWidget) -> None:
        self.rows.removeWidget(widget)
        widget.hide()
        widget.deleteLater()

    def show_answer_problem(self, text: str) -> None:
        """Say ``text`` (why a JSON answer is cut or off its schema) under the last answer, in
        the warning colour, announced; it goes when that answer is shown anew."""
        answers = [widget for widget in self._widgets if not widget.is_user]
        if answers and text:
            answers[-1].problem.show_message(text)

    def set_can_continue(self, can_continue: bool) -> None:
        """Offer *Continue* under a cut last answer only when the loaded model can go on."""
        self.can_continue = can_continue
        for widget in self._widgets:
            widget.set_can_continue(can_continue)

    def message_widgets(self) -> list[MessageWidget]:
        """The widgets on screen, stored messages first, then a turn being written."""
        return [*self._widgets, *self._streaming]

    # ----- context marker --------------------------------------------------------------

    def set_context_marker(self, first_sent: int | None) -> None:
        """Draw a divider before message ``first_sent``: the ones above it no longer reach the
        model (the context is full). None or 0 removes it."""
        self._first_sent = first_sent
        self._place_marker()

    def _place_marker(self) -> None:
        self.rows.removeWidget(self.marker)
        index = self._first_sent
        if index is None or not 0 < index < len(self._widgets):
            self.marker.hide()
            return
        self.rows.insertWidget(self.rows.indexOf(self._widgets[index]), self.marker)
        self.marker.show()

    # ----- streaming -------------------------------------------------------------------

    def begin_answer(self, question: str, images: Sequence[QImage] = ()) -> None:
        """Show the question (with thumbnails of its ``images``) and an empty answer that
        :meth:`append_text` fills."""
        self._clear_streaming()
        self._streaming_text = ""
        asked = MessageWidget(ChatMessage("user", question), -1, images=images)
        answer = MessageWidget(
            ChatMessage("assistant", "…"), -1, assistant_name=self.assistant_name
        )
        for widget in (asked, answer):
            self._insert(self.rows.count() - 1, widget)
            self._streaming.append(widget)
        self._set_busy(True)
        self._stick = True
        self._scroll_to_end()

    def begin_continuation(self, start: str) -> None:
        """Write on after ``start`` (a cut answer going on): shown as an answer being written
        that :meth:`append_text` extends. The caller shows the messages before it first."""
        self._clear_streaming()
        self._streaming_text = start
        answer = MessageWidget(
            ChatMessage("assistant", start or "…"), -1, assistant_name=self.assistant_name
        )
        self._insert(self.rows.count() - 1, answer)
        self._streaming.append(answer)
        self._set_busy(True)
        self._stick = True
        self._scroll_to_end()

    @Slot(str)
    def append_text(self, text: str) -> None:
        """Add streamed text to the answer being written (only its changed tail is redone)."""
        if not self._streaming:
            return
        self._streaming_text += text
        self._streaming[-1].set_content(self._streaming_text or "…")

    @Slot(object)
    def add_tool_call(self, call: ToolCall) -> None:
        """Show a tool call of the answer being written, above its text."""
        if self._streaming:
            self._streaming[-1].add_tool_call(call)

    @property
    def streaming_text(self) -> str:
        """Text streamed into the current answer so far."""
        return self._streaming_text

    def _clear_streaming(self) -> None:
        while self._streaming:
            self._remove(self._streaming.pop())

    def _set_busy(self, busy: bool) -> None:
        for widget in self._widgets:
            widget.set_actions_enabled(not busy)

    # ----- reading ---------------------------------------------------------------------

    def toPlainText(self) -> str:
        """The conversation as the user reads it (names, text, code, figures)."""
        texts = [w.plain_text() for w in self.message_widgets()]
        if self.marker.isVisibleTo(self):
            texts.insert(self._first_sent or 0, self.marker.label.text())
        return "\n\n".join(texts)

    def toHtml(self) -> str:
        """The rendered messages' HTML (links included)."""
        return "\n".join(w.html() for w in self.message_widgets())

    def thumbnail_count(self) -> int:
        """Images shown in the conversation."""
        return sum(len(w.thumbnails) for w in self.message_widgets())

    def stored_thumbnails(self, message: ChatMessage) -> list[QImage]:
        """Thumbnails of a stored message's images, each file decoded once (bounded size)."""
        if self._image_path is None:
            return []
        found = []
        side = DRAWN if message.role == "assistant" else THUMBNAIL
        for name in message.images:
            if name not in self._thumbnails:
                self._thumbnails[name] = thumbnail_from_file(self._image_path(name), side)
            if not self._thumbnails[name].isNull():  # a deleted copy: no thumbnail, no error
                found.append(self._thumbnails[name])
        return found

    # ----- scrolling -------------------------------------------------------------------

    @Slot(int)
    def _on_scrolled(self, value: int) -> None:
        self._stick = value >= self.verticalScrollBar().maximum() - 4

    @Slot(int, int)
    def _on_range(self, _minimum: int, maximum: int) -> None:
        if self._stick:  # the answer grew: stay at its end unless the user scrolled up
            self.verticalScrollBar().setValue(maximum)

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    # ----- actions ---------------------------------------------------------------------

    @Slot(int)
    def _copy(self, index: int) -> None:
        if 0 <= index < len(self._messages):
            QGuiApplication.clipboard().setText(self._messages[index].content)
            self.copied.emit()

    @Slot(int)
    def _speak(self, index: int) -> None:
        if 0 <= index < len(self._messages):
            self.speakRequested.emit(self._messages[index].content)

    @Slot(QUrl)
    def _on_anchor(self, url: QUrl) -> None:
        target = url.toString()
        if target == "regenerate":
            self.regenerateRequested.emit()
        elif target.startswith("source:"):
            self._open_source(target)
        elif url.scheme().lower() in SAFE_SCHEMES and url.isValid():
            QDesktopServices.openUrl(url)
        # Anything else the model wrote (javascript:, file:, data: …) does nothing.

    def _open_source(self, target: str) -> None:
        try:
            _, message_text, number_text = target.split(":")
            message_index, number = int(message_text), int(number_text)
        except ValueError:
            return
        if 0 <= message_index < len(self._messages):
            for source in message_sources(self._messages[message_index]):
                if source.number == number:
                    self.sourceRequested.emit(source)
