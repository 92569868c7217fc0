"""The chat's Tools button: which MCP tools the model may call in this conversation.

The button (in the input row) shows how many tools the conversation allows; its popup lists
the tools the servers offered, grouped by server, each with a checkbox. A change is stored with
the conversation at once (``ChatService.set_tools``). The servers are asked for their tools in
a worker (a server may take seconds to start), when the popup opens and nothing is known yet,
or on *Look again*; Stop cancels. With no server at all, the popup says where to add one.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from app.chat import ChatService, Conversation
from app.core import Settings, StorageError, UserError
from app.mcp import ToolInfo, ToolService, split_tool_id
from pipelines.core import Cancelled
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import TaskState
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

REFRESH_JOB = "mcp-refresh"
TOOL_ID = Qt.ItemDataRole.UserRole


def no_servers() -> str:
    """The popup's line when no MCP server is set up."""
    return tr("No tools yet: add a tool server in the Tools window.")


class ToolsPopup(QFrame):
    """The list under the button: servers, their tools with checkboxes, and what to do next."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Popup)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(tr("Tools the model may call in this chat"))
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setMinimumSize(360, 200)
        describe(
            self.tree,
            tr("Tools"),
            tr("Tick the tools the model may call in this chat, grouped by tool server"),
        )
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # how long a server takes to start is not known
        self.progress.setMaximumHeight(8)
        self.progress.setTextVisible(False)
        describe(self.progress, tr("Looking for tools"), tr("The tool servers are being asked"))
        self.progress.hide()
        self.look_button = QPushButton(tr("Look again"))
        set_icon(self.look_button, "refresh")
        describe(
            self.look_button, tr("Look again"), tr("Ask the tool servers for their tools again")
        )
        self.stop_button = QPushButton(tr("Stop looking"))
        set_icon(self.stop_button, "close")
        describe(self.stop_button, tr("Stop looking"), tr("Stop asking the tool servers"))
        self.stop_button.hide()
        self.window_button = QPushButton(tr("Tools window…"))
        set_icon(self.window_button, "tools")
        describe(
            self.window_button,
            tr("Tools window"),
            tr("Add, change or test tool servers and choose which tools run without asking"),
        )
        buttons = hbox(self.look_button, self.stop_button, 1, self.window_button, margins=0)
        vbox(self.title, self.tree, self.progress, self.note, buttons, parent=self, margins=8)


class ToolsPicker(QWidget):
    """The Tools button, its popup, and the line under the input row that reports problems."""

    windowRequested = Signal()  # the Tools (MCP) window
    changed = Signal(list)  # the conversation's tool ids, as stored

    def __init__(
        self,
        tools: ToolService,
        chat: ChatService,
        settings: Settings,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        tools: Knows the MCP servers' tools (looks them up on demand).
        chat: Stores the conversation's choice of tools.
        settings: The live settings (read only: the servers).
        tasks: Runs the look-ups and the saving.
        parent: The chat panel.
        """
        super().__init__(parent)
        self.tools = tools
        self.chat = chat
        self._settings = settings
        self.tasks = tasks
        self.button = QPushButton()
        set_icon(self.button, "tools")
        self.popup = ToolsPopup(self)
        self.error = InlineError()
        vbox(self.error, parent=self, margins=0)
        self._conversation_id = ""
        self._enabled: list[str] = []
        self._problems: dict[str, str] = {}
        self._looked = False  # the servers were asked once since the app started
        self._refresh: TaskState | None = None
        self._filling = False
        self.button.clicked.connect(self.open_popup)
        self.popup.tree.itemChanged.connect(self._on_item_changed)
        self.popup.look_button.clicked.connect(self.look_again)
        self.popup.stop_button.clicked.connect(self.stop_looking)
        self.popup.window_button.clicked.connect(self._on_window)
        self._show_count()

    # ----- the conversation ------------------------------------------------------------

    def show_conversation(self, conversation: Conversation) -> None:
        """Show (and from now on change) the tools of ``conversation``."""
        self._conversation_id = conversation.id
        self._enabled = list(conversation.tools)
        self.error.clear()
        self._show_count()
        if self.popup.isVisible():
            self._fill()

    @property
    def enabled_tools(self) -> list[str]:
        """The tool ids the conversation allows."""
        return list(self._enabled)

    def _show_count(self) -> None:
        count = len(self._enabled)
        self.button.setText(tr("Tools ({count})").format(count=count) if count else tr("Tools"))
        describe(
            self.button,
            tr("Tools"),
            tr("%n tool(s) the model may call in this chat; choose them here", "", count)
            if count
            else tr("Let the model call tools (from MCP tool servers) in this chat"),
        )

    # ----- the popup -------------------------------------------------------------------

    @Slot()
    def open_popup(self) -> None:
        """Show the tools under the button (asking the servers first time round)."""
        self._fill()
        self.popup.adjustSize()
        below = self.button.mapToGlobal(self.button.rect().topLeft())
        self.popup.move(below.x(), below.y() - self.popup.height() - 4)
        self.popup.show()
        self.popup.tree.setFocus()
        if not self._looked and self._servers() and not self.tools.known_tools():
            self.look_again()

    def _servers(self) -> list[str]:
        return [s.name for s in self._settings.mcp_servers if s.enabled]

    def _fill(self) -> None:
        """The tree from the known tools, plus enabled ones no server listed (yet)."""
        known = self.tools.known_tools()
        by_server: dict[str, list[ToolInfo]] = {}
        for info in known:
            by_server.setdefault(info.server, []).append(info)
        listed = {info.id for info in known}
        missing = [i for i in self._enabled if i not in listed]
        tree = self.popup.tree
        self._filling = True
        try:
            tree.clear()
            for server in dict.fromkeys([*self._servers(), *by_server, *map(_server, missing)]):
                tools = by_server.get(server, [])
                lost = [i for i in missing if _server(i) == server]
                if not tools and not lost and server not in self._problems:
                    continue
                group = QTreeWidgetItem(tree, [server])
                group.setFlags(Qt.ItemFlag.ItemIsEnabled)
                if server in self._problems:
                    problem = QTreeWidgetItem(group, [self._problems[server]])
                    problem.setFlags(Qt.ItemFlag.NoItemFlags)
                for info in tools:
                    self._tool_item(group, info.id, info.name, info.description)
                for tool_id in lost:
                    note = tr("not listed by its tool server now")
                    self._tool_item(group, tool_id, split_tool_id(tool_id)[1], note)
                group.setExpanded(True)
        finally:
            self._filling = False
        self._show_note(empty=tree.topLevelItemCount() == 0)

    def _tool_item(self, group: QTreeWidgetItem, tool_id: str, name: str, about: str) -> None:
        item = QTreeWidgetItem(group, [f"{name} — {about}" if about else name])
        item.setData(0, TOOL_ID, tool_id)
        item.setToolTip(0, about)
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
        checked = tool_id in self._enabled
        item.setCheckState(0, Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def _show_note(self, *, empty: bool) -> None:
        looking = self._refresh is not None
        if looking:
            text = tr("Asking the tool servers for their tools…")
        elif not self._settings.mcp_servers:
            # The app's own tools (make a picture) may be listed with no server set up.
            text = no_servers() if empty else ""
        elif not self._servers():
            text = tr("Every tool server is turned off: turn one on in the Tools window.")
        elif empty:
            text = tr("The tool servers offered no tools; check them in the Tools window.")
        else:
            text = ""
        self.popup.note.setText(text)
        self.popup.note.setVisible(bool(text))
        self.popup.tree.setVisible(not empty)
        self.popup.progress.setVisible(looking)
        self.popup.stop_button.setVisible(looking)
        self.popup.look_button.setVisible(not looking and bool(self._servers()))

    # ----- asking the servers ----------------------------------------------------------

    @Slot()
    def look_again(self) -> None:
        """Ask every enabled server for its tools, in a worker."""
        if self._refresh is not None:
            return
        state = TaskState()
        self._refresh = state
        self._looked = True
        self.tasks.start(
            self.tools.refresh,
            state.cancel,
            state=state,
            kind=REFRESH_JOB,
            on_done=self._on_refreshed,
            on_error=self._on_refresh_failed,
        )
        self._fill()

    @Slot()
    def stop_looking(self) -> None:
        """Stop asking the tool servers (the tools listed so far stay)."""
        if self._refresh is not None:
            self._refresh.cancel.cancel()

    @Slot(object)
    def _on_refreshed(self, problems: dict[str, str]) -> None:
        self._refresh = None
        self._problems = dict(problems)
        self._fill()

    @Slot(object)
    def _on_refresh_failed(self, error: BaseException) -> None:
        self._refresh = None
        if isinstance(error, UserError):
            self.error.show_message(str(error))
        elif not isinstance(error, Cancelled):
            self.error.show_message(tr("Looking failed: {error}").format(error=error))
        self._fill()

    # ----- choosing --------------------------------------------------------------------

    @Slot(QTreeWidgetItem, int)
    def _on_item_changed(self, item: QTreeWidgetItem, _column: int) -> None:
        tool_id = item.data(0, TOOL_ID)
        if self._filling or not isinstance(tool_id, str) or not self._conversation_id:
            return
        wanted = [i for i in self._enabled if i != tool_id]
        if item.checkState(0) == Qt.CheckState.Checked:
            wanted.append(tool_id)
        self.set_tools(wanted)

    def set_tools(self, tool_ids: Sequence[str]) -> bool:
        """Store ``tool_ids`` as the conversation's tools; False (said under the input) if
        the conversation could not be saved — the choice then snaps back."""
        self.error.clear()
        try:
            conversation = self.chat.set_tools(self._conversation_id, list(tool_ids))
        except (UserError, StorageError) as error:
            self.error.show_message(str(error))
            if self.popup.isVisible():
                # Later: this runs inside the tree's itemChanged, and refilling clears the
                # very item Qt is still changing (a crash).
                QTimer.singleShot(0, self, self._fill)
            return False
        self._enabled = list(conversation.tools)
        self._show_count()
        self.changed.emit(self.enabled_tools)
        return True

    @Slot()
    def _on_window(self) -> None:
        self.popup.hide()
        self.windowRequested.emit()


def _server(tool_id: str) -> str:
    return split_tool_id(tool_id)[0]
