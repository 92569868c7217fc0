"""What the per-message buttons do: edit and resend a question, delete a message, switch an
answer's version, continue an answer cut at its length limit, copy an answer, open a cited
source. The panel owns the answer loop; this wires the view's requests to it (its public
methods) and to the chat service (``app.chat.conversations``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Slot

from app.core import UserError
from app.knowledge import Source
from ui.i18n import tr
from ui.widgets.open_document import open_document

if TYPE_CHECKING:
    from ui.chat.panel import ChatPanel


class MessageActions(QObject):
    """Connects a chat panel's view to the edits of its conversation."""

    def __init__(self, panel: ChatPanel) -> None:
        super().__init__(panel)
        self._panel = panel
        view = panel.view
        view.editRequested.connect(self.resend)
        view.deleteRequested.connect(self.delete)
        view.versionRequested.connect(self.choose_version)
        view.continueRequested.connect(self.continue_answer)
        view.copied.connect(self._on_copied)
        view.sourceRequested.connect(self.open_source)

    def _idle(self) -> bool:
        panel = self._panel
        return not panel.generating and not panel.loader.loading

    @Slot(int, str)
    def resend(self, index: int, text: str) -> None:
        """Send ``text`` in place of question ``index``; the turns after it are replaced by
        the new answer once it succeeds (a failure shows the conversation as it was)."""
        panel = self._panel
        if not self._idle() or not text.strip():
            return
        panel.input_error.clear()
        panel.save_warning.clear()
        if not panel.system_prompt.commit():
            return
        conversation = panel.chat.get(panel.current_conversation_id())
        panel.input_row.forget_prompt()
        panel.view.show_messages(conversation.messages[:index])
        panel.view.begin_answer(text, panel.view.stored_thumbnails(conversation.messages[index]))
        panel.start_answer(
            panel.chat.resend,
            panel.current_conversation_id(),
            index,
            text,
            confirm_tool=panel.tool_confirmer.ask,
        )

    @Slot()
    def continue_answer(self) -> None:
        """Go on with the last answer, cut at its length limit: the rest streams into the same
        answer (a failure shows it as it was)."""
        panel = self._panel
        conversation = panel.chat.get(panel.current_conversation_id())
        messages = conversation.messages
        if not self._idle() or not messages or not messages[-1].cut:
            return
        panel.input_error.clear()
        panel.save_warning.clear()
        panel.input_row.forget_prompt()
        panel.view.show_messages(messages[:-1])
        panel.view.begin_continuation(messages[-1].content)
        panel.start_answer(panel.chat.continue_answer, panel.current_conversation_id())

    @Slot(int)
    def delete(self, index: int) -> None:
        """Delete message ``index`` (a question with its answer; one version of an answer)."""
        if not self._idle():
            return
        chat = self._panel.chat
        self._apply(lambda conversation_id: chat.delete_message(conversation_id, index))

    @Slot(int, int)
    def choose_version(self, index: int, position: int) -> None:
        """Show version ``position`` of answer ``index``."""
        if not self._idle():
            return
        chat = self._panel.chat
        self._apply(lambda conversation_id: chat.choose_version(conversation_id, index, position))

    def _apply(self, change: Callable[[str], object]) -> None:
        panel = self._panel
        try:
            change(panel.current_conversation_id())
        except UserError as error:
            panel.errors.show(error, default_field="prompt")
        panel.show_current()

    @Slot(object)
    def open_source(self, source: Source) -> None:
        """Open a cited document (at its page for PDFs); a missing file is said, not raised."""
        problem = open_document(Path(source.path), source.page)
        if problem:
            self._panel.statusMessage.emit(problem)

    @Slot()
    def _on_copied(self) -> None:
        self._panel.statusMessage.emit(tr("Answer copied."))
