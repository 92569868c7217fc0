"""A turn that may call tools, run on the batching engine: whole or streamed.

The tool-call layer plans the turn (:func:`app.tool_calls.plan_tool_calls`); this module runs
its steps and gives the routes one stream of events, whatever the strategy:

- ``str``: text of the answer, as it comes (a model with a tool template: held back only while
  it may be a call; a constrained choice is never shown);
- :class:`~app.tool_calls.RequestedCall`: a call, once whole;
- :class:`TurnEnd`: last, with the calls and how the turn ended (token counts of every step).

A route prepares the turn on a worker thread (:func:`prepare_turn`: templating, counting,
the grammar tried), then calls :func:`stream_turn` on the event loop — which submits the first
step at once, so a refused prompt is a 400 before a streamed response starts — and maps the
events to its wire format; :func:`whole_turn` gathers them for a whole answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncGenerator, Callable, Sequence
from contextlib import aclosing
from dataclasses import dataclass

from starlette.types import Receive

from app.chat import BatchingEngine, ChatPrompt, Completion, Message, RequestOptions
from app.core import MetricsBus
from app.server.answer_stream import stream_completion, unless_gone
from app.server.errors import ApiError
from app.server.tool_specs import planning_error
from app.tool_calls import (
    DECISION_TOKENS,
    RequestedCall,
    Step,
    ToolChoice,
    ToolPlan,
    ToolSpec,
    plan_tool_calls,
)
from pipelines.core import InvalidInputError

OptionsFor = Callable[[int], RequestOptions]
"""The request's options for a prompt of so many tokens (the route's own sampling, length,
stop strings and output format; it raises the route's 400 when the prompt does not fit)."""


@dataclass(frozen=True)
class TurnEnd:
    """How a turn ended: its calls (none: an answer) and the last step's completion, its
    token counts those of every step."""

    completion: Completion
    calls: tuple[RequestedCall, ...] = ()

    @property
    def finish_reason(self) -> str:
        """``tool_calls`` when the model called tools; else the completion's reason."""
        return "tool_calls" if self.calls else self.completion.finish_reason


TurnEvent = str | RequestedCall | TurnEnd


@dataclass(frozen=True)
class PreparedTurn:
    """A planned turn with each step's options, ready to run."""

    plan: ToolPlan
    first: RequestOptions
    declined: RequestOptions | None
    images: Sequence[object] = ()


def prepare_turn(
    engine: BatchingEngine,
    messages: Sequence[Message],
    tools: Sequence[ToolSpec],
    choice: ToolChoice,
    options_for: OptionsFor,
    images: Sequence[object] = (),
) -> PreparedTurn:
    """Plan the turn and each step's options; blocking (templating, counting, and a new
    choice grammar tried by the engine's guard): a worker thread's job.

    Raises:
        ApiError: 400 for a turn the layer refuses to plan, a prompt that does not fit, or a
            choice grammar the guard refuses.
    """
    try:
        plan = plan_tool_calls(messages, tools, choice, engine.chat_template)
    except InvalidInputError as error:
        raise planning_error(error) from error
    first = _options(engine, plan.first, options_for)
    declined = None if plan.declined is None else _options(engine, plan.declined, options_for)
    try:
        engine.check_grammar(first)
    except InvalidInputError as error:
        raise ApiError(
            400, f"The model cannot choose among these tools: {error}", param="tools"
        ) from error
    return PreparedTurn(plan, first, declined, images)


def _options(engine: BatchingEngine, step: Step, options_for: OptionsFor) -> RequestOptions:
    prompt_tokens = engine.count_tokens(engine.template(step.messages, step.tools))
    options = options_for(prompt_tokens)
    if not step.decides:
        return options
    # The choice: greedy, no penalty (its JSON repeats keys), capped, under its own grammar —
    # GenAI's JSON-schema one, not the compact: forced to write JSON without line breaks,
    # SmolLM2-135M declined tools it called when free to lay the JSON out.
    settings = dataclasses.replace(
        options.settings,
        max_new_tokens=min(options.settings.max_new_tokens, DECISION_TOKENS),
        temperature=0.0,
        repetition_penalty=1.0,
        json_schema=step.json_schema,
        compact_json=False,
    )
    return dataclasses.replace(
        options, settings=settings, json_schema=None, stop=(), presence_penalty=0.0,
        frequency_penalty=0.0,
    )  # fmt: skip


def _prompt(step: Step, images: Sequence[object]) -> ChatPrompt:
    return ChatPrompt(step.messages, images, step.tools)  # type: ignore[arg-type]


def stream_turn(
    engine: BatchingEngine, turn: PreparedTurn, metrics: MetricsBus | None = None
) -> AsyncGenerator[TurnEvent, None]:
    """Submit the turn's first step now (on the event loop), and give its events.

    Raises:
        InvalidInputError: the first step's prompt or options were refused at submit.
    """
    first = stream_completion(engine, _prompt(turn.plan.first, turn.images), turn.first, metrics)
    return _events(engine, turn, first, metrics)


async def _events(
    engine: BatchingEngine,
    turn: PreparedTurn,
    first: AsyncGenerator[str | Completion, None],
    metrics: MetricsBus | None,
) -> AsyncGenerator[TurnEvent, None]:
    plan = turn.plan
    async with aclosing(first):
        if not plan.first.decides:
            held = plan.held_text()
            calls: list[RequestedCall] = []
            async for item in first:
                if isinstance(item, Completion):
                    if held is not None and item.finish_reason != "error":
                        rest, calls = held.finish()
                        if rest:
                            yield rest
                        for call in calls:
                            yield call
                    yield TurnEnd(item, tuple(calls))
                    return
                shown = held.feed(item) if held is not None else item
                if shown:
                    yield shown
            return
        choice = await _last(first)
    if choice is None:
        return  # the engine stopped: the route says the answer ended early
    decision = plan.read(choice.text)
    if decision.calls or plan.declined is None or turn.declined is None:
        for call in decision.calls:
            yield call
        yield TurnEnd(choice, decision.calls)
        return
    answer = stream_completion(engine, _prompt(plan.declined, turn.images), turn.declined, metrics)
    async with aclosing(answer):
        async for item in answer:
            if isinstance(item, Completion):
                yield TurnEnd(_with_counts_of(item, choice))
                return
            yield item


async def _last(answer: AsyncGenerator[str | Completion, None]) -> Completion | None:
    async for item in answer:
        if isinstance(item, Completion):
            return item
    return None


def _with_counts_of(answer: Completion, choice: Completion) -> Completion:
    """``answer`` counting the tokens of the choice made before it too."""
    return dataclasses.replace(
        answer,
        prompt_tokens=answer.prompt_tokens + choice.prompt_tokens,
        completion_tokens=answer.completion_tokens + choice.completion_tokens,
        duration_ms=answer.duration_ms + choice.duration_ms,
        ttft_ms=answer.ttft_ms + choice.duration_ms,
    )


@dataclass(frozen=True)
class WholeTurn:
    """A turn gathered: its text, its calls, how it ended."""

    text: str
    end: TurnEnd

    @property
    def calls(self) -> tuple[RequestedCall, ...]:
        """The calls the model made (none: :attr:`text` is the answer)."""
        return self.end.calls


async def whole_turn(events: AsyncGenerator[TurnEvent, None], receive: Receive) -> WholeTurn:
    """The whole turn of :func:`stream_turn`'s ``events``, unless the client goes away.

    Raises:
        ApiError: 503 when the model failed on it.
        ClientGoneError: the client went away first (the requests were cancelled).
    """

    async def gather() -> WholeTurn:
        pieces: list[str] = []
        async with aclosing(events):
            async for event in events:
                if isinstance(event, str):
                    pieces.append(event)
                elif isinstance(event, TurnEnd):
                    if event.completion.finish_reason == "error":
                        message = event.completion.error or "The model failed on this request."
                        raise ApiError(503, message)
                    return WholeTurn("".join(pieces), event)
        raise ApiError(503, "The answer ended before it was complete.")

    return await unless_gone(gather, receive)
