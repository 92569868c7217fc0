"""A Responses API request read into the conversation the model answers, and the fields it
cannot honour refused.

The conversation is the stored one of ``previous_response_id`` (:mod:`app.server.responses_store`),
then the request's ``input`` items, with ``instructions`` as a system message in front (never
stored: OpenAI does not carry a response's instructions over to the next one). A message's
text parts are joined; its image parts go to the vision path (:mod:`app.server.vision`), which
reads only the last user message's images, as chat does. Function calls of earlier answers
and their outputs become the assistant's calls and the ``tool`` messages the tool-call layer
reads (:mod:`app.server.responses_tools`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.chat import Message
from app.server.errors import ApiError
from app.server.responses_schema import ContentPart, InputItem, ResponsesRequest
from app.server.responses_tools import call_output, with_call
from app.server.schema import check_conversation_size


def input_messages(items: Sequence[InputItem]) -> list[Message]:
    """The request's ``input`` items as chat messages (images are read apart).

    Raises:
        ApiError: 400 naming an item or part this server cannot read, or a field its type
            needs.
    """
    messages: list[Message] = []
    for index, item in enumerate(items):
        where = f"input.{index}"
        if item.type == "message":
            if item.role is None or item.content is None:
                missing = "role" if item.role is None else "content"
                raise ApiError(400, f"'{where}.{missing}' is required.", param=f"{where}.{missing}")
            role = "system" if item.role == "developer" else item.role
            messages.append(Message(role, _text_of(item.role, item.content, where)))
        elif item.type == "function_call":
            with_call(messages, item, where)  # app.server.responses_tools
        elif item.type == "function_call_output":
            messages.append(call_output(item, where))
        elif item.type != "reasoning":  # reasoning: another server's, hidden; its answer follows
            raise ApiError(
                400,
                f"Item {index} is of type '{item.type}', which this server does not read; send "
                "messages (and function calls with their outputs).",
                param=f"{where}.type",
            )
    return messages


def conversation(
    body: ResponsesRequest, history: Sequence[Message], new: Sequence[Message]
) -> list[Message]:
    """What the model answers: the instructions, the earlier turns, the new input.

    Raises:
        ApiError: 400 when there is no message to answer, or more than a conversation may hold.
    """
    if not history and not new:
        raise ApiError(400, "'input' holds no message to answer.", param="input")
    front = [Message("system", body.instructions)] if body.instructions else []
    messages = [*front, *history, *new]
    check_conversation_size(messages)
    return messages


def refuse_unsupported(body: ResponsesRequest) -> None:
    """Refuse a field that would change what the answer is if it were ignored.

    ``metadata``, ``store``, ``user``, ``include``, ``service_tier``, ``prompt_cache_key``,
    ``truncation`` and the like are accepted (they change nothing in the answer; a prompt too
    long for the context is a 400 saying so rather than cut). Background runs, stored prompts
    and conversations, log probabilities, reasoning settings and a verbosity would, so asking
    for them is a 400 naming the field (built-in tools: :mod:`app.server.responses_tools`).

    Raises:
        ApiError: naming the first such field.
    """
    reasoning = body.reasoning
    verbosity = body.text.verbosity if body.text else None
    refused = [
        (
            "background",
            bool(body.background),
            "background: this server answers while the request is open (stream to see progress).",
        ),
        (
            "conversation",
            body.conversation is not None,
            "conversation: this server keeps no conversations; use previous_response_id.",
        ),
        ("prompt", body.prompt is not None, "prompt: stored prompt templates are not supported."),
        (
            "top_logprobs",
            bool(body.top_logprobs),
            "top_logprobs: log probabilities are not supported by this server.",
        ),
        (
            "reasoning.effort",
            reasoning is not None and reasoning.effort is not None,
            "reasoning.effort: the served model's reasoning cannot be set by this server.",
        ),
        (
            "reasoning.summary",
            reasoning is not None and reasoning.summary is not None,
            "reasoning.summary: this server gives no reasoning summaries.",
        ),
        (
            "text.verbosity",
            verbosity not in (None, "medium"),
            "text.verbosity: the served model's answer length follows max_output_tokens only.",
        ),
    ]
    for param, asked, message in refused:
        if asked:
            raise ApiError(400, message, param=param)


def _text_of(role: str, parts: Sequence[ContentPart], where: str) -> str:
    """A message's text parts joined (images are the vision path's).

    Raises:
        ApiError: 400 naming a part without its text, an image outside a user message, or a
            part of a type this server does not read.
    """
    texts: list[str] = []
    for number, part in enumerate(parts):
        param = f"{where}.content.{number}"
        if part.type in ("input_text", "output_text", "refusal"):
            key = "refusal" if part.type == "refusal" else "text"
            text = part.refusal if part.type == "refusal" else part.text
            if text is None:
                raise ApiError(400, f"'{param}.{key}' is required.", param=f"{param}.{key}")
            texts.append(text)
        elif part.type == "input_image":
            if role != "user":
                raise ApiError(
                    400,
                    f"Only user messages may hold images; this one is the {role}'s.",
                    param=param,
                )
        else:
            raise ApiError(
                400,
                f"Content of type '{part.type}' is not supported by this server; send "
                "input_text and input_image parts.",
                param=f"{param}.type",
            )
    return "".join(texts)
