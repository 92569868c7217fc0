"""The Chat panel's layout: the conversations, the chat column and the generation settings
(shown beside them by *Generation settings* in the chat's options menu)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QMenu,
    QSizePolicy,
    QSplitter,
    QToolButton,
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
from ui.widgets.menu_button import hide_menu_arrow

if TYPE_CHECKING:
    from ui.chat.panel import ChatPanel


def lay_out(panel: ChatPanel) -> QSplitter:
    """Place the panel's widgets: conversations | chat | generation settings, no toolbar.

    The chat is a centred column no wider than :data:`READABLE_WIDTH`, read top to bottom: the
    system prompt line with the options button (hands-free, avatar mode, generation settings),
    the answers, the spoken and avatar modes, the knowledge and tools rows, the model's
    messages, and at the bottom the composer (the attachments, the input, and under it the
    model button, the tools, attach and dictation buttons, the context meter, hands-free and
    Send). Returns the splitter between the three columns.
    """
    readable = QWidget()
    readable.setMaximumWidth(READABLE_WIDTH)
    readable.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    column = QVBoxLayout(readable)
    column.setContentsMargins(0, 0, 0, 0)
    header = QHBoxLayout()
    header.addWidget(panel.system_prompt, 1)
    header.addWidget(panel.options_button, 0, Qt.AlignmentFlag.AlignTop)
    column.addLayout(header)
    column.addWidget(panel.system_prompt.body)  # the editor: the full width
    column.addWidget(panel.centre, 1)
    column.addWidget(panel.hands_free_mode)
    column.addWidget(panel.avatar_mode)
    column.addWidget(panel.speak_bar)
    column.addWidget(panel.save_warning)
    column.addWidget(panel.knowledge)
    column.addWidget(panel.tools)
    column.addWidget(panel.model_picker)  # its error, offer and notes: by its button
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
    layout.addWidget(splitter, 1)
    return splitter


def composer(panel: ChatPanel) -> QFrame:
    """The box a message is written in: attachments, the input, and one row of its actions
    (the model button, tools, attach and dictate on the left; the context meter, hands-free and
    Send, the accent button, on the right)."""
    box = QFrame()
    box.setObjectName(COMPOSER)  # drawn by ui.app_style: one raised, rounded surface
    actions = (
        panel.model_picker.button,
        panel.tools.button,
        panel.attachments.attach_button,
        panel.dictation.button,
    )
    set_type(panel.context_label, TypeScale.CAPTION)
    # The meter takes the room left (it wraps its words, and would take its narrow size
    # hint); the spacer keeps Send on the right while it is hidden (no model).
    meter = panel.context_label
    ends = (panel.hands_free_mode.toggle, panel.send_button)
    buttons = hbox(*actions, 0, (meter, 1), *ends, spacing=Space.S)
    vbox(panel.attachments, panel.input, buttons, parent=box, margins=Space.S, spacing=Space.XS)
    mark_primary(panel.send_button)
    return box


def options_button(panel: ChatPanel) -> QToolButton:
    """The "⋯" button of the chat's header: its menu holds the modes' switches and the
    generation settings' (the actions themselves: checked as they are)."""
    button = QToolButton()
    set_icon(button, "dots-horizontal")
    button.setAutoRaise(True)
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    hide_menu_arrow(button)
    describe(
        button,
        tr("Chat options"),
        tr("Hands-free, avatar mode and the generation settings"),
    )
    menu = QMenu(button)
    menu.setToolTipsVisible(True)
    menu.addActions([panel.hands_free_mode.action, panel.avatar_mode.action])
    menu.addSeparator()
    menu.addAction(panel.generation.show_action)
    button.setMenu(menu)
    return button


def show_side(splitter: QSplitter, side: QWidget, visible: bool) -> None:
    """Show or hide ``side``, the splitter's last column, giving it the width it asks for."""
    side.setVisible(visible)
    sizes = splitter.sizes()
    wanted = side.sizeHint().width()
    if visible and sizes[2] < wanted:  # a splitter gives a hidden widget no width
        splitter.setSizes([sizes[0], max(sizes[1] - wanted, 200), wanted])
