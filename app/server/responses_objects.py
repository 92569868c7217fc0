"""The Responses API's answer objects: the response, its output message, its usage.

Shapes follow the ``openai`` SDK's ``openai.types.responses.Response``. A whole answer and a
streamed one are built here alike (a stream sends the same response in its first and last
events), so what ``GET /v1/responses/{id}`` gives back is what the client saw.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.chat import Completion, RequestOptions
from app.server.responses_schema import ResponsesRequest
from app.server.responses_tools import call_item
from app.server.served_models import ServedModel
from app.tool_calls import RequestedCall

Status = Literal["in_progress", "completed", "incomplete", "failed"]


def new_id(prefix: str) -> str:
    """A new object id as OpenAI's look (``resp_…``, ``msg_…``)."""
    return f"{prefix}_{uuid.uuid4().hex}"


def status_of(completion: Completion) -> Status:
    """How a response ended: cut at its length (``incomplete``), failed (the model failed, or
    its request was cancelled by the engine stopping), or completed."""
    if completion.finish_reason == "length":
        return "incomplete"
    return "failed" if completion.finish_reason in ("error", "cancelled") else "completed"


def usage_of(completion: Completion) -> dict[str, Any]:
    """The token counts of a response (nothing cached, no reasoning tokens)."""
    return {
        "input_tokens": completion.prompt_tokens,
        "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
        "output_tokens": completion.completion_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": completion.prompt_tokens + completion.completion_tokens,
    }


def text_part(text: str) -> dict[str, Any]:
    """An answer's text as an ``output_text`` content part."""
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


@dataclass(frozen=True)
class ResponseDraft:
    """What is known of a response before its answer: the request, the model, its ids."""

    body: ResponsesRequest
    model: ServedModel
    options: RequestOptions
    tools: tuple[dict[str, Any], ...]
    """The function tools offered, as a response echoes them."""
    tool_choice: str | dict[str, str]
    id: str
    message_id: str
    created_at: int

    @classmethod
    def start(
        cls,
        body: ResponsesRequest,
        model: ServedModel,
        options: RequestOptions,
        tools: Sequence[dict[str, Any]] = (),
        tool_choice: str | dict[str, str] = "auto",
    ) -> ResponseDraft:
        """A new response to ``body``, answered by ``model`` with ``options`` (the first
        step's, when tools are offered: its sampling is what the response echoes)."""
        return cls(
            body,
            model,
            options,
            tuple(tools),
            tool_choice,
            new_id("resp"),
            new_id("msg"),
            int(time.time()),
        )

    def message(self, text: str, status: Status) -> dict[str, Any]:
        """The output message holding the answer's ``text`` (content empty while it starts)."""
        content = [] if status == "in_progress" and not text else [text_part(text)]
        item_status = "incomplete" if status in ("incomplete", "failed") else status
        return {
            "id": self.message_id,
            "type": "message",
            "role": "assistant",
            "status": item_status,
            "content": content,
        }

    def response(
        self,
        status: Status,
        output: list[dict[str, Any]] | None = None,
        completion: Completion | None = None,
    ) -> dict[str, Any]:
        """The response object in ``status`` with ``output``; ``completion`` adds its usage
        and how it ended."""
        body = self.body
        settings = self.options.settings
        ended = status not in ("in_progress",)
        error = None
        if status == "failed":
            message = (completion.error if completion else "") or (
                "The answer was cancelled before it was complete (the model was stopped)."
            )
            error = {"code": "server_error", "message": message}
        return {
            "id": self.id,
            "object": "response",
            "created_at": self.created_at,
            "completed_at": int(time.time()) if ended else None,
            "status": status,
            "background": False,
            "error": error,
            "incomplete_details": (
                {"reason": "max_output_tokens"} if status == "incomplete" else None
            ),
            "instructions": body.instructions,
            "max_output_tokens": body.max_output_tokens,
            "max_tool_calls": None,
            "model": self.model.id,
            "output": output or [],
            "parallel_tool_calls": body.parallel_tool_calls is not False,
            "previous_response_id": body.previous_response_id,
            "reasoning": {"effort": None, "summary": None},
            "store": body.store is not False,
            "temperature": settings.temperature,
            "text": {"format": self.text_format(), "verbosity": "medium"},
            "tool_choice": self.tool_choice,
            "tools": list(self.tools),
            "top_p": settings.top_p,
            "truncation": body.truncation or "disabled",
            "usage": usage_of(completion) if completion is not None else None,
            "user": None,
            "metadata": body.metadata or {},
        }

    def text_format(self) -> dict[str, Any]:
        """The ``text.format`` the answer follows, as the request gave it."""
        given = self.body.text.format if self.body.text else None
        if given is None or given.type == "text":
            return {"type": "text"}
        if given.type == "json_object":
            return {"type": "json_object"}
        return {
            "type": "json_schema",
            "name": given.name,
            "schema": given.schema_,
            "strict": given.strict,
            "description": given.description,
        }

    def finished(
        self, completion: Completion, text: str, calls: Sequence[RequestedCall] = ()
    ) -> dict[str, Any]:
        """The response once its answer ended as ``completion``, with the answer's ``text``
        and the function ``calls`` it made."""
        status = status_of(completion)
        return self.response(status, self.output(text, calls, status), completion)

    def output(
        self, text: str, calls: Sequence[RequestedCall], status: Status
    ) -> list[dict[str, Any]]:
        """The output items: the message (unless the answer is calls only), then the calls;
        nothing when the response failed."""
        if status == "failed":
            return []
        message = [self.message(text, status)] if text or not calls else []
        return [*message, *(call_item(call) for call in calls)]
