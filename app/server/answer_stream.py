"""From the engine's thread to the event loop: one request's answer as an async generator.

The engine calls back on its own thread once per token. Handing every token to the event loop
on its own, and sending each as its own Server-Sent Event, cost the API about 7 % of the
engine's tokens/s on 2 cores (benchmarks/bench_server.py): the loop, the JSON and the
client's parsing ran once per token beside the model. So the text is *paced*: the first piece
goes out at once (time to first token is untouched), and after each piece the stream waits up
to :data:`CHUNK_INTERVAL_S` while the tokens generated meanwhile gather into the next one.
The end of the answer is never held back: it wakes the stream at once.

Closing the generator early (the client went away) cancels the request, which frees its KV
cache at the engine's next step; a generator dropped before it ever started is cancelled when
it is collected. A streamed response notices the client leaving when it writes; a whole
answer is written only at the end, so :func:`complete` listens for the client's disconnect
while the answer is generated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import aclosing
from typing import TypeVar

import anyio
from starlette.types import Receive

from app.chat import BatchingEngine, BatchRequest, Completion, Prompt, RequestOptions
from app.core import MetricsBus
from app.server.errors import ApiError
from pipelines.core import MetricRecord

log = logging.getLogger(__name__)

#: The shortest time between two pieces of one stream (50 pieces a second at most): tokens
#: generated faster than this share a piece. Too short to see; a third of the events at
#: 120 tokens/s.
CHUNK_INTERVAL_S = 0.02

T = TypeVar("T")


class _Mailbox:
    """What the engine's thread posts for the event loop: text, then the completion."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._lock = threading.Lock()
        self._text: list[str] = []
        self._completion: Completion | None = None
        self._notified = False
        self.arrived = asyncio.Event()
        self.ended = asyncio.Event()

    def post(self, item: str | Completion) -> None:
        """On the engine's thread: keep ``item`` and wake the loop if it is not awake yet."""
        with self._lock:
            if isinstance(item, Completion):
                self._completion = item
            else:
                self._text.append(item)
            wake = not self._notified or isinstance(item, Completion)
            self._notified = True
        if wake:
            # The event loop has closed when the client went away: the request is cancelled.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._wake, isinstance(item, Completion))

    def _wake(self, ended: bool) -> None:
        self.arrived.set()
        if ended:
            self.ended.set()

    def take(self) -> tuple[str, Completion | None]:
        """On the loop: the text posted so far (joined) and the completion, if it came."""
        self.arrived.clear()
        with self._lock:
            self._notified = False  # before the text is taken: a later post wakes the loop
            text, self._text = "".join(self._text), []
            return text, self._completion


def stream_completion(
    engine: BatchingEngine,
    prompt: Prompt,
    options: RequestOptions,
    metrics: MetricsBus | None = None,
) -> AsyncGenerator[str | Completion, None]:
    """Submit the request now, and give the answer's text in pieces as it comes, then its
    :class:`Completion`.

    The request is submitted before this returns (call it on the event loop), so a refused
    prompt or option raises here, before a streamed response has sent its status line.

    Raises:
        InvalidInputError: the prompt or an option was refused.
    """
    mailbox = _Mailbox(asyncio.get_running_loop())
    request = engine.submit(prompt, options, mailbox.post, mailbox.post)
    answer = _answer(engine, request, mailbox, metrics)
    # A generator never started (the client left before the response began) runs no
    # ``finally`` when it is dropped: its request is cancelled when it is collected instead.
    weakref.finalize(answer, request.cancel)
    return answer


class ClientGoneError(ApiError):
    """The client closed its connection before its whole answer was ready (no one reads
    this error: it only ends the route)."""

    def __init__(self) -> None:
        super().__init__(499, "The client closed the connection before the answer was complete.")


async def complete(answer: AsyncGenerator[str | Completion, None], receive: Receive) -> Completion:
    """The whole answer of a submitted request (see :func:`stream_completion`); ``receive``
    is the request's ASGI receive, its body already read: a disconnect it reports while the
    answer is generated cancels the request, which frees its place in the engine at once.

    Raises:
        ApiError: 503 when the model failed on it.
        ClientGoneError: the client went away first (the request was cancelled).
    """
    return (await complete_all([answer], receive))[0]


async def complete_all(
    answers: Sequence[AsyncGenerator[str | Completion, None]], receive: Receive
) -> list[Completion]:
    """The whole answers of several submitted requests of one client (``n`` choices),
    generated together, in order; as :func:`complete` for one.

    Raises:
        ApiError: 503 when the model failed on one (the others are cancelled).
        ClientGoneError: the client went away first (every request was cancelled).
    """

    async def every_answer() -> list[Completion]:
        outcomes: list[Completion | None] = [None] * len(answers)
        failure: ApiError | None = None
        async with anyio.create_task_group() as answering:

            async def settle(index: int) -> None:
                nonlocal failure
                try:
                    outcomes[index] = await _whole(answers[index])
                except ApiError as error:
                    failure = failure or error
                    answering.cancel_scope.cancel()  # the others are cancelled

            for index in range(len(answers)):
                answering.start_soon(settle, index)
        if failure is not None:
            raise failure
        return [outcome for outcome in outcomes if outcome is not None]

    return await unless_gone(every_answer, receive)


async def unless_gone(work: Callable[[], Awaitable[T]], receive: Receive) -> T:
    """``work()``'s result, unless the client goes away first (``receive`` reports it): then
    ``work`` is cancelled — closing the answers it waits on, which cancels their requests.

    Raises:
        ApiError: what ``work`` raised.
        ClientGoneError: the client went away first.
    """
    outcome: list[T] = []
    failure: ApiError | None = None
    async with anyio.create_task_group() as group:

        async def cancel_when_gone() -> None:
            await until_disconnected(receive)
            group.cancel_scope.cancel()  # closes the answer mid-wait: the request is cancelled

        group.start_soon(cancel_when_gone)
        try:
            outcome.append(await work())
        except ApiError as error:
            failure = error
        group.cancel_scope.cancel()
    if failure is not None:
        raise failure
    if not outcome:
        log.info("a client went away before its answer was complete; the answer was cancelled")
        raise ClientGoneError()
    return outcome[0]


async def interleaved(
    answers: Sequence[AsyncGenerator[str | Completion, None]],
) -> AsyncGenerator[tuple[int, str | Completion], None]:
    """The pieces of several streamed answers (``n`` choices) as they come, each with its
    answer's index; each answer ends with its :class:`Completion`. Closing this closes every
    answer (their requests are cancelled)."""
    if len(answers) == 1:  # the usual case: no task per piece
        async with aclosing(answers[0]) as only:
            async for item in only:
                yield 0, item
        return
    pending = {asyncio.ensure_future(anext(answer)): index for index, answer in enumerate(answers)}
    try:
        while pending:
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in sorted(done, key=pending.__getitem__):  # a stable order when together
                index = pending.pop(task)
                try:
                    item = task.result()
                except StopAsyncIteration:
                    continue
                yield index, item
                if not isinstance(item, Completion):
                    pending[asyncio.ensure_future(anext(answers[index]))] = index
    finally:
        for task in pending:
            task.cancel()  # raises in the answer's wait: its ``finally`` cancels its request
        # Shielded: a stream cancelled by its client's leaving (an anyio scope) would cancel
        # these waits too, and an answer cannot be closed while its task still runs.
        with anyio.CancelScope(shield=True):
            await asyncio.gather(*pending, return_exceptions=True)
            for answer in answers:
                await answer.aclose()


async def until_disconnected(receive: Receive) -> None:
    """Return when the client has gone away (``receive`` reports ``http.disconnect``)."""
    while (await receive())["type"] != "http.disconnect":
        pass  # the rest of a body nobody asked for: the request's body was read already


async def _whole(answer: AsyncGenerator[str | Completion, None]) -> Completion:
    async with aclosing(answer):
        async for item in answer:
            if isinstance(item, Completion):
                if item.finish_reason == "error":
                    raise ApiError(503, item.error or "The model failed on this request.")
                return item
    raise ApiError(503, "The answer ended before it was complete.")  # the engine stopped


async def _answer(
    engine: BatchingEngine,
    request: BatchRequest,
    mailbox: _Mailbox,
    metrics: MetricsBus | None,
) -> AsyncGenerator[str | Completion, None]:
    try:
        while True:
            await mailbox.arrived.wait()
            text, completion = mailbox.take()
            if text:
                yield text
            if completion is not None:
                # Published before the yield: a caller that returns on the Completion closes
                # this generator at the yield, and nothing after it would run.
                if metrics is not None:
                    metrics.publish(_request_record(engine, completion))
                yield completion
                return
            if text:  # pace: what comes meanwhile joins the next piece (the end does not wait)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(mailbox.ended.wait(), CHUNK_INTERVAL_S)
    finally:
        if not request.done:
            request.cancel()


def _request_record(engine: BatchingEngine, completion: Completion) -> MetricRecord:
    return MetricRecord(
        "server",
        engine.config.device,
        {
            "ttft_ms": completion.ttft_ms,
            "tokens_per_s": completion.tokens_per_s,
            "input_tokens": float(completion.prompt_tokens),
            "output_tokens": float(completion.completion_tokens),
            "active_requests": float(engine.active),
        },
    )
