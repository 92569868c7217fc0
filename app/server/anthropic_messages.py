"""Anthropic's Messages API: ``POST /v1/messages`` and ``POST /v1/messages/count_tokens``.

Fields follow https://docs.claude.com/en/api/messages; the ``anthropic`` SDK and tools built on
it (pointed here by ``base_url``, or ``ANTHROPIC_BASE_URL``) send the token as ``x-api-key``
or as a bearer token, and both are taken (:mod:`app.server.guard`). Errors on these routes are
in Anthropic's shape (:mod:`app.server.errors`).

The answer comes from the same batching engine, sampling defaults, image path, JSON-schema
grammar and tool-call layer as the OpenAI routes: a request with ``tools``, or with tool uses
and results in its history, is a turn of :mod:`app.server.tool_turns` (its shapes:
:mod:`app.server.anthropic_tools`). ``max_tokens`` is required, as Anthropic requires it, and is cut
to the room the model's context leaves (agents ask for 32,000 tokens of any model): an answer
cut there ends with ``stop_reason: "max_tokens"``. What would change the answer if ignored and
cannot be honoured (extended thinking with a budget, Anthropic's server tools, its MCP
connector, a code-execution container) is a 400 naming the field; ``metadata`` and tuning
fields are ignored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import anyio
import numpy as np
from fastapi import APIRouter, Request
from numpy.typing import NDArray
from sse_starlette import EventSourceResponse

from app.chat import BatchingEngine, ChatPrompt, Message, RequestOptions
from app.server.answer_stream import complete, stream_completion
from app.server.anthropic_blocks import has_tool_turns, read_conversation
from app.server.anthropic_schema import ConversationRequest, CountTokensRequest, MessagesRequest
from app.server.anthropic_stream import message_events, new_message, ping, whole_message
from app.server.anthropic_tools import one_call_at_most, request_tools
from app.server.errors import ApiError
from app.server.openai_answers import answer_options
from app.server.openai_answers import output_schema as openai_output_schema
from app.server.openai_schema import SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS, TextRoute
from app.server.served_models import ServedModel
from app.server.state import ServerState, state_of
from app.server.stop_sequences import StopFinder
from app.server.tool_specs import planning_error
from app.server.tool_turns import TurnEnd, prepare_turn, stream_turn, whole_turn
from app.server.vision import base64_images, check_vision_model
from app.tool_calls import ToolChoice, ToolSpec, plan_tool_calls
from pipelines.core import InvalidInputError

router = APIRouter(prefix="/v1", route_class=TextRoute)

#: Where a refusal of the answer's JSON schema points.
SCHEMA_PARAM = "output_config.format.schema"
#: The choice of a request without tool_choice.
NO_CHOICE = ToolChoice("auto")


@router.post("/messages", response_model=None)
async def create_message(
    request: Request, body: MessagesRequest
) -> dict[str, Any] | EventSourceResponse:
    """The assistant's answer to the conversation, whole or streamed."""
    state = state_of(request)
    refuse_unsupported(body)
    tools, choice = request_tools(body)
    conversation = read_conversation(body)
    model = state.served.resolve(body.model)
    if conversation.has_images:
        check_vision_model(model, conversation.images_param)
    images = (
        await anyio.to_thread.run_sync(
            base64_images, conversation.images, conversation.images_param
        )
        if conversation.images
        else []
    )
    engine = await state.served.serving(model)
    if tools or has_tool_turns(conversation.messages):
        return await _tool_answer(
            request, state, engine, model, body, conversation.messages, tools, choice, images
        )
    # Templating and counting up to 400,000 characters: a worker's job, not the event loop's.
    prompt_tokens, options = await anyio.to_thread.run_sync(
        request_options, state, engine, body, conversation.messages
    )
    # Submitted here, not in the stream: a refused prompt is a 400, not a broken stream.
    prompt = ChatPrompt(conversation.messages, images)
    answer = stream_completion(engine, prompt, options, state.ctx.metrics)
    state.requests += 1
    message, stops = new_message(model, prompt_tokens), StopFinder(options.stop)
    if body.stream:
        events = message_events(answer, message, stops)
        return EventSourceResponse(events, ping=15, sep="\n", ping_message_factory=ping)
    completion = await complete(answer, request.receive)
    return whole_message(message, completion.text, TurnEnd(completion), stops)


async def _tool_answer(
    request: Request,
    state: ServerState,
    engine: BatchingEngine,
    model: ServedModel,
    body: MessagesRequest,
    messages: list[Message],
    tools: list[ToolSpec],
    choice: ToolChoice,
    images: list[NDArray[np.uint8]],
) -> dict[str, Any] | EventSourceResponse:
    """The answer to a conversation with tools, or with tool uses and results in it: a turn
    of the shared tool-call layer (:mod:`app.server.tool_turns`)."""
    schema = output_schema(body)
    counted: list[int] = []

    def options_for(prompt_tokens: int) -> RequestOptions:
        counted.append(prompt_tokens)  # the first step's: the message's input tokens
        return answer_options_for(state, body, prompt_tokens, schema)

    turn = await anyio.to_thread.run_sync(
        prepare_turn, engine, messages, tools, choice, options_for, images
    )
    events = stream_turn(engine, turn, state.ctx.metrics)
    state.requests += 1
    message, stops = new_message(model, counted[0]), StopFinder(body.stop_sequences or ())
    one_call = one_call_at_most(body)
    if body.stream:
        stream = message_events(events, message, stops, tools=True, one_call=one_call)
        return EventSourceResponse(stream, ping=15, sep="\n", ping_message_factory=ping)
    whole = await whole_turn(events, request.receive)
    return whole_message(message, whole.text, whole.end, stops, one_call=one_call)


@router.post("/messages/count_tokens")
async def count_tokens(request: Request, body: CountTokensRequest) -> dict[str, int]:
    """How many tokens the conversation takes as the model reads it, its tools' instructions
    included (its text: a vision model's image tokens are not counted)."""
    state = state_of(request)
    refuse_unsupported(body)
    tools, choice = request_tools(body)
    conversation = read_conversation(body)
    model = state.served.resolve(body.model)
    engine = await state.served.serving(model)
    tokens = await anyio.to_thread.run_sync(
        prompt_tokens_of, engine, conversation.messages, tools, choice
    )
    return {"input_tokens": tokens}


# ----- the parts ---------------------------------------------------------------------------


def refuse_unsupported(body: ConversationRequest) -> None:
    """Refuse what would change the answer if it were ignored and cannot be honoured.

    Raises:
        ApiError: 400 naming the first such field.
    """
    if body.thinking is not None and body.thinking.type == "enabled":
        raise ApiError(
            400,
            "thinking (extended thinking with a budget) is not supported by this server; "
            "leave it out or set it to disabled.",
            param="thinking",
        )
    if body.mcp_servers:
        raise ApiError(
            400,
            "mcp_servers (the MCP connector) is not supported by this server; connect MCP "
            "servers in your client instead.",
            param="mcp_servers",
        )
    if body.container is not None:
        raise ApiError(
            400, "container (code execution) is not supported by this server.", param="container"
        )
    for index, tool in enumerate(body.tools or ()):
        if tool.type not in (None, "custom"):
            raise ApiError(
                400,
                f"tools.{index}: '{tool.type}' is one of Anthropic's server tools, which this "
                "server does not have; only your own tools (name, description, input_schema) "
                "can be offered.",
                param=f"tools.{index}.type",
            )
    choice = body.tool_choice
    if choice is not None and choice.type in ("any", "tool") and not body.tools:
        raise ApiError(
            400,
            f"tool_choice '{choice.type}' needs tools, and none were given.",
            param="tool_choice",
        )


def request_options(
    state: ServerState,
    engine: BatchingEngine,
    body: MessagesRequest,
    messages: list[Message],
) -> tuple[int, RequestOptions]:
    """The prompt's tokens, and the sampling, length, stop sequences and output format of its
    answer (blocking: templating and counting run on a worker thread).

    Raises:
        ApiError: the prompt fills the model's context, or a JSON schema that is unusable or
            whose grammar costs more than the engine may spend on it.
        InvalidInputError: a value the engine refuses (answered as a 400).
    """
    prompt_tokens = prompt_tokens_of(engine, messages)
    options = answer_options_for(state, body, prompt_tokens, output_schema(body))
    try:
        engine.check_grammar(options)  # a new schema is tried here, on this worker thread
    except InvalidInputError as error:
        raise ApiError(400, str(error), param=SCHEMA_PARAM) from error
    return prompt_tokens, options


def answer_options_for(
    state: ServerState, body: MessagesRequest, prompt_tokens: int, schema: str | None
) -> RequestOptions:
    """The options of an answer to a prompt of ``prompt_tokens``: the request's sampling and
    stop sequences (the served model's settings fill the rest), ``max_tokens`` cut to the
    room the context leaves, and the JSON ``schema`` it follows (if any).

    Raises:
        ApiError: the prompt fills the model's context.
    """
    context = state.served.context_tokens
    room = context - prompt_tokens if context else MAX_ANSWER_TOKENS
    # Cut to the room left (a full context is still refused, by answer_options).
    wanted = min(body.max_tokens, MAX_ANSWER_TOKENS, room) if room > 0 else body.max_tokens
    # Anthropic's sampling fields as the option builder the OpenAI routes share reads them.
    sampling = SampledRequest(
        temperature=body.temperature,
        top_p=body.top_p,
        top_k=body.top_k,
        repetition_penalty=body.repetition_penalty,
        seed=body.seed,
        stop=body.stop_sequences,
    )
    options = answer_options(
        state, prompt_tokens, wanted, sampling, json_schema=schema, what="messages"
    )
    # The stop sequence stays in the text for StopFinder to tell which one ended the answer.
    return replace(options, stop_in_text=True)


def prompt_tokens_of(
    engine: BatchingEngine,
    messages: list[Message],
    tools: Sequence[ToolSpec] = (),
    choice: ToolChoice = NO_CHOICE,
) -> int:
    """The tokens ``messages`` take through the model's chat template, with the tools'
    instructions as the tool-call layer gives them (blocking).

    Raises:
        ApiError: 400 for tools or a choice the layer refuses.
    """
    if not tools and not has_tool_turns(messages):
        return engine.count_tokens(engine.template(messages))
    try:
        first = plan_tool_calls(messages, tools, choice, engine.chat_template).first
    except InvalidInputError as error:
        raise planning_error(error) from error
    return engine.count_tokens(engine.template(first.messages, first.tools))


def output_schema(body: MessagesRequest) -> str | None:
    """The JSON schema the answer must follow (``output_config.format``), checked as the
    OpenAI routes check theirs.

    Raises:
        ApiError: 400 when the schema is unusable.
    """
    output_format = body.output_config.format if body.output_config else None
    if output_format is None:
        return None
    return openai_output_schema("json_schema", output_format.schema_, SCHEMA_PARAM)
