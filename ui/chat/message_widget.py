"""One message of the conversation: who wrote it, its text and code blocks, its actions.

Questions sit on an accent-tinted bubble indented from the left, answers on a plain one
across the width, each under a bold header ("You" or the model's name), so who said what is
seen at a glance. Colours are read from the palette at paint time, so light ↔ dark needs no
rebuild. The widget owns its parts: the :class:`~ui.chat.message_header.MessageHeader` (the
name and the action buttons), the body (prose and code blocks), the notice of a cut answer,
the :class:`~ui.chat.question_editor.QuestionEditor` of a question, and the footer.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import QEvent, QRectF, Qt, QUrl, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QImage,
    QPainter,
    QPaintEvent,
    QPalette,
    QPixmap,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
)

from app.chat import ChatMessage
from app.mcp import ToolCall
from ui.chat.answer_format import json_as_code
from ui.chat.code_block import CodeBlock
from ui.chat.markdown_segments import split_markdown
from ui.chat.message_cut import CutNotice
from ui.chat.message_footer import (
    link_citations,
    message_sources,
    not_grounded_line,
    sources_line,
    stats_line,
)
from ui.chat.message_header import MessageHeader
from ui.chat.prose import Prose
from ui.chat.question_editor import QuestionEditor
from ui.i18n import tr
from ui.mcp.tool_call_view import ToolCallList
from ui.theme import blend, css_color, muted_color, warning_color
from ui.widgets.inline_error import InlineError

USER_INDENT = 64  # questions stand apart from answers by their place as well as their colour


class MessageWidget(QFrame):
    """A message bubble; its signals carry the message's index in the conversation."""

    copyRequested = Signal(int)
    speakRequested = Signal(int)
    regenerateRequested = Signal()
    deleteRequested = Signal(int)
    editSubmitted = Signal(int, str)
    versionRequested = Signal(int, int)  # message index, version position (0-based)
    linkClicked = Signal(QUrl)
    codeCopied = Signal()
    continueRequested = Signal()

    def __init__(
        self,
        message: ChatMessage,
        index: int,
        *,
        is_last_answer: bool = False,
        images: Sequence[QImage] = (),
        assistant_name: str = "",
        can_continue: bool = False,
    ) -> None:
        super().__init__()
        self.can_continue = can_continue
        """Whether the model loaded now can go on with a cut answer (the last one only)."""
        self.message = message
        self.index = index
        self.is_last_answer = is_last_answer
        self.is_user = message.role == "user"
        self.setObjectName("userMessage" if self.is_user else "answerMessage")
        self.body: list[Prose | CodeBlock] = []
        self.thumbnails: list[QLabel] = []
        self.assistant_name = assistant_name
        self._footer_html = ""
        self._footer_warning = ""
        self.header = MessageHeader(self.is_user)
        self.header.triggered.connect(self._on_action)
        self.tool_calls = ToolCallList()  # an answer's tool calls, above its text
        # Why a JSON answer is cut or off its schema: for the live answer only (not stored).
        self.problem = InlineError(warning=True)
        self.cut = CutNotice()  # an answer that reached its length limit
        self.cut.continueRequested.connect(self.continueRequested)
        self.footer = QLabel()
        self.footer.setWordWrap(True)
        self.footer.setTextFormat(Qt.TextFormat.RichText)
        self.footer.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.footer.setOpenExternalLinks(False)
        self.footer.linkActivated.connect(self._on_footer_link)
        self.question_editor = QuestionEditor()  # a question changed in place
        self.question_editor.submitted.connect(self._submit_edit)
        self.question_editor.cancelled.connect(self.stop_editing)
        self._layout(message)
        self.set_message(message, index, is_last_answer=is_last_answer, images=images)

    # ----- building --------------------------------------------------------------------

    @staticmethod
    def _who(message: ChatMessage, assistant_name: str) -> str:
        if message.role == "user":
            return tr("You")
        return message.model or assistant_name or tr("Assistant")

    def _layout(self, message: ChatMessage) -> None:
        self.column = QVBoxLayout()
        self.column.setSpacing(6)
        self.images_row = QHBoxLayout()
        self.images_row.addStretch(1)
        outer = QVBoxLayout(self)
        indent = USER_INDENT if self.is_user else 0
        outer.setContentsMargins(12 + indent, 8, 12, 10)
        outer.setSpacing(4)
        outer.addWidget(self.header)
        outer.addWidget(self.tool_calls)
        outer.addLayout(self.column)
        outer.addWidget(self.cut)
        outer.addWidget(self.problem)
        outer.addWidget(self.question_editor)
        outer.addLayout(self.images_row)
        outer.addWidget(self.footer)

    # ----- content ---------------------------------------------------------------------

    def set_message(
        self,
        message: ChatMessage,
        index: int,
        *,
        is_last_answer: bool = False,
        images: Sequence[QImage] = (),
    ) -> None:
        """Show ``message`` (the ``index``-th of the conversation; -1: not stored yet)."""
        self.message, self.index, self.is_last_answer = message, index, is_last_answer
        self.problem.clear()  # it was said of the answer as it was just written
        self.header.name.setText(self._who(message, self.assistant_name))
        stored = index >= 0
        self.header.show_for(message, stored=stored, is_last_answer=is_last_answer)
        if not self.is_user:
            self.tool_calls.set_calls(message.tool_calls)
        footer = warning = ""
        content = message.content
        if not self.is_user and stored:
            sources = message_sources(message)
            if sources:
                content = link_citations(content, index, {s.number for s in sources})
                footer = sources_line(sources, index, message.sources_left_out)
            elif message.sources_left_out:  # knowledge was on, but nothing matched enough
                warning = _escape(not_grounded_line(message.sources_left_out))
            stats = stats_line(message)
            if stats:
                footer = f"{footer}<br>{_escape(stats)}" if footer else _escape(stats)
        self.set_content(content)
        self._footer_html = footer
        self._footer_warning = warning
        self._show_footer()
        self._set_images(images)
        self._show_cut()

    def set_can_continue(self, can_continue: bool) -> None:
        """Whether the loaded model can go on with a cut answer (another model was loaded)."""
        self.can_continue = can_continue
        self._show_cut()

    def _show_cut(self) -> None:
        answer = self.message if not self.is_user and self.index >= 0 else None
        self.cut.show_for(answer, can_continue=self.can_continue and self.is_last_answer)

    def _show_footer(self) -> None:
        footer, warning = self._footer_html, self._footer_warning
        muted = css_color(muted_color(self.palette()))
        parts = []
        if warning:
            amber = css_color(warning_color(self.palette()))
            parts.append(f'<span style="color:{amber}">{warning}</span>')
        if footer:
            parts.append(f'<span style="color:{muted}">{footer}</span>')
        self.footer.setText("<br>".join(parts))
        self.footer.setVisible(bool(parts))

    def changeEvent(self, event: QEvent) -> None:
        """Colour the footer and the cut notice again on a theme switch (their muted colour
        is baked into them)."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._show_footer()
            self.cut.recolor(self.palette())

    def set_content(self, content: str) -> None:
        """Show ``content``: typed text exactly; an answer as Markdown with its code blocks as
        widgets. Parts that did not change are left alone (streaming redoes only the tail)."""
        if self.is_user:
            parts: list[tuple[str, str | None]] = [(content, None)]
        else:
            shown = json_as_code(content)  # a JSON answer reads as code
            parts = [(s.text, s.language) for s in split_markdown(shown)] or [("", None)]
        for position, (text, language) in enumerate(parts):
            widget = self.body[position] if position < len(self.body) else None
            if language is None and isinstance(widget, Prose):
                widget.set_plain(text) if self.is_user else widget.set_markdown(text)
            elif (
                language is not None
                and isinstance(widget, CodeBlock)
                and (widget.language == language)
            ):
                widget.set_code(text)
            else:
                self._truncate_body(position)
                self._append_part(text, language)
        self._truncate_body(len(parts))

    def add_tool_call(self, call: ToolCall) -> None:
        """Show a call made while this answer is being written."""
        self.tool_calls.add_call(call)

    def _append_part(self, text: str, language: str | None) -> None:
        part: Prose | CodeBlock
        if language is None:
            part = Prose()
            part.linkClicked.connect(self.linkClicked)
            if self.is_user:
                part.set_plain(text)
            else:
                part.set_markdown(text)
        else:
            part = CodeBlock(text, language)
            part.copied.connect(self.codeCopied)
        self.body.append(part)
        self.column.addWidget(part)

    def _truncate_body(self, keep: int) -> None:
        while len(self.body) > keep:
            part = self.body.pop()
            self.column.removeWidget(part)
            part.deleteLater()

    def _set_images(self, images: Sequence[QImage]) -> None:
        for label in self.thumbnails:
            self.images_row.removeWidget(label)
            label.deleteLater()
        self.thumbnails = []
        for image in images:
            label = QLabel()
            label.setPixmap(QPixmap.fromImage(image))
            label.setAccessibleName(tr("Attached image") if self.is_user else tr("Drawn picture"))
            self.images_row.insertWidget(self.images_row.count() - 1, label)
            self.thumbnails.append(label)

    def plain_text(self) -> str:
        """The message as read on screen: header, text, code and footer lines."""
        lines = [self.header.name.text()]
        if self.tool_calls.blocks:
            lines.append(self.tool_calls.plain_text())
        for part in self.body:
            lines.append(part.code if isinstance(part, CodeBlock) else part.toPlainText())
        if self.cut.isVisibleTo(self):
            lines.append(self.cut.label.text())
        if self.problem.isVisibleTo(self):
            lines.append(self.problem.text())
        if self.footer.isVisibleTo(self) and self.footer.text():
            lines.append(_plain(self.footer.text()))
        return "\n".join(lines)

    def html(self) -> str:
        """The message's rendered HTML (prose, footer links), for tests and export."""
        parts = [p.toHtml() for p in self.body if isinstance(p, Prose)]
        return "\n".join([*parts, self.footer.text()])

    # ----- look ------------------------------------------------------------------------

    def background(self) -> QColor:
        """The bubble's colour in the current palette."""
        palette = self.palette()
        base = palette.color(QPalette.ColorRole.Base)
        if self.is_user:
            return blend(base, palette.color(QPalette.ColorRole.Highlight), 0.16)
        return blend(base, palette.color(QPalette.ColorRole.Text), 0.04)

    def paintEvent(self, event: QPaintEvent) -> None:
        """A rounded bubble behind the message."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.background())
        indent = USER_INDENT if self.is_user else 0
        painter.drawRoundedRect(QRectF(self.rect().adjusted(indent, 0, 0, 0)), 10, 10)
        painter.end()

    # ----- actions ---------------------------------------------------------------------

    def set_actions_enabled(self, enabled: bool) -> None:
        """Edit, delete, regenerate, continue and version switches are off while an answer
        streams."""
        self.header.set_actions_enabled(enabled, self.message)
        self.question_editor.send_button.setEnabled(enabled)
        self.cut.button.setEnabled(enabled)

    @Slot(str)
    def _on_action(self, key: str) -> None:
        """A header button was clicked: say so with this message's index."""
        if key == "copy":
            self.copyRequested.emit(self.index)
        elif key == "speak":
            self.speakRequested.emit(self.index)
        elif key == "regenerate":
            self.regenerateRequested.emit()
        elif key == "delete":
            self.deleteRequested.emit(self.index)
        elif key in ("previous", "next"):
            step = -1 if key == "previous" else 1
            self.versionRequested.emit(self.index, self.message.version + step)
        elif key == "edit":
            for part in self.body:
                part.hide()
            self.question_editor.edit(self.message.content)

    @Slot()
    def stop_editing(self) -> None:
        """Leave the editor; the question shows as it was."""
        self.question_editor.hide()
        for part in self.body:
            part.show()

    @Slot(str)
    def _submit_edit(self, text: str) -> None:
        self.editSubmitted.emit(self.index, text)

    @Slot(str)
    def _on_footer_link(self, link: str) -> None:
        self.linkClicked.emit(QUrl(link))


def _escape(text: str) -> str:
    return html.escape(text)


def _plain(rich: str) -> str:
    document = QTextDocument()
    document.setHtml(rich)
    return document.toPlainText()
