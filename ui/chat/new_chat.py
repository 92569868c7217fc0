"""A new chat with a model loaded: instead of an empty area, ways to start.

:class:`NewChatPage` shows one sentence and the starters of :mod:`ui.chat.starters` as
buttons. :class:`NewChat` (created by the Chat panel) puts the page in the chat's centre,
offers the starters that suit the model loaded, the chat's tools and this install, and does
what a chosen one says: send its prompt, leave it in the box to be finished, pick an image
for it, turn knowledge on, or open the microphone — each as the user would by hand.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QWidget

from app.core import UserError, audio_devices
from app.mcp import split_tool_id
from ui.a11y import describe
from ui.chat.model_text import model_name
from ui.chat.starters import Abilities, Action, Starter, starters
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.layouts import hbox, vbox

if TYPE_CHECKING:
    from ui.chat.panel import ChatPanel

PAGE_WIDTH = 560
"""The column of starters: readable, and inside the chat's centre at 1024 pixels."""


def ask_sentence(model: str) -> str:
    """The page's sentence: whom to ask, and how."""
    return tr("Ask {model} anything, or start with one of these.").format(model=model)


class NewChatPage(QScrollArea):
    """The sentence and one button per starter."""

    chosen = Signal(object)  # the Starter clicked

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("newChatPage")
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.sentence = QLabel()
        self.sentence.setWordWrap(True)
        self.sentence.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.buttons: list[QPushButton] = []
        self.starters: list[Starter] = []
        self._column = QWidget()
        self._column.setMaximumWidth(PAGE_WIDTH)
        self._list = vbox(margins=0, spacing=8)  # the prompts, one under the other
        self._ways = hbox(margins=0, spacing=8)  # documents, talking: side by side below
        vbox(self.sentence, self._list, self._ways, parent=self._column, margins=16, spacing=16)
        outer = QWidget()
        vbox(1, hbox(1, (self._column, 4), 1, margins=0), 2, parent=outer, margins=0)
        self.setWidget(outer)

    def show_starters(self, model: str, offered: list[Starter]) -> None:
        """Say whom to ask and offer ``offered`` (the buttons are made again)."""
        self.sentence.setText(ask_sentence(model))
        for layout in (self._list, self._ways):
            while (item := layout.takeAt(0)) is not None:
                if (widget := item.widget()) is not None:
                    widget.deleteLater()
        self.starters = list(offered)
        self.buttons = []
        for starter in offered:
            button = QPushButton(starter.title)
            button.setObjectName("starterPrompt")  # styled as a card by ui.app_style
            set_icon(button, starter.icon)
            describe(button, starter.title, starter.prompt or starter.title)
            button.clicked.connect(partial(self.chosen.emit, starter))
            prompt = starter.action not in (Action.USE_KNOWLEDGE, Action.DICTATE)
            (self._list if prompt else self._ways).addWidget(button)
            self.buttons.append(button)
        self._ways.insertStretch(0, 1)
        self._ways.addStretch(1)

    def titles(self) -> list[str]:
        """The buttons' words, top to bottom."""
        return [button.text() for button in self.buttons]


class NewChat(QObject):
    """The Chat panel's new-chat page: what it offers, and what a choice does."""

    def __init__(self, panel: ChatPanel) -> None:
        super().__init__(panel)
        self._panel = panel
        self.page = NewChatPage()
        panel.centre.addWidget(self.page)
        panel.model.set_new_chat_page(self.page)
        self.page.chosen.connect(self.choose)
        panel.modelLoaded.connect(self.refresh)
        panel.conversations.currentChanged.connect(self.refresh)
        panel.tools.changed.connect(self.refresh)
        panel.knowledge.changed.connect(self.refresh)
        panel.busyChanged.connect(panel.model.update_welcome)  # a question sent: the view

    def abilities(self) -> Abilities:
        """What the loaded model and this install can do in the chat on screen."""
        panel = self._panel
        loaded = panel.chat.loaded_model
        tools = tuple(split_tool_id(tool)[1] for tool in panel.tools.enabled_tools)
        return Abilities(
            vision=loaded is not None and loaded.vision,
            tools=tools,
            knowledge=not panel.knowledge.selected,
            listening=self._can_listen(),
        )

    def _can_listen(self) -> bool:
        """A speech-to-text model is installed and a microphone is there."""
        try:
            self._panel.dictation.speech_input.model_folder()
        except UserError:
            return False
        return bool(audio_devices.input_devices())

    @Slot()
    def refresh(self) -> None:
        """Offer the starters for the model loaded and the chat on screen."""
        loaded = self._panel.chat.loaded_model
        if loaded is None:
            return
        name = loaded.remote_model or model_name(loaded.model_path)
        self.page.show_starters(name, starters(self.abilities()))
        self._panel.model.update_welcome()

    @Slot(object)
    def choose(self, starter: Starter) -> None:
        """Do what ``starter`` says, as the user would by hand."""
        panel = self._panel
        if starter.action is Action.SEND:
            panel.send_text(starter.prompt)
        elif starter.action is Action.USE_KNOWLEDGE:
            self._use_knowledge()
        elif starter.action is Action.DICTATE:
            panel.input.setFocus()
            panel.dictation.start()
        else:  # the prompt waits in the box, to be finished (or sent with the image)
            panel.input.setPlainText(starter.prompt)
            panel.input.moveCursor(QTextCursor.MoveOperation.End)
            panel.input.setFocus()
            if starter.action is Action.ATTACH_IMAGE:
                panel.attachments.choose_files()

    def _use_knowledge(self) -> None:
        """Knowledge on for this chat; with no collection yet, the Knowledge panel, where
        documents are added."""
        picker = self._panel.knowledge
        if picker.known_collections() == []:
            self._panel.panelRequested.emit("Knowledge")
            return
        picker.toggle.setChecked(True)  # chooses the first collection once they are listed
        self._panel.input.setFocus()
