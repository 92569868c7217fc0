"""Tools (MCP)…: the MCP tool servers whose tools chat can call, and which tools run without asking.

A server is a program the app starts (its program and arguments) or an HTTP address. Its fields
are a :class:`ui.widgets.connection_form.ConnectionForm`: *Test connection* asks the server for
its tools in a worker — starting a server can take seconds — with a busy bar and Cancel, a
cancelled test's late answer ignored; the list fills from its answer, each tool with a "runs
without asking" tick (its server's ``allowed_tools``). What is wrong with a field is said right
under it as it is typed, in the settings validator's own words (a failed test about the program
or the address is said under that field too); Save writes every server at once through the
settings store. Follows ``ui.engines.remote_dialog``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from PySide6.QtCore import QDateTime, QLocale, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QHeaderView,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from app.core import SettingsStore, UserError
from app.mcp import LastListing, ToolInfo, ToolService
from pipelines.core import Cancelled
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.mcp.server_draft import (
    FIELDS,
    ServerDraft,
    Transport,
    draft_problems,
    new_server_name,
)
from ui.mcp.server_tools_list import ServerToolList
from ui.shell.settings_changes import change_settings
from ui.tasks import TaskRunner
from ui.widgets.connection_form import ConnectionForm, SaveRow
from ui.widgets.dialog_rows import free_name, keep_fitting, say, tab_chain
from ui.widgets.layouts import hbox, vbox


def last_test_sentence(last: LastListing) -> str:
    """What the last test of a server found, and when (it may be from an earlier run)."""
    when = QLocale().toString(
        QDateTime.fromSecsSinceEpoch(int(last.listed_at)), QLocale.FormatType.ShortFormat
    )
    if last.tools is None:
        return tr("Tested on {when}: {problem}").format(when=when, problem=last.problem)
    return tr("%n tool(s) listed on {when}.", "", len(last.tools)).format(when=when)


class McpServersDialog(QDialog):
    """List, add, edit, test and remove MCP servers."""

    def __init__(
        self,
        store: SettingsStore,
        tools: ToolService,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store, self.tools, self.tasks = store, tools, tasks
        self.setWindowTitle(tr("Tools (MCP)"))
        self.setMinimumWidth(760)
        self.drafts = [ServerDraft.from_server(s) for s in store.settings.mcp_servers]
        known = tools.known_tools()
        for draft in self.drafts:
            listed = [t for t in known if t.server == draft.name]
            draft.tools = listed or None
            last = tools.last_listing(draft.name)  # this run's test or an earlier run's
            draft.result = last_test_sentence(last) if last is not None else ""
        self._build()
        for draft in self.drafts:
            self.list.addTopLevelItem(QTreeWidgetItem())
            self._show_row(draft)
        self._select(0 if self.drafts else -1)
        keep_fitting(self)

    # ----- layout ----------------------------------------------------------------------

    def _build(self) -> None:
        self.list = QTreeWidget()
        self.list.setHeaderLabels([tr("Tool server"), tr("Kind"), tr("Tools")])
        self.list.setRootIsDecorated(False)
        self.list.setMinimumWidth(280)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        columns = self.list.header()
        columns.setStretchLastSection(False)
        columns.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for index in (1, 2):
            columns.setSectionResizeMode(index, QHeaderView.ResizeMode.ResizeToContents)
        describe(
            self.list, tr("Tool servers"), tr("The tool servers chat can call; choose one to edit")
        )
        describe(self.list.header(), tr("Tool server columns"), tr("Name, kind, and its tools"))
        self.add_button = QPushButton(tr("A&dd"))
        set_icon(self.add_button, "plus")
        describe(self.add_button, tr("Add tool server"), tr("Add a tool server to the list."))
        self.remove_button = QPushButton(tr("&Remove"))
        set_icon(self.remove_button, "delete-outline")
        describe(
            self.remove_button, tr("Remove tool server"), tr("Remove the selected tool server.")
        )
        self.form = ConnectionForm(self.tasks, tr("Start the tool server and list its tools."))
        self.name = self.form.add_name(tr("Shown beside each call of its tools."))
        self.kind = QComboBox()
        kinds = ((tr("A program on this computer"), "stdio"), (tr("An HTTP address"), "http"))
        for label, transport in kinds:
            self.kind.addItem(label, transport)
        describe(
            self.kind, tr("Kind"), tr("Start a program, or reach a tool server by its address.")
        )
        self.form.add_field(tr("&Kind:"), self.kind)
        self.command = self.form.add_address(
            "command",
            tr("&Program:"),
            tr("Program"),
            tr("The program that starts the tool server."),
            tr("e.g. {example}").format(example="uvx"),
        )
        self.arguments = self.form.add_address(
            "arguments",
            tr("Ar&guments:"),
            tr("Arguments"),
            tr("What the program is given, separated by spaces; quotes keep words together."),
            tr("e.g. {example}").format(example="mcp-server-time"),
        )
        self.url = self.form.add_address(
            "url",
            tr("&Address:"),
            tr("Address"),
            tr("The tool server's MCP address (streamable HTTP)."),
            tr("e.g. {example}").format(example="http://localhost:8000/mcp"),
        )
        self.enabled = QCheckBox(tr("Offer its tools to chats"))
        describe(self.enabled, tr("Enabled"), tr("Turned off, its tools are not offered."))
        self.form.add_field("", self.enabled)
        self.form.add_test_row()
        self.test = self.form.test
        self.tool_picks = ServerToolList()  # ticked: runs without asking
        self.tool_list = self.tool_picks.list
        self.tools_title = self.tool_picks.title
        self.form.add_below(self.tool_picks, 1)
        save_row = SaveRow()
        self.buttons, self.save_error = save_row.buttons, save_row.error
        left = vbox((self.list, 1), hbox(self.add_button, self.remove_button), margins=0)
        body = hbox(left, (self.form, 1))
        layout = vbox(body, parent=self)
        layout.setStretch(0, 1)
        layout.addLayout(save_row.layout)
        chain = [self.list, self.add_button, self.remove_button, *self.form.focus_chain()]
        tab_chain([*chain, self.tool_list, save_row.save_button, save_row.cancel_button])
        self.list.currentItemChanged.connect(self._show_current)
        self.add_button.clicked.connect(self.add_server)
        self.remove_button.clicked.connect(self.remove_server)
        self.form.edited.connect(self._on_edited)
        self.test.button.clicked.connect(self.test_server)
        self.test.cancel_button.clicked.connect(self.cancel_test)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)

    # ----- the list --------------------------------------------------------------------

    def current(self) -> ServerDraft | None:
        """The server being edited, if any."""
        item = self.list.currentItem()
        row = self.list.indexOfTopLevelItem(item) if item is not None else -1
        return self.drafts[row] if 0 <= row < len(self.drafts) else None

    def _select(self, row: int) -> None:
        item = self.list.topLevelItem(row) if row >= 0 else None
        if item is not None:
            self.list.setCurrentItem(item)
        else:
            self.list.clearSelection()
            self.list.setCurrentIndex(self.list.rootIndex())
        self._show_current()

    def _show_row(self, draft: ServerDraft) -> None:
        """The list's line of ``draft``: name, kind, tool count or state."""
        item = self.list.topLevelItem(self.drafts.index(draft))
        if item is None:
            return
        if draft is self.test.subject:
            state = tr("testing…")
        elif not draft.enabled:
            state = tr("off")
        elif draft.tools is None:
            state = tr("not tested")
        else:
            state = tr("%n tool(s)", "", len(draft.tools))
        kind = tr("program") if draft.transport == "stdio" else tr("HTTP")
        for column, text in enumerate((draft.name.strip() or tr("(no name)"), kind, state)):
            item.setText(column, text)

    @Slot()
    def add_server(self) -> None:
        """A new server with a free name, selected, its name ready to be typed over."""
        name = free_name(new_server_name(), (d.name for d in self.drafts))
        self.drafts.append(ServerDraft.new(name))
        self.list.addTopLevelItem(QTreeWidgetItem())
        self._show_row(self.drafts[-1])
        self._select(len(self.drafts) - 1)
        self.name.setFocus()
        self.name.selectAll()

    @Slot()
    def remove_server(self) -> None:
        """Forget the selected server (gone from the settings when the window is saved)."""
        draft = self.current()
        if draft is None:
            return
        if draft is self.test.subject:
            self.cancel_test()
        row = self.drafts.index(draft)
        self.drafts.pop(row)
        self.list.takeTopLevelItem(row)
        self._select(min(row, len(self.drafts) - 1))

    @Slot()
    def _show_current(self) -> None:
        draft = self.current()
        self.form.setEnabled(draft is not None)
        self.remove_button.setEnabled(draft is not None)
        for widget in (self.name, self.command, self.arguments, self.url, self.kind):
            widget.blockSignals(True)
        self.enabled.blockSignals(True)
        self.name.setText(draft.name if draft else "")
        self.command.setText(draft.command if draft else "")
        self.arguments.setText(draft.arguments if draft else "")
        self.url.setText(draft.url if draft else "")
        self.kind.setCurrentIndex(1 if draft and draft.transport == "http" else 0)
        self.enabled.setChecked(draft.enabled if draft else False)
        for widget in (self.name, self.command, self.arguments, self.url, self.kind):
            widget.blockSignals(False)
        self.enabled.blockSignals(False)
        self.test.show_result(draft.result if draft else "")
        self._show_kind()
        self._fill_tools()
        self._validate()

    def _show_kind(self) -> None:
        stdio = self.kind.currentData() == "stdio"
        self.form.set_field_visible(self.command, stdio)
        self.form.set_field_visible(self.arguments, stdio)
        self.form.set_field_visible(self.url, not stdio)

    def _fill_tools(self) -> None:
        """The current server's tools (listed by a test, or known), ticked when allowed."""
        self.tool_picks.show_draft(self.current())

    # ----- editing ---------------------------------------------------------------------

    @Slot()
    def _on_edited(self) -> None:
        draft = self.current()
        if draft is None:
            return
        transport: Transport = "http" if self.kind.currentData() == "http" else "stdio"
        reached = (transport, self.command.text(), self.arguments.text(), self.url.text())
        typed = zip(FIELDS, (self.name.text(), *reached[1:]), strict=True)
        draft.untouched -= {name for name, text in typed if text != getattr(draft, name)}
        if reached != (draft.transport, draft.command, draft.arguments, draft.url):
            draft.result = ""  # a test of the old program says nothing of the new one
            self.test.show_result("")
        draft.name = self.name.text()
        draft.transport = transport
        draft.command = self.command.text()
        draft.arguments = self.arguments.text()
        draft.url = self.url.text()
        draft.enabled = self.enabled.isChecked()
        self._show_kind()
        self._show_row(draft)
        self.save_error.clear()
        self._validate()

    def problems(self, draft: ServerDraft) -> dict[str, str]:
        """What keeps ``draft`` from being saved, by field."""
        return draft_problems(draft, [d.name for d in self.drafts if d is not draft])

    def _validate(self) -> None:
        draft = self.current()
        shown: dict[str, str] = {}
        if draft is not None:  # a field not typed in yet waits (ServerDraft.untouched)
            problems = self.problems(draft).items()
            shown = {key: text for key, text in problems if key not in draft.untouched}
        self.form.show_problems(shown)
        self._update_test_buttons()

    # ----- testing ---------------------------------------------------------------------

    @Slot()
    def test_server(self) -> None:
        """Start (or reach) the server in a worker and list its tools."""
        draft = self.current()
        if draft is None or self.test.running:
            return
        problems = self.problems(draft)
        if set(problems) - {"name"}:
            return
        # A name still being typed does not stop a test: the server is reached all the same.
        server = (replace(draft, name=new_server_name()) if problems else draft).to_server()
        self.test.start(
            draft,
            self.tools.list_tools,
            server,
            on_done=partial(self._on_tested, draft),
            on_error=partial(self._on_test_failed, draft),
            pass_cancel=True,
        )
        draft.result = (
            tr("Starting {program}…").format(program=server.command)
            if server.transport == "stdio"
            else tr("Connecting to {address}…").format(address=server.url)
        )
        self.test.show_result(draft.result)
        self._show_row(draft)
        self._update_test_buttons()

    @Slot()
    def cancel_test(self) -> None:
        """Stop waiting for the server (the worker closes it; a late answer is ignored)."""
        draft = self.test.cancel()
        if isinstance(draft, ServerDraft):
            self._end_test(draft, tr("Cancelled."))

    def _on_tested(self, draft: ServerDraft, tools: list[ToolInfo]) -> None:
        draft.tools = list(tools)
        self._end_test(draft, tr("%n tool(s) listed.", "", len(tools)))

    def _on_test_failed(self, draft: ServerDraft, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self._end_test(draft, tr("Cancelled."))
            return
        field = getattr(error, "field", None) if isinstance(error, UserError) else None
        if field in ("command", "url") and draft is self.current():
            self._end_test(draft, "")
            self.form.show_problem(field, str(error))  # next to the field it is about
            return
        sentence = (
            str(error)
            if isinstance(error, UserError)
            else tr("The test failed: {error}").format(error=error)
        )
        self._end_test(draft, sentence)

    def _end_test(self, draft: ServerDraft, sentence: str) -> None:
        draft.result = sentence
        if draft is self.current():
            self.test.show_result(sentence)
            self._fill_tools()
        if draft in self.drafts:
            self._show_row(draft)
        self._update_test_buttons()

    def _update_test_buttons(self) -> None:
        draft = self.current()
        problems = self.problems(draft) if draft is not None else {"": ""}
        problems.pop("name", None)
        self.test.update_buttons(not problems)

    # ----- saving ----------------------------------------------------------------------

    @Slot()
    def save(self) -> None:
        """Save every server through the settings store; the first one with a problem is
        selected instead, its problem next to its field."""
        for row, draft in enumerate(self.drafts):
            if self.problems(draft):
                draft.untouched.clear()  # tried to save: every problem is said now
                self._select(row)
                return
        servers = [draft.to_server() for draft in self.drafts]
        if change_settings(self.store, partial(say, self.save_error), mcp_servers=servers):
            self.cancel_test()
            self.accept()

    def reject(self) -> None:
        """Close without saving; a running test is cancelled."""
        self.cancel_test()
        super().reject()
