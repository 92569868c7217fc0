"""The Chat panel's layout: the conversations, the chat column and the generation settings
(shown beside them by the "Generation…" button)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ui.a11y import describe
from ui.app_style import (
    COMPOSER,
    READABLE_WIDTH,
    Space,
    TypeScale,
    mark_primary,
    set_type,
)
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.layouts import hbox, panel_splitter, vbox

if TYPE_CHECKING:
    from ui.chat.panel import ChatPanel


def lay_out(panel: ChatPanel) -> QSplitter:
    """Place the panel's widgets: the model row on top, then conversations | chat | settings.

    The chat is a centred column no wider than :data:`READABLE_WIDTH`, read top to bottom: the
    system prompt row, the answers, the spoken and avatar modes, the knowledge and tools rows,
    and at the bottom the composer (the attachments, the input, and under it the tools, attach
    and dictation buttons, the context meter and Send). Returns the splitter between the three
    columns.
    """
    readable = QWidget()
    readable.setMaximumWidth(READABLE_WIDTH)
    readable.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    column = QVBoxLayout(readable)
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
    column.addWidget(composer(panel))
    column.addWidget(panel.input_error)
    column.addWidget(panel.dictation)
    centre = QWidget()  # the room between the conversations and the settings
    # Centred by two stretches (an alignment would hold the column at its size hint): the
    # column takes the room up to its maximum, the stretches share what is left.
    row = hbox(0, (readable, 1), 0, margins=0, spacing=0)
    centre.setLayout(row)
    parts = [panel.conversations, centre, panel.generation]
    splitter = panel_splitter(parts, [210, 800, 0], stretch={1: 1})
    layout = QVBoxLayout(panel)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(panel.model_picker)
    layout.addWidget(splitter, 1)
    return splitter


def composer(panel: ChatPanel) -> QFrame:
    """The box a message is written in: attachments, the input, and one row of its actions
    (tools, attach, dictate on the left; the context meter and Send, the accent button, on the
    right)."""
    box = QFrame()
    box.setObjectName(COMPOSER)  # drawn by ui.app_style: one raised, rounded surface
    actions = (panel.tools.button, panel.attachments.attach_button, panel.dictation.button)
    set_type(panel.context_label, TypeScale.CAPTION)
    # A stretch of its own (the meter is hidden with no model, and the buttons keep their size)
    # and one for the meter (it wraps its words, and would take its narrow size hint).
    meter = panel.context_label
    buttons = hbox(*actions, 1, (meter, 1), panel.send_button, spacing=Space.S)
    vbox(panel.attachments, panel.input, buttons, parent=box, margins=Space.S, spacing=Space.XS)
    mark_primary(panel.send_button)
    return box


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
