"""The Chat panel's input row: the box, the attachments, the Send/Stop button and the box's
error line.

An object the panel creates and holds: it remembers the message sent, so that one which fails
to go is given back to the box, and it checks the attachments before anything is sent.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QPushButton

from app.chat import ChatService, PictureText, PreparedImage, TextOnlyModelError
from app.core import UserError
from ui.a11y import describe
from ui.chat.attachments import AttachmentStrip
from ui.chat.input_box import ChatInput
from ui.chat.thumbnails import rgb_pixels
from ui.i18n import tr
from ui.icons import set_icon
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError


class InputRow(QObject):
    """The input row's widgets and behaviour (the panel lays them out)."""

    imagesRefused = Signal(object)
    """An error about the attachments (one that could not be read, or images the model does
    not take): the panel's error router shows it (field ``images``)."""

    def __init__(
        self,
        chat: ChatService,
        tasks: TaskRunner,
        picture_text: PictureText,
        parent: QObject | None = None,
    ) -> None:
        """Args:
        chat: Says whether the loaded model takes the images attached.
        tasks: Reads the attached images.
        picture_text: Reads the text in an attached picture (*Read the text*).
        parent: The panel.
        """
        super().__init__(parent)
        self._chat = chat
        self.input = ChatInput()
        self.attachments = AttachmentStrip(tasks, picture_text)
        self.send_button = QPushButton(tr("Send"))
        self.send_button.setMinimumWidth(96)
        self.input_error = InlineError()
        self._sent_prompt: str | None = None
        self._sent_images: list[PreparedImage] = []
        self.input.filesPasted.connect(self.attachments.add_paths)
        self.input.imagePasted.connect(self._on_image_pasted)
        self.attachments.failed.connect(self.imagesRefused)
        self.attachments.textRead.connect(self.insert_text)

    def show_send_state(self, generating: bool, blocked: bool) -> None:
        """Send, or Stop while ``generating``; Send is enabled when there is text and nothing
        ``blocked`` it (a model loading or reloading)."""
        if generating:
            self.send_button.setText(tr("Stop"))
            set_icon(self.send_button, "stop")
            describe(self.send_button, tr("Stop"), tr("Stop the answer (Esc)"))
        else:
            self.send_button.setText(tr("Send"))
            set_icon(self.send_button, "send")
            describe(self.send_button, tr("Send"), tr("Send the message (Enter)"))
        ready = self.input.has_text() and not blocked
        self.send_button.setEnabled(generating or ready)

    def images_can_go(self) -> bool:
        """Check the attachments before anything is sent; say why not next to them."""
        self.attachments.clear_error()
        if self.attachments.busy:
            self.attachments.error.show_message(
                tr("The images are still being read; send again in a moment.")
            )
            return False
        try:
            self._chat.check_images(len(self.attachments.images()))
        except UserError as error:  # the draft and the attachments stay
            self.imagesRefused.emit(error)
            if isinstance(error, TextOnlyModelError):
                self.attachments.show_error(error)
            return False
        return True

    def take_message(self) -> tuple[str, list[PreparedImage]]:
        """The typed text and the attached images, remembered as the message being sent."""
        prompt = self.input.toPlainText()
        images = self.attachments.images()
        self._sent_prompt, self._sent_images = prompt, images
        return prompt, images

    def forget_prompt(self) -> None:
        """The turn being answered did not come from the box (regenerate, an edited question,
        a continuation): the box may hold the next question, so a failure leaves it alone."""
        self._sent_prompt = None

    def answered(self) -> None:
        """The message sent was answered: its text is not given back, and its images leave
        the strip unless others were attached meanwhile."""
        self._sent_prompt = None
        if self._sent_images and self.attachments.images() == self._sent_images:
            self.attachments.clear()
        self._sent_images = []

    def restore_prompt(self) -> None:
        """Give the box back the text that failed to go; what was typed meanwhile follows it."""
        sent, self._sent_prompt = self._sent_prompt, None
        if not sent:
            return
        typed = self.input.toPlainText()
        self.input.setPlainText(f"{sent}\n{typed}" if typed.strip() else sent)
        self.input.moveCursor(self.input.textCursor().MoveOperation.End)

    @Slot(str)
    def insert_text(self, text: str) -> None:
        """Put ``text`` into the box at the cursor, on a line of its own after typed text."""
        cursor = self.input.textCursor()
        before = self.input.toPlainText()[: cursor.position()]
        cursor.insertText(("\n" if before and not before.endswith("\n") else "") + text)
        self.input.setTextCursor(cursor)
        self.input.setFocus()

    @Slot(QImage)
    def _on_image_pasted(self, image: QImage) -> None:
        self.attachments.add_pixels(rgb_pixels(image), tr("Pasted image"))
