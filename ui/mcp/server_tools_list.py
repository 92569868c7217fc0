"""The Tools (MCP) window's list of one server's tools, each ticked when it runs without asking.

The list shows what the server's last test listed, plus any allowed tool it no longer lists (so
an allowance can still be taken back). Ticking a tool changes the draft's ``allowed`` at once;
Save in the window writes it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QLabel, QListWidget, QListWidgetItem, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.mcp.server_draft import ServerDraft
from ui.widgets.layouts import vbox


def listed_title() -> str:
    """The title over a server's listed tools."""
    return tr("Tools (ticked: runs without asking):")


class ServerToolList(QWidget):
    """A title and the tools of the server being edited (hidden list when it has none)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._draft: ServerDraft | None = None
        self.title = QLabel(listed_title())
        # Top: with no list under it, the title has the whole height and sat in its middle.
        self.title.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.list = QListWidget()
        self.list.setMinimumHeight(120)
        # A long description wraps: the list never scrolls sideways.
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        describe(
            self.list,
            tr("This tool server's tools"),
            tr("Tick a tool to let it run without asking you first."),
        )
        column = vbox(self.title, parent=self, margins=0)
        column.addWidget(self.list, 1)
        self.list.itemChanged.connect(self._on_tool_ticked)

    def show_draft(self, draft: ServerDraft | None) -> None:
        """``draft``'s tools (listed by a test, or known), ticked when allowed."""
        self._draft = draft
        self.list.blockSignals(True)
        self.list.clear()
        if draft is not None:
            listed = {t.name: t for t in draft.tools or []}
            for name in dict.fromkeys([*listed, *draft.allowed]):
                info = listed.get(name)
                about = info.description if info else tr("not listed by its last test")
                item = QListWidgetItem(f"{name} — {about}" if about else name)
                item.setData(Qt.ItemDataRole.UserRole, name)
                item.setToolTip(about)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                allowed = name in draft.allowed
                item.setCheckState(Qt.CheckState.Checked if allowed else Qt.CheckState.Unchecked)
                self.list.addItem(item)
        self.list.blockSignals(False)
        empty = self.list.count() == 0
        self.title.setText(
            tr("Test the tool server to list its tools.") if empty else listed_title()
        )
        self.list.setVisible(not empty)

    @Slot(QListWidgetItem)
    def _on_tool_ticked(self, item: QListWidgetItem) -> None:
        draft = self._draft
        name = item.data(Qt.ItemDataRole.UserRole)
        if draft is None or not isinstance(name, str):
            return
        allowed = [n for n in draft.allowed if n != name]
        if item.checkState() == Qt.CheckState.Checked:
            allowed.append(name)
        draft.allowed = allowed
