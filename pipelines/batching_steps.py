"""The one thread that steps a ``ContinuousBatchingPipeline``.

:class:`~pipelines.batching.BatchingEngine` starts a :class:`StepLoop` on its own thread when
it loads (the pipeline is not thread-safe). Each turn of the loop admits the requests queued
since the last (:class:`~pipelines.serving_queue.RequestQueue`), drops the cancelled ones,
and calls ``step()``, which advances every running request by one token; the new tokens go
through each request's streamer to its ``on_text``, and a request the scheduler has finished
ends with its completion. An idle loop sleeps until a request is submitted.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from pipelines.generation import structured_output_refusal
from pipelines.native_weights import FirstAnswerRelease
from pipelines.openvino_errors import openvino_reason
from pipelines.serving_queue import RequestQueue, Running, loop_watch
from pipelines.serving_requests import FinishReason, VisionInput

log = logging.getLogger(__name__)


class StepLoop:
    """Admits, steps and ends the requests of one pipeline (runs on the engine's thread)."""

    def __init__(
        self,
        pipe: Any,
        tokenizer: Any,
        requests: RequestQueue,
        wake: threading.Event,
        device: str,
        weights: FirstAnswerRelease | None = None,
    ) -> None:
        """``wake`` is set by whoever queues a request (an idle loop waits on it); ``device``
        names where the pipeline runs, for the message when a step fails; ``weights`` lets
        the model's mapped weight pages go after the first step (which has run every layer,
        so the plugin holds its own copy)."""
        self._pipe = pipe
        self._tokenizer = tokenizer
        self._requests = requests
        self._wake = wake
        self._device = device
        self._weights = weights or FirstAnswerRelease(None)
        self._running: dict[int, Running] = {}
        self._unfreed = False
        """A request was cancelled since the last step (whose blocks that step frees)."""

    def run(self) -> None:
        """Step until the queue stops, then cancel what still runs (the thread's target)."""
        pipe = self._pipe
        try:
            while not self._requests.stopping:
                self._admit()
                self._cancel_requested()
                # A cancelled request's KV-cache blocks are freed by the next step: one more
                # step when it was the last one, so an idle engine holds no blocks.
                if not self._running and not self._unfreed:
                    self._wake.wait(timeout=0.5)
                    self._wake.clear()
                    continue
                self._unfreed = False
                try:
                    pipe.step()
                except RuntimeError as error:  # the device failed: every request ends with it
                    reason = structured_output_refusal(error) or (
                        f"Generation failed on {self._device}: {openvino_reason(error)}"
                    )
                    log.error("%s", reason)
                    for running in list(self._running.values()):
                        self._end(running, "error", reason)
                    continue
                self._weights.answered()
                self._collect()
        finally:
            for running in list(self._running.values()):
                running.handle.cancel()
                self._end(running, "cancelled")
            self._requests.drain()

    def _admit(self) -> None:
        import openvino_genai as ov_genai

        pipe = self._pipe
        while (queued := self._requests.take()) is not None:
            request, payload, config = queued.request, queued.payload, queued.config
            if request.cancelled:
                self._requests.end_unstarted(request, "cancelled")
                continue
            try:
                if isinstance(payload, VisionInput):
                    handle = pipe.add_request(request.id, payload.text, payload.images, config)
                else:
                    handle = pipe.add_request(request.id, payload, config)
            except RuntimeError as error:
                self._requests.end_unstarted(request, "error", openvino_reason(error))
                continue
            running = Running(request, handle, None, queued.on_text, loops=loop_watch(config))
            if config.logprobs:
                running.log_probs = []

            def emit(text: str, running: Running = running) -> Any:
                running.pieces.append(text)
                if running.loops is not None:
                    running.loops.feed(text)
                try:
                    running.on_text(text)
                except Exception:  # a caller's slip must not stop the other requests
                    log.exception("on_text of request %s failed", running.request.id)
                return ov_genai.StreamingStatus.RUNNING

            running.streamer = ov_genai.TextStreamer(self._tokenizer, emit)
            self._running[request.id] = running

    def _cancel_requested(self) -> None:
        for running in list(self._running.values()):
            if running.request.cancelled:
                running.handle.cancel()  # frees its KV-cache blocks at the next step
                self._unfreed = True
                self._end(running, "cancelled")

    def _collect(self) -> None:
        import openvino_genai as ov_genai

        finished = ov_genai.GenerationFinishReason
        for running in list(self._running.values()):
            handle = running.handle
            if handle.can_read():
                for output in handle.read().values():
                    if output.generated_ids and not running.first_token_at:
                        running.first_token_at = time.perf_counter()
                    for token in output.generated_ids:
                        running.streamer.write(token)
                    running.generated += len(output.generated_ids)
                    if running.log_probs is not None:
                        running.token_ids.extend(output.generated_ids)
                        running.log_probs.extend(output.generated_log_probs)
                    if output.finish_reason == finished.LENGTH:
                        running.finish = "length"
                if running.loops is not None and running.loops.looped:
                    handle.cancel()  # the rest would be the loop, to the length limit
                    self._unfreed = True
                    self._end(running, "stop")
                    continue
            status = handle.get_status()
            if status.name not in ("RUNNING",):
                if status.name == "IGNORED":
                    self._end(running, "error", "the scheduler had no room for this request")
                else:
                    self._end(running, running.finish)

    def _end(self, running: Running, reason: FinishReason, error: str = "") -> None:
        self._running.pop(running.request.id, None)
        self._requests.end(running, reason, error)
