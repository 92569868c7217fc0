"""An answer's tool calls, shown above its text: one compact block per call.

Each block is one header line — which tool ran ("🔧 server/tool"), how it ended (done, failed,
refused), how long it took, and *Show all* when anything is cut — then the arguments (one line
when short, else indented JSON) and the first two lines of the result, each beside its title.
Everything a tool (or the model) wrote is shown as plain text — labels in ``PlainText`` format —
so a result holding HTML or Markdown is read, never rendered.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QLocale, Qt, Slot
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.mcp import ToolCall
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import icon, set_icon
from ui.theme import blend, error_color, muted_color

RESULT_LINES = 2
"""Lines of a result shown before *Show all*."""
ARGUMENT_LINES = 4
"""Lines of long (indented) arguments shown before *Show all*."""
ONE_LINE_CHARS = 100
"""Arguments up to this long as one line of JSON are shown on one line."""
LINE_CHARS = 160
"""A line longer than this is cut in the short view (a one-line JSON blob of 20 kB)."""


def status_text(call: ToolCall) -> str:
    """How the call ended, as the block's header says it."""
    return {
        "done": tr("done"),
        "failed": tr("failed"),
        "refused": tr("not run: you declined"),
    }.get(call.status, call.status)


def pretty_arguments(arguments: dict[str, Any]) -> str:
    """The arguments as indented JSON (``{}`` when there are none)."""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)


def compact_arguments(arguments: dict[str, Any]) -> str:
    """The arguments on one line when short (``{"a": 17, "b": 23}``), else indented."""
    line = json.dumps(arguments, ensure_ascii=False, default=str)
    return line if len(line) <= ONE_LINE_CHARS else pretty_arguments(arguments)


def shortened(text: str, lines: int) -> tuple[str, bool]:
    """The first ``lines`` lines of ``text`` (each cut at :data:`LINE_CHARS`), and whether
    anything was left out."""
    all_lines = text.splitlines() or [""]
    kept = [
        line if len(line) <= LINE_CHARS else f"{line[:LINE_CHARS]}…" for line in all_lines[:lines]
    ]
    cut = len(all_lines) > lines or any(len(line) > LINE_CHARS for line in all_lines[:lines])
    if len(all_lines) > lines:
        kept.append("…")
    return "\n".join(kept), cut


def _plain_label(text: str = "", *, mono: bool = False) -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)  # tool output is data, never markup
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if mono:
        label.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    label.setText(text)
    return label


class ToolCallBlock(QFrame):
    """One call: header (tool, status, duration), arguments, result; expandable."""

    def __init__(self, call: ToolCall, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.call = call
        self.setObjectName("toolCall")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.expanded = False
        # An icon, not the 🔧 character: not every system font has that glyph.
        self.wrench = QLabel()
        self.wrench.setPixmap(icon("wrench").pixmap(16, 16))
        self.wrench.setAccessibleName(tr("Tool call"))
        self.header = _plain_label(call.tool)
        bold = self.header.font()
        bold.setBold(True)
        self.header.setFont(bold)
        self.header.setWordWrap(False)
        self.state = QLabel()
        self.state.setWordWrap(False)
        self.toggle = QToolButton()
        self.toggle.setAutoRaise(True)
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.toggled.connect(self._on_toggled)
        self.arguments_title = QLabel()
        self.arguments = _plain_label(mono=True)
        self.result_title = QLabel()
        # Our own words, in the muted (or error) colour: kept here, drawn as coloured rich text
        # (a colour in a label's palette is overridden by the application style sheet's).
        self.titles = {
            self.state: self._state_text(),
            self.arguments_title: tr("Arguments"),
            self.result_title: self._result_title(),
        }
        self.result = _plain_label(mono=True)
        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setSpacing(6)
        header.addWidget(self.wrench)
        header.addWidget(self.header)
        header.addWidget(self.state, 1)
        header.addWidget(self.toggle)
        # Titles in a narrow column, values beside them: a short call takes three lines.
        grid = QGridLayout()
        grid.setContentsMargins(22, 0, 0, 0)  # under the tool's name, past the wrench
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(1)
        top = Qt.AlignmentFlag.AlignTop
        grid.addWidget(self.arguments_title, 0, 0, top)
        grid.addWidget(self.arguments, 0, 1)
        grid.addWidget(self.result_title, 1, 0, top)
        grid.addWidget(self.result, 1, 1)
        grid.setColumnStretch(1, 1)
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 3, 8, 4)
        column.setSpacing(1)
        column.addLayout(header)
        column.addLayout(grid)
        self._color_titles()
        self._show()

    def _state_text(self) -> str:
        seconds = self.call.duration_ms / 1000.0
        took = (
            tr("{seconds} s").format(seconds=QLocale().toString(seconds, "f", 1))
            if seconds >= 1
            else tr("{ms} ms").format(ms=round(self.call.duration_ms))
        )
        return tr("{status} · {took}").format(status=status_text(self.call), took=took)

    def _result_title(self) -> str:
        if self.call.status == "failed":
            return tr("What went wrong")
        if self.call.status == "refused":
            return tr("Why it did not run")
        return tr("Result")

    def _color_titles(self) -> None:
        palette = self.palette()
        # The placeholder colour is often translucent; rich text takes an opaque one.
        translucent = muted_color(palette)
        background = palette.color(self.backgroundRole())
        muted = blend(background, QColor(translucent.rgb()), translucent.alphaF()).name()
        failed = error_color(palette).name() if self.call.status == "failed" else muted
        self.wrench.setPixmap(icon("wrench").pixmap(16, 16))  # drawn in the palette's colours
        for label, text in self.titles.items():
            colour = failed if label is self.state else muted
            label.setText(f'<span style="color:{colour}">{html.escape(text)}</span>')

    def event(self, event: QEvent) -> bool:
        """Colour the muted titles again on a light ↔ dark switch."""
        # event(), not changeEvent(): see ui.widgets.inline_error.InlineError.event (PySide6
        # 6.12.0).
        handled = super().event(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self._color_titles()
        return handled

    def _show(self) -> None:
        arguments = compact_arguments(self.call.arguments)
        result = self.call.result or tr("(nothing)")
        short_arguments, cut_arguments = shortened(arguments, ARGUMENT_LINES)
        short_result, cut_result = shortened(result, RESULT_LINES)
        long = cut_arguments or cut_result
        self.arguments.setText(arguments if self.expanded else short_arguments)
        self.result.setText(result if self.expanded else short_result)
        self.toggle.setVisible(long)
        if self.expanded:
            self.toggle.setText(tr("Show less"))
            set_icon(self.toggle, "chevron-up")
            describe(self.toggle, tr("Show less"), tr("Show only the first lines of this call"))
        else:
            self.toggle.setText(tr("Show all"))
            set_icon(self.toggle, "chevron-down")
            describe(
                self.toggle,
                tr("Show all"),
                tr("Show the whole arguments and result of this call"),
            )

    @Slot(bool)
    def _on_toggled(self, expanded: bool) -> None:
        self.expanded = expanded
        self._show()

    def plain_text(self) -> str:
        """The block as read on screen."""
        return "\n".join(
            [f"🔧 {self.header.text()}"]
            + [
                self.titles.get(label, label.text())
                for label in (
                    self.state,
                    self.arguments_title,
                    self.arguments,
                    self.result_title,
                    self.result,
                )
            ]
        )


class ToolCallList(QWidget):
    """The calls of one answer, in order; hidden when there are none."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.blocks: list[ToolCallBlock] = []
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(0, 0, 0, 2)
        self._column.setSpacing(4)
        self.hide()

    def set_calls(self, stored: Sequence[dict[str, Any]]) -> None:
        """Show the calls stored with an answer (malformed ones are skipped)."""
        calls = [call for call in map(ToolCall.from_dict, stored) if call is not None]
        if [block.call for block in self.blocks] == calls:
            return  # unchanged: keep the blocks (and what the user expanded)
        for block in self.blocks:
            self._column.removeWidget(block)
            block.deleteLater()
        self.blocks = []
        for call in calls:
            self.add_call(call)
        self.setVisible(bool(self.blocks))

    def add_call(self, call: ToolCall) -> None:
        """Add a block for ``call`` (a call made while the answer is being written)."""
        block = ToolCallBlock(call)
        self._column.addWidget(block)
        self.blocks.append(block)
        self.show()

    def plain_text(self) -> str:
        """Every block as read on screen ("" when there are none)."""
        return "\n".join(block.plain_text() for block in self.blocks)
