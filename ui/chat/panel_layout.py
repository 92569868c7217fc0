"""The Chat panel's layout: the conversations, the chat column and the generation settings
(shown beside them by the "Generation…" button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSplitter, QVBoxLayout, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.layouts import hbox, panel_splitter

if TYPE_CHECKING:
    from ui.chat.panel import ChatPanel


def lay_out(panel: ChatPanel) -> QSplitter:
    """Place the panel's widgets: the model row on top, then conversations | chat | settings.

    The chat column reads top to bottom: the system prompt row, the answers, the spoken and
    avatar modes, the knowledge and tools rows, the attachments and the input row. Returns the
    splitter between the three columns.
    """
    centre = QWidget()
    column = QVBoxLayout(centre)
    column.setContentsMargins(0, 0, 0, 0)
    header = QHBoxLayout()
    header.addWidget(panel.system_prompt, 1)
    header.addWidget(panel.hands_free_mode.toggle, 0, Qt.AlignmentFlag.AlignTop)
    header.addWidget(panel.avatar_mode.toggle, 0, Qt.AlignmentFlag.AlignTop)
    header.addWidget(panel.settings_button, 0, Qt.AlignmentFlag.AlignTop)
    column.addLayout(header)
    column.addWidget(panel.system_prompt.body)  # the editor: the full width
    column.addWidget(panel.centre, 1)
    column.addWidget(panel.hands_free_mode)
    column.addWidget(panel.avatar_mode)
    column.addWidget(panel.speak_bar)
    column.addWidget(panel.save_warning)
    column.addWidget(panel.knowledge)
    column.addWidget(panel.tools)
    column.addWidget(panel.attachments)
    bottom = Qt.AlignmentFlag.AlignBottom
    buttons = (
        panel.tools.button,
        panel.attachments.attach_button,
        panel.dictation.button,
        panel.send_button,
    )
    column.addLayout(hbox((panel.input, 1), *((button, 0, bottom) for button in buttons)))
    column.addWidget(panel.input_error)
    column.addWidget(panel.context_label)
    column.addWidget(panel.dictation)
    parts = [panel.conversations, centre, panel.generation]
    splitter = panel_splitter(parts, [210, 800, 0], stretch={1: 1})
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(panel.model_picker)
    layout.addWidget(splitter, 1)
    return splitter


def generation_button() -> QPushButton:
    """The "Generation…" toggle that shows the generation settings beside the chat."""
    button = QPushButton(tr("Generation…"))
    button.setCheckable(True)
    set_icon(button, "tune-variant")
    describe(
        button,
        tr("Generation settings"),
        tr("Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model"),
    )
    return button


def show_side(splitter: QSplitter, side: QWidget, visible: bool) -> None:
    """Show or hide ``side``, the splitter's last column, giving it the width it asks for."""
    side.setVisible(visible)
    sizes = splitter.sizes()
    wanted = side.sizeHint().width()
    if visible and sizes[2] < wanted:  # a splitter gives a hidden widget no width
        splitter.setSizes([sizes[0], max(sizes[1] - wanted, 200), wanted])
