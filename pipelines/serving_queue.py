"""The hand-off between the threads that submit requests and the one thread that runs them.

A served model's pipeline is not thread-safe, so one thread runs its requests: the batching
engine's step loop (:mod:`pipelines.batching_steps`), or the shared chat engine's loop
(:mod:`pipelines.shared_serving`). A :class:`RequestQueue` is what both sides hold: callers on
any thread :meth:`~RequestQueue.put` a request (refused once the engine stops); the engine's
thread takes them, keeps a :class:`Running` record of each one it starts, and ends each exactly
once (:meth:`~RequestQueue.end`, :meth:`~RequestQueue.end_unstarted`), which counts it and
hands its :class:`~pipelines.serving_requests.Completion` to the caller.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipelines.core import ModelLoadError
from pipelines.repetition import LoopWatch
from pipelines.serving_requests import BatchRequest, Completion, FinishReason


@dataclass(frozen=True)
class Queued:
    """A submitted request waiting for the engine's thread."""

    request: BatchRequest
    payload: Any
    """What the pipeline reads: token ids, or a :class:`~pipelines.serving_requests.VisionInput`."""
    config: Any
    """GenAI's ``GenerationConfig`` for the request."""
    on_text: Callable[[str], None]


@dataclass
class Running:
    """The engine thread's own record of a request it started."""

    request: BatchRequest
    handle: Any
    """The pipeline's handle of the request (None on an engine that runs one at a time)."""
    streamer: Any
    on_text: Callable[[str], None]
    pieces: list[str] = field(default_factory=list)
    generated: int = 0
    first_token_at: float = 0.0
    finish: FinishReason = "stop"
    log_probs: list[float] | None = None
    """Each generated token's log probability, when the request asked for them (else None)."""
    token_ids: list[int] = field(default_factory=list)
    """The generated tokens (kept when :attr:`log_probs` is)."""
    loops: LoopWatch | None = None
    """Reads the answer for a loop that ends it (None: it runs to its length, ``ignore_eos``)."""


def loop_watch(config: Any) -> LoopWatch | None:
    """A fresh :class:`LoopWatch` for a request with GenAI generation ``config``; None when it
    asked for its whole length (``ignore_eos``: a benchmark's), loop or not."""
    return None if config.ignore_eos else LoopWatch()


class RequestQueue:
    """Requests on their way to the engine's thread, and the count of those not yet ended
    (thread-safe)."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Queued] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._active = 0
        self._finished = 0

    @property
    def stopping(self) -> bool:
        """Whether the engine is stopping: :meth:`put` refuses."""
        return self._stopping.is_set()

    @property
    def active(self) -> int:
        """Requests put and not yet ended."""
        with self._lock:
            return self._active

    @property
    def finished(self) -> int:
        """Requests ended since the queue was made."""
        with self._lock:
            return self._finished

    def open(self) -> None:
        """Take requests (the engine's thread is starting)."""
        self._stopping.clear()

    def stop(self) -> None:
        """Refuse new requests from now on; the engine's thread ends what it holds."""
        with self._lock:
            self._stopping.set()

    def put(self, queued: Queued) -> None:
        """Queue a request for the engine's thread.

        Raises:
            ModelLoadError: the engine is stopping.
        """
        with self._lock:
            # Under the lock stop() takes: a request is either queued before the engine's
            # last drain of the queue, or refused; never left waiting for an ended thread.
            if self._stopping.is_set():
                raise ModelLoadError("No model is being served.", field="model")
            self._active += 1
            self._queue.put(queued)

    def take(self, timeout: float = 0.0) -> Queued | None:
        """The next queued request, waiting up to ``timeout`` seconds (0: not at all), or None."""
        try:
            if timeout <= 0:
                return self._queue.get_nowait()
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def end(self, running: Running, reason: FinishReason, error: str = "") -> None:
        """End a started request with what it generated."""
        if running.streamer is not None:
            running.streamer.end()  # the last held-back characters
        now = time.perf_counter()
        started = running.request.submitted
        first = running.first_token_at or now
        completion = Completion(
            text="".join(running.pieces),
            finish_reason=reason,
            prompt_tokens=running.request.prompt_tokens,
            completion_tokens=running.generated,
            ttft_ms=(first - started) * 1000.0,
            duration_ms=(now - started) * 1000.0,
            error=error,
            token_ids=tuple(running.token_ids) if running.log_probs is not None else (),
            log_probs=tuple(running.log_probs or ()),
        )
        self._settle(running.request, completion)

    def end_unstarted(self, request: BatchRequest, reason: FinishReason, error: str = "") -> None:
        """End a request the engine never started (cancelled while queued, or refused)."""
        elapsed = (time.perf_counter() - request.submitted) * 1000.0
        self._settle(
            request, Completion("", reason, request.prompt_tokens, 0, elapsed, elapsed, error)
        )

    def drain(self) -> None:
        """End every request still queued as cancelled (the engine's thread is ending)."""
        while (queued := self.take()) is not None:
            self.end_unstarted(queued.request, "cancelled")

    def _settle(self, request: BatchRequest, completion: Completion) -> None:
        with self._lock:
            self._active -= 1
            self._finished += 1
        request.finish(completion)
