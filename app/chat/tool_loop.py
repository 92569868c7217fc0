"""The tool loop: before an answer, the model may call the conversation's tools.

Small local models (SmolLM2 among them) have no tool-call format of their own, so the choice
is *constrained* (the tool-call layer's, :mod:`app.tool_calls.choice`): the model writes JSON
that must follow a schema built from the enabled tools — ``{"tool": "none"}`` or
``{"tool": <id>, "arguments": {...}}`` — reading the tools with their arguments described
(:mod:`app.tool_calls.prompting`); the arguments are checked against the tool's full input
schema, the user confirms unless the tool is allowed, the tool runs, and its result joins the
question the model reads. At most :data:`MAX_CALLS` calls; then the answer is written
(streamed) as usual.

A tool's output is untrusted data: it reaches the model quoted, under a line saying it is
data and not instructions, and nothing in it is ever acted on by the app.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from app.chat.context_window import ContextBudget
from app.chat.tool_fit import PromptRoom
from app.core.errors import UserError
from app.mcp.calls import ToolCall
from app.mcp.service import ToolInfo, ToolService
from app.mcp.tool_ids import split_tool_id
from app.tool_calls.choice import DECISION_TOKENS, affordable, choice_schema, parse_choice
from app.tool_calls.prompting import RESULT_CHARS_IN_PROMPT, answer_prompt
from app.tool_calls.prompting import decision_prompt as _decision_prompt
from app.tool_calls.specs import ToolSpec
from pipelines.chat import ChatResult
from pipelines.core import Cancelled, CancelToken
from pipelines.generation import GenerationSettings, Message

log = logging.getLogger(__name__)

ConfirmTool = Callable[[str, dict[str, Any]], bool]
"""``(tool_id, arguments)`` → run it? Asked on the worker thread before a tool that is not
allowed runs."""
OnToolCall = Callable[[ToolCall], None]
"""Told of each call once it is done (worker thread)."""

MAX_CALLS = 4
REFUSED = "Not run: the user declined this call."
NOT_ASKED = "Not run: this tool asks before it runs, and there was no one to ask."


class Generates(Protocol):
    """What the loop needs of a chat pipeline."""

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> ChatResult: ...


@dataclass
class ToolLoop:
    """One answer's tool calls."""

    tools: ToolService
    enabled: list[str]
    """The conversation's tool ids."""
    confirm: ConfirmTool | None = None
    on_call: OnToolCall | None = None

    def run(
        self,
        pipeline: Generates,
        history: list[Message],
        cancel: CancelToken,
        budget: ContextBudget,
    ) -> tuple[list[Message], list[ToolCall]]:
        """Let the model call tools; returns the messages to answer from (the question with
        the results under it) and the calls made, in order. A stop keeps the calls done.

        Every prompt — each choice and the answer's — fits in ``budget``'s context: results
        are shortened (saying so) or older turns dropped (see :mod:`.chat_tool_fit`)."""
        offered = self._offered(cancel)
        fitting = affordable({tool.id: tool.input_schema for tool in offered})
        if len(fitting) < len(offered):
            log.warning(
                "%d of %d tools are not offered: their choice schema would be too large",
                len(offered) - len(fitting),
                len(offered),
            )
            offered = [tool for tool in offered if tool.id in fitting]
        calls: list[ToolCall] = []
        if not offered or not history or history[-1].role != "user":
            return history, calls
        question = history[-1].content
        schema = json.dumps(choice_schema({t.id: t.input_schema for t in offered}))
        # GenAI's own JSON-schema grammar, not the compact one: forced to write JSON without
        # its usual line breaks and indents, SmolLM2-135M chose "none" where it called the tool
        # when free to lay the JSON out. The choice is short and capped at DECISION_TOKENS, and
        # one that does not parse means no call.
        settings = GenerationSettings(
            max_new_tokens=DECISION_TOKENS, temperature=0.0, repetition_penalty=1.0,
            json_schema=schema, compact_json=False,
        )  # fmt: skip
        deciding = PromptRoom(budget.pipeline, budget.context_tokens - DECISION_TOKENS)
        ids = {tool.id for tool in offered}
        while len(calls) < MAX_CALLS and not cancel.cancelled:
            messages = deciding.fit(
                history,
                lambda shown: decision_prompt(question, offered, calls, shown),
                [call.result for call in calls],
                RESULT_CHARS_IN_PROMPT,
            )
            if messages is None:
                break  # no room to choose another tool: answer with what is known
            try:
                result = pipeline.generate(messages, settings, cancel, _ignore)
            except UserError as error:
                if error.field != "json_schema":
                    raise
                # The choice's grammar costs more than the grammar guard allows (the tools'
                # schemas are the servers'): answer without tools, as for unaffordable ones.
                log.warning("the tools are not offered: %s", error)
                break
            if result.stopped:
                break
            choice = parse_choice(result.text, ids)
            if choice is None:
                break
            tool, arguments = choice
            if any(c.tool == tool and c.arguments == arguments for c in calls):
                break  # the same call again: small models loop; answer with what is known
            try:
                call = self._call(tool, arguments, cancel)
            except Cancelled:
                break
            calls.append(call)
            if self.on_call is not None:
                self.on_call(call)
            if call.status == "refused" or call.pictures:
                # A picture is the answer's content and takes seconds to draw: one per answer
                # (SmolLM2-135M, asked for one, drew it again under a reworded prompt).
                break
        if not calls:
            return history, calls
        answering = PromptRoom(budget.pipeline, budget.tokens)
        messages = answering.fit(
            history,
            lambda shown: answer_prompt(question, calls, shown),
            [call.result for call in calls],
            RESULT_CHARS_IN_PROMPT,
        )
        # None: not even the results' headings fit; the question alone was fitted before.
        return (history if messages is None else messages), calls

    def _offered(self, cancel: CancelToken) -> list[ToolInfo]:
        """The enabled tools the servers list now (a server not yet listed is listed once;
        one that fails is left out, its tools with it)."""
        known = {tool.id: tool for tool in self.tools.known_tools()}
        missing = {split_tool_id(i)[0] for i in self.enabled if i not in known}
        for name in sorted(missing):
            server = self.tools.server(name)
            if server is None or not server.enabled:
                continue
            try:
                for tool in self.tools.list_tools(server, cancel):
                    known[tool.id] = tool
            except UserError as error:
                log.warning("tools of %s are not offered: %s", name, error)
            except Cancelled:
                return []
        return [known[i] for i in dict.fromkeys(self.enabled) if i in known]

    def _call(self, tool: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolCall:
        if self.tools.needs_confirmation(tool):
            if self.confirm is None:
                return ToolCall(tool, arguments, "refused", NOT_ASKED)
            if not self.confirm(tool, arguments):
                return ToolCall(tool, arguments, "refused", REFUSED)
            if cancel.cancelled:
                raise Cancelled()
        return self.tools.call(tool, arguments, cancel)


def decision_prompt(
    question: str,
    tools: Sequence[ToolInfo],
    calls: Sequence[ToolCall],
    shown: Sequence[str] | None = None,
) -> str:
    """The question, the results so far, and the tools the model may call next, each named by
    its id (:func:`app.tool_calls.prompting.decision_prompt`)."""
    return _decision_prompt(question, [_spec(tool) for tool in tools], calls, shown)


def _spec(tool: ToolInfo) -> ToolSpec:
    return ToolSpec(tool.id, tool.description, tool.input_schema)


def _ignore(_text: str) -> None:
    """The decision is not shown while it is written (it is JSON for the app)."""
