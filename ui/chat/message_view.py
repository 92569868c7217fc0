"""The conversation as a document: one framed block per message, answers rendered as markdown.

While an answer streams only its own frame is re-rendered, so the cost of a batch does not grow
with the length of the conversation. Colours are taken from the palette when a frame is drawn,
so the whole document is drawn again when the palette flips between light and dark.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QUrl, Signal, Slot
from PySide6.QtGui import (
    QFont,
    QGuiApplication,
    QImage,
    QPalette,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextFrame,
    QTextFrameFormat,
    QTextImageFormat,
)
from PySide6.QtWidgets import QTextBrowser, QWidget

from app.knowledge.grounding import Source
from app.storage.conversations import ChatMessage
from ui.chat.thumbnails import THUMBNAIL, thumbnail_from_file
from ui.theme import blend, muted_color

CODE_INDENT = 10
CITATION = re.compile(r"\[(\d{1,2})\]")


def message_sources(message: ChatMessage) -> list[Source]:
    """The knowledge sources stored with an answer (malformed entries are skipped)."""
    sources: list[Source] = []
    for data in message.sources:
        try:
            sources.append(Source.from_dict(data))
        except (KeyError, TypeError, ValueError):
            continue
    return sources


def link_citations(markdown: str, index: int, numbers: set[int]) -> str:
    """Turn ``[2]`` into a link to source 2 of message ``index`` (only for real sources)."""

    def link(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number not in numbers:
            return match.group(0)
        return f"[\\[{number}\\]](source:{index}:{number})"

    return CITATION.sub(link, markdown)


def sources_line(sources: Sequence[Source], index: int) -> str:
    """HTML links under an answer: "Sources: [1] guide.pdf, page 2 · [2] notes.md"."""
    links = [
        f'<a href="source:{index}:{s.number}" title="{html.escape(s.path)}">'
        f"[{s.number}]&nbsp;{html.escape(s.label)}</a>"
        for s in sources
    ]
    return "Sources: " + " · ".join(links)


def stats_line(message: ChatMessage) -> str:
    """The line under an answer.

    Returns:
        e.g. "16 tokens · 230.4 tok/s · TTFT 12 ms · AUTO → CPU", plus " · stopped" when the
        answer was cut short.
    """
    metrics = message.metrics
    parts: list[str] = []
    if "output_tokens" in metrics:
        parts.append(f"{int(metrics['output_tokens'])} tokens")
    if metrics.get("tokens_per_s"):
        parts.append(f"{metrics['tokens_per_s']:.1f} tok/s")
    if "ttft_ms" in metrics:
        parts.append(f"TTFT {metrics['ttft_ms']:.0f} ms")
    if message.device:
        parts.append(message.device)
    if message.stopped:
        parts.append("stopped")
    return " · ".join(parts)


class MessageView(QTextBrowser):
    """Read-only view of a conversation, with Copy / Speak / Regenerate links under answers."""

    copied = Signal()
    speakRequested = Signal(str)  # the answer's text (markdown), to be read aloud
    regenerateRequested = Signal()
    sourceRequested = Signal(object)  # Source

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._on_anchor)
        self.document().setDocumentMargin(10)
        self._messages: list[ChatMessage] = []
        self._streaming_frame: QTextFrame | None = None
        self._streaming_question = ""
        self._streaming_text = ""
        self._streaming_images: list[QImage] = []
        self._image_path: Callable[[str], Path] | None = None
        self._thumbnails: dict[str, QImage] = {}  # stored image name → decoded once
        self._image_count = 0  # resource names in the document

    # ----- whole conversation ----------------------------------------------------------

    def show_messages(
        self, messages: Sequence[ChatMessage], image_path: Callable[[str], Path] | None = None
    ) -> None:
        """Render ``messages`` from scratch (conversation switched, answer finished);
        ``image_path`` finds a stored image of theirs by name (None: no thumbnails)."""
        self._messages = list(messages)
        if image_path is not None:
            self._image_path = image_path
        self._streaming_frame = None
        self._render_messages()
        self._scroll_to_end()

    def _render_messages(self) -> None:
        self.document().clear()
        last_answer = max(
            (i for i, m in enumerate(self._messages) if m.role == "assistant"), default=-1
        )
        for index, message in enumerate(self._messages):
            self._insert(message, index, is_last_answer=index == last_answer)

    # ----- streaming -------------------------------------------------------------------

    def begin_answer(self, question: str, images: Sequence[QImage] = ()) -> None:
        """Show the question (with thumbnails of its ``images``) and an empty answer frame
        that :meth:`append_text` fills."""
        self._streaming_question = question
        self._streaming_text = ""
        self._streaming_images = list(images)
        self._insert(ChatMessage("user", question), -1, is_last_answer=False, images=images)
        self._streaming_frame = self._insert(
            ChatMessage("assistant", "…"), -1, is_last_answer=False
        )
        self._scroll_to_end()

    @Slot(str)
    def append_text(self, text: str) -> None:
        """Add streamed text to the answer being written."""
        if self._streaming_frame is None:
            return
        self._streaming_text += text
        self._redraw_streaming()

    @property
    def streaming_text(self) -> str:
        """Text streamed into the current answer so far."""
        return self._streaming_text

    def _redraw_streaming(self) -> None:
        frame = self._streaming_frame
        if frame is None:
            return
        at_end = self._at_end()
        cursor = frame.firstCursorPosition()
        cursor.setPosition(frame.lastPosition(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        self._write_body(cursor, "assistant", self._streaming_text or "…", footer="")
        if at_end:
            self._scroll_to_end()

    # ----- rendering -------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        """Redraw with the new colours when the palette changes (light ↔ dark)."""
        # event(), not changeEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        handled = super().event(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._redraw_all()
        return handled

    def _redraw_all(self) -> None:
        streaming = self._streaming_frame is not None
        self._render_messages()
        self._streaming_frame = None
        if streaming:
            text = self._streaming_text
            self.begin_answer(self._streaming_question, self._streaming_images)
            self._streaming_text = text
            self._redraw_streaming()

    def _insert(
        self,
        message: ChatMessage,
        index: int,
        *,
        is_last_answer: bool,
        images: Sequence[QImage] = (),
    ) -> QTextFrame:
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        frame = cursor.insertFrame(self._frame_format(message.role))
        footer = ""
        content = message.content
        if message.role == "assistant" and index >= 0:
            links = [f'<a href="copy:{index}">Copy</a>', f'<a href="speak:{index}">Speak</a>']
            if is_last_answer:
                links.append('<a href="regenerate">Regenerate</a>')
            stats = html.escape(stats_line(message))
            footer = " · ".join(([stats] if stats else []) + links)
            sources = message_sources(message)
            if sources:
                content = link_citations(content, index, {s.number for s in sources})
                footer = sources_line(sources, index) + "<br>" + footer
        self._write_body(cursor, message.role, content, footer)
        self._write_images(cursor, list(images) or self._stored_thumbnails(message))
        return frame

    def _stored_thumbnails(self, message: ChatMessage) -> list[QImage]:
        """Thumbnails of a stored message's images, each file decoded once (bounded size)."""
        if self._image_path is None:
            return []
        found = []
        for name in message.images:
            if name not in self._thumbnails:
                self._thumbnails[name] = thumbnail_from_file(self._image_path(name), THUMBNAIL)
            if not self._thumbnails[name].isNull():  # a deleted copy: no thumbnail, no error
                found.append(self._thumbnails[name])
        return found

    def _write_images(self, cursor: QTextCursor, images: Sequence[QImage]) -> None:
        if not images:
            return
        _plain_block(cursor)
        for image in images:
            self._image_count += 1
            url = QUrl(f"attachment:{self._image_count}")
            self.document().addResource(QTextDocument.ResourceType.ImageResource, url, image)
            picture = QTextImageFormat()
            picture.setName(url.toString())
            picture.setWidth(image.width())
            picture.setHeight(image.height())
            cursor.insertImage(picture)
            cursor.insertText(" ")

    def _write_body(self, cursor: QTextCursor, role: str, content: str, footer: str) -> None:
        who = "You" if role == "user" else "Assistant"
        heading = QTextCharFormat()
        heading.setFontWeight(QFont.Weight.Bold)
        heading.setForeground(self.palette().color(QPalette.ColorRole.Text))
        cursor.insertText(who, heading)
        _plain_block(cursor)
        if role == "user":
            cursor.insertText(content, QTextCharFormat())  # what the user typed, exactly
        else:
            start = cursor.position()
            cursor.insertMarkdown(content.rstrip())
            self._shade_code_blocks(start, cursor.position())
        if footer:
            _plain_block(cursor)
            muted = muted_color(self.palette()).name()
            cursor.insertHtml(f'<span style="color:{muted}; font-size:small">{footer}</span>')

    def _shade_code_blocks(self, start: int, end: int) -> None:
        """Give fenced code a tinted, indented background: the importer only sets the font."""
        palette = self.palette()
        shade = blend(
            palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text), 0.07
        )
        block = self.document().findBlock(start)
        while block.isValid() and block.position() <= end:
            fmt = block.blockFormat()
            if fmt.hasProperty(QTextFormat.Property.BlockCodeFence) or fmt.nonBreakableLines():
                fmt.setBackground(shade)
                fmt.setLeftMargin(CODE_INDENT)
                fmt.setRightMargin(CODE_INDENT)
                QTextCursor(block).setBlockFormat(fmt)
            block = block.next()

    def _frame_format(self, role: str) -> QTextFrameFormat:
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        accent = palette.color(QPalette.ColorRole.Highlight)
        fmt = QTextFrameFormat()
        fmt.setPadding(10)
        fmt.setTopMargin(6)
        fmt.setBottomMargin(4)
        fmt.setBorder(0)
        # Questions carry a stronger tint than answers: the eye finds turns by colour.
        fmt.setBackground(blend(base, accent, 0.16 if role == "user" else 0.05))
        return fmt

    def _at_end(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 4

    def _scroll_to_end(self) -> None:
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    @Slot(QUrl)
    def _on_anchor(self, url: QUrl) -> None:
        target = url.toString()
        if target.startswith("copy:"):
            index = int(target.split(":", 1)[1])
            if 0 <= index < len(self._messages):
                QGuiApplication.clipboard().setText(self._messages[index].content)
                self.copied.emit()
        elif target.startswith("speak:"):
            index = int(target.split(":", 1)[1])
            if 0 <= index < len(self._messages):
                self.speakRequested.emit(self._messages[index].content)
        elif target == "regenerate":
            self.regenerateRequested.emit()
        elif target.startswith("source:"):
            _, message_text, number_text = target.split(":")
            message_index, number = int(message_text), int(number_text)
            if 0 <= message_index < len(self._messages):
                for source in message_sources(self._messages[message_index]):
                    if source.number == number:
                        self.sourceRequested.emit(source)


def _plain_block(cursor: QTextCursor) -> None:
    """Start a new paragraph that inherits no list, heading or character style."""
    cursor.insertBlock(QTextBlockFormat(), QTextCharFormat())
    current_list = cursor.currentList()
    if current_list is not None:
        current_list.remove(cursor.block())
        cursor.setBlockFormat(QTextBlockFormat())
