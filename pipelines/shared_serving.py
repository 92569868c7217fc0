"""Serving requests with a chat model the window has loaded already: no second copy.

The server's :class:`~pipelines.batching.BatchingEngine` compiles its own
``ContinuousBatchingPipeline``; when the model a client asks for is the one the chat window
has open, that would hold the weights twice (the window's ``LLMPipeline`` and the server's).
:class:`SharedChatEngine` is a :class:`BatchingEngine` whose requests run on the window's
:class:`~pipelines.chat.ChatPipeline` instead: the same queue, requests, cancellation,
completions and figures the server reads, but one request at a time, each taking ``turn``
(the chat's lock) so that the window's answers and the server's requests take turns on the
one model (an ``LLMPipeline`` is not thread-safe). Requests wait in the queue rather than
interleave: a client sharing the window's model trades the batching for the memory.

REPL use::

    chat = ChatPipeline(ChatModelConfig(Path("models/smollm2.gguf"), converted_dir=...))
    chat.load()
    engine = SharedChatEngine(chat, turn=threading.Lock)
    engine.load()
    engine.submit(ChatPrompt([Message("user", "Hi")]), RequestOptions(), print).wait().text
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from pipelines.batching import BatchingEngine, ServingConfig
from pipelines.chat import ChatPipeline
from pipelines.core import ModelLoadError
from pipelines.engine_options import apply_to_generation
from pipelines.generation import structured_output_refusal
from pipelines.model_sampling import sampling_from_folder
from pipelines.openvino_errors import openvino_reason
from pipelines.serving_queue import Running, loop_watch
from pipelines.serving_requests import VisionInput

log = logging.getLogger(__name__)


class SharedChatEngine(BatchingEngine):
    """The server's engine over a loaded :class:`ChatPipeline` it shares (thread-safe)."""

    name = "serving"
    token_log_probs = False  # LLMPipeline.generate gives a whole answer's score only

    def __init__(self, chat: ChatPipeline, turn: Callable[[], AbstractContextManager[Any]]) -> None:
        super().__init__(
            ServingConfig(
                chat.config.model_path,
                chat.device,
                max_sequences=1,
                grammar_guard=chat.config.grammar_guard,
            )
        )
        self.chat = chat
        """The shared pipeline (the window's; never closed here)."""
        self._turn = turn

    def _load(self) -> Any:
        """Take the chat pipeline's model and tokenizer, and start the request thread (it
        compiles nothing).

        Raises:
            ModelLoadError: the chat pipeline is not loaded.
        """
        pipe = self.chat._model
        if pipe is None:
            raise ModelLoadError("The chat model is not loaded.", field="model")
        self._tokenizer = pipe.get_tokenizer()
        self._tokenizer_source = self.chat.tokenizer_source
        gguf, path = self.chat.gguf, self.config.model_path
        self.sampling = gguf.sampling if gguf is not None else sampling_from_folder(path)
        self._requests.open()
        self._thread = threading.Thread(target=self._serve, name="shared-serving")
        self._thread.daemon = True
        self._thread.start()
        log.info("serving %s with the chat's pipeline", self.config.model_path)
        # The chat pipeline, not its model: when the window closes it (another model), its
        # weights go at once, and a request still queued here ends with an error.
        return self.chat

    def _serve(self) -> None:
        """Run the queued requests one at a time until the queue stops (the thread's target)."""
        requests = self._requests
        try:
            while not requests.stopping:
                queued = requests.take(timeout=0.5)
                if queued is None:
                    continue
                request = queued.request
                if request.cancelled or requests.stopping:
                    requests.end_unstarted(request, "cancelled")
                    continue
                if isinstance(queued.payload, VisionInput):  # submit refuses images: not a VLM
                    requests.end_unstarted(request, "error", "this model does not take images")
                    continue
                running = Running(
                    request, None, None, queued.on_text, loops=loop_watch(queued.config)
                )
                with self._turn():
                    pipe = self.chat._model  # taken per request, never kept (see _load)
                    if pipe is None:
                        requests.end(running, "error", "the chat model was closed")
                        continue
                    self._run(pipe, running, queued.payload, queued.config)
                    del pipe
        finally:
            requests.drain()

    def _run(self, pipe: Any, running: Running, input_ids: Any, config: Any) -> None:
        """One request to its end on the shared pipeline."""
        import openvino_genai as ov_genai

        request = running.request
        go_on, stop = ov_genai.StreamingStatus.RUNNING, ov_genai.StreamingStatus.STOP

        def streamer(text: str) -> Any:
            if not running.first_token_at:
                running.first_token_at = time.perf_counter()
            running.pieces.append(text)
            try:
                running.on_text(text)
            except Exception:  # a caller's slip must not stop the engine's thread
                log.exception("on_text of request %s failed", request.id)
            if running.loops is not None and running.loops.feed(text):
                return stop
            return stop if request.cancelled or self._requests.stopping else go_on

        config = apply_to_generation(self.chat.config.engine, config)
        try:
            result = pipe.generate(input_ids, generation_config=config, streamer=streamer)
        except RuntimeError as error:
            reason = structured_output_refusal(error) or (
                f"Generation failed on {self.config.device}: {openvino_reason(error)}"
            )
            self._requests.end(running, "error", reason)
            return
        running.generated = int(result.perf_metrics.get_num_generated_tokens())
        if request.cancelled:
            self._requests.end(running, "cancelled")
        elif running.loops is not None and running.loops.looped:
            self._requests.end(running, "stop")  # ended in a loop, as if the model had stopped
        elif running.generated >= config.max_new_tokens:
            self._requests.end(running, "length")
        else:
            self._requests.end(running, "stop")

    def close(self) -> None:
        """Stop the request thread; the shared pipeline stays loaded (the window's)."""
        super().close()
