"""The Chat panel's input row: the box, the attachments, and the Send/Stop button.

Mixed into :class:`ui.chat.panel.ChatPanel`; a message that fails to go is given back to the
box, and attachments are checked before anything is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Slot
from PySide6.QtGui import QImage

from app.chat import TextOnlyModelError
from app.core import UserError
from ui.a11y import describe
from ui.chat.thumbnails import rgb_pixels
from ui.i18n import tr
from ui.icons import set_icon

if TYPE_CHECKING:
    from PySide6.QtWidgets import QPushButton

    from app.context import AppContext
    from ui.chat.attachments import AttachmentStrip
    from ui.chat.generation_panel import GenerationPanel
    from ui.chat.input_box import ChatInput
    from ui.chat.model_loader import ModelLoader
    from ui.shell.error_router import ErrorRouter


class InputWiring:
    """The input row's behaviour (the panel owns the widgets)."""

    ctx: AppContext
    input: ChatInput
    attachments: AttachmentStrip
    send_button: QPushButton
    errors: ErrorRouter
    loader: ModelLoader
    generation: GenerationPanel
    _sent_prompt: str | None

    if TYPE_CHECKING:  # the panel's own, used here

        @property
        def generating(self) -> bool: ...
        def send(self) -> None: ...
        def stop(self) -> None: ...

    @Slot()
    def _on_send_clicked(self) -> None:
        if self.generating:
            self.stop()
        else:
            self.send()

    @Slot()
    def _update_send_state(self) -> None:
        if self.generating:
            self.send_button.setText(tr("Stop"))
            set_icon(self.send_button, "stop")
            describe(self.send_button, tr("Stop"), tr("Stop the answer (Esc)"))
        else:
            self.send_button.setText(tr("Send"))
            set_icon(self.send_button, "send")
            describe(self.send_button, tr("Send"), tr("Send the message (Enter)"))
        ready = self.input.has_text() and not self.loader.loading
        ready = ready and not self.generation.performance.reloading
        self.send_button.setEnabled(self.generating or ready)

    def _images_can_go(self) -> bool:
        """Check the attachments before anything is sent; say why not next to them."""
        self.attachments.clear_error()
        if self.attachments.busy:
            self.attachments.error.show_message(
                tr("The images are still being read; send again in a moment.")
            )
            return False
        try:
            self.ctx.chat.check_images(len(self.attachments.images()))
        except UserError as error:  # the draft and the attachments stay
            self.errors.show(error, default_field="images")
            if isinstance(error, TextOnlyModelError):
                self.attachments.show_error(error)
            return False
        return True

    @Slot(QImage)
    def _on_image_pasted(self, image: QImage) -> None:
        self.attachments.add_pixels(rgb_pixels(image), tr("Pasted image"))

    @Slot(object)
    def _on_attachment_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="images")

    def _restore_prompt(self) -> None:
        """Give the box back the text that failed to go; what was typed meanwhile follows it."""
        sent, self._sent_prompt = self._sent_prompt, None
        if not sent:
            return
        typed = self.input.toPlainText()
        self.input.setPlainText(f"{sent}\n{typed}" if typed.strip() else sent)
        self.input.moveCursor(self.input.textCursor().MoveOperation.End)
