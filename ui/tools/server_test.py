"""The Tools (MCP) window's *Test*: start (or reach) a server in a worker and list its tools.

Mixed into :class:`ui.tools.servers_dialog.McpServersDialog`. Starting a server can take
seconds, so a busy bar and *Cancel test* show meanwhile; a late answer of a cancelled test is
ignored. A failure about the program or the address is said under that field; any other one
under the fields.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Slot

from app.core import UserError
from app.mcp import ToolInfo, ToolService
from pipelines.core import Cancelled
from ui.i18n import tr
from ui.inline_error import InlineError
from ui.tasks import TaskRunner, TaskState
from ui.tools.server_draft import ServerDraft, new_server_name

if TYPE_CHECKING:
    from PySide6.QtWidgets import QProgressBar, QPushButton


class ServerTesting:
    """*Test* and *Cancel test* of the server being edited."""

    tools: ToolService
    tasks: TaskRunner
    drafts: list[ServerDraft]
    errors: dict[str, InlineError]
    test_button: QPushButton
    cancel_test_button: QPushButton
    progress: QProgressBar
    _testing: ServerDraft | None
    _test_state: TaskState | None

    if TYPE_CHECKING:  # the dialog's own, used here

        def current(self) -> ServerDraft | None: ...
        def problems(self, draft: ServerDraft) -> dict[str, str]: ...
        def _set_result(self, text: str) -> None: ...
        def _show_row(self, draft: ServerDraft) -> None: ...
        def _fill_tools(self) -> None: ...

    @Slot()
    def test_server(self) -> None:
        """Start (or reach) the server in a worker and list its tools."""
        draft = self.current()
        if draft is None or self._testing is not None:
            return
        problems = self.problems(draft)
        if set(problems) - {"name"}:
            return
        # A name still being typed does not stop a test: the server is reached all the same.
        server = (replace(draft, name=new_server_name()) if problems else draft).to_server()
        state = TaskState()
        self._testing, self._test_state = draft, state
        draft.result = ""
        self._set_result("")
        self._show_row(draft)
        self._update_test_buttons()
        self.tasks.start(
            self.tools.list_tools,
            server,
            state.cancel,
            state=state,
            on_done=partial(self._on_tested, state, draft),
            on_error=partial(self._on_test_failed, state, draft),
        )

    @Slot()
    def cancel_test(self) -> None:
        """Stop waiting for the server (the worker closes it; a late answer is ignored)."""
        if self._testing is None or self._test_state is None:
            return
        self._test_state.cancel.cancel()
        self._end_test(self._testing, tr("Cancelled."))

    def _on_tested(self, state: TaskState, draft: ServerDraft, tools: list[ToolInfo]) -> None:
        if state is not self._test_state:
            return
        draft.tools = list(tools)
        self._end_test(draft, tr("%n tool(s) listed.", "", len(tools)))

    def _on_test_failed(self, state: TaskState, draft: ServerDraft, error: BaseException) -> None:
        if state is not self._test_state:
            return
        if isinstance(error, Cancelled):
            self._end_test(draft, tr("Cancelled."))
            return
        field = getattr(error, "field", None) if isinstance(error, UserError) else None
        if field in ("command", "url") and draft is self.current():
            self._end_test(draft, "")
            self.errors[field].show_message(str(error))  # next to the field it is about
            return
        sentence = (
            str(error)
            if isinstance(error, UserError)
            else tr("The test failed: {error}").format(error=error)
        )
        self._end_test(draft, sentence)

    def _end_test(self, draft: ServerDraft, sentence: str) -> None:
        self._testing, self._test_state = None, None
        draft.result = sentence
        if draft is self.current():
            self._set_result(sentence)
            self._fill_tools()
        if draft in self.drafts:
            self._show_row(draft)
        self._update_test_buttons()

    def _update_test_buttons(self) -> None:
        testing = self._testing is not None
        draft = self.current()
        problems = self.problems(draft) if draft is not None else {"": ""}
        problems.pop("name", None)
        self.test_button.setEnabled(not problems and not testing)
        self.cancel_test_button.setVisible(testing)
        self.progress.setVisible(testing)
