"""Turns at the knowledge busy lock between a user's ingest and the follower's batches.

The follower of followed folders holds the busy lock one batch of files at a time
(:mod:`app.knowledge.sync_pass`). A user who starts an ingest meanwhile started nothing else,
so refusing with "an ingest is already running" would be wrong: their ingest waits for the
batch to end instead (saying so in its progress; Cancel works while it waits), and the
follower lets it in before taking its next batch. A user's ingest still refuses a second
user's ingest at once, as before.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from app.core.errors import BusyError
from app.core.texts import tr
from app.engines.slots import BusyLock
from pipelines.core import CancelToken

WAIT_CHECK_S = 0.2
"""How often a waiting ingest looks at its Cancel (the batch's end wakes it at once)."""

BUSY_SYNCING = tr("A followed folder is being synced; try again in a moment.")
"""Why a batch of a sync cannot start now (the follower tries again), and why a deletion or
a switch is refused while a batch holds the lock."""


class IngestTurns:
    """Who holds the busy lock now: a followed folder's batch, or a user's job."""

    def __init__(self, busy: BusyLock) -> None:
        self._busy = busy
        self._cond = threading.Condition()
        self._batch_holds = False
        self._users_waiting = 0

    @property
    def batch_running(self) -> bool:
        """Whether a followed folder's batch holds the lock now."""
        with self._cond:
            return self._batch_holds

    @contextmanager
    def batch(self, busy_message: str) -> Iterator[None]:
        """Hold the lock for one batch of a followed folder's sync.

        Raises:
            BusyError: a user's job holds the lock or waits for it (``busy_message``): the
                follower tries again after it.
        """
        held = ExitStack()
        with self._cond:
            if self._users_waiting:
                raise BusyError(busy_message)
            held.enter_context(self._busy.hold(busy_message))
            self._batch_holds = True
        try:
            yield
        finally:
            # Flag and lock change together: a user's ingest never sees the lock held by a
            # batch that is not flagged (it would be refused as if a user's job held it).
            with self._cond:
                self._batch_holds = False
                held.close()
                self._cond.notify_all()

    @contextmanager
    def refusal_named(self) -> Iterator[None]:
        """Run a job that is refused, not queued, under the lock (a deletion, a switch): when
        a followed folder's batch is what holds it, the refusal says so rather than blaming
        an ingest the user never started."""
        try:
            yield
        except BusyError as error:
            if self.batch_running:
                raise BusyError(BUSY_SYNCING, field=error.field) from error
            raise

    @contextmanager
    def user_job(
        self, busy_message: str, cancel: CancelToken, on_wait: Callable[[], None]
    ) -> Iterator[bool]:
        """Hold the lock for a user's ingest, waiting while a followed folder's batch holds it.

        Yields True once the lock is held, False when ``cancel`` was set while waiting.
        ``on_wait`` is called once, when the wait begins (on the calling thread).

        Raises:
            BusyError: another user's job holds the lock (``busy_message``).
        """
        held = self._wait_for_turn(busy_message, cancel, on_wait)
        if held is None:
            yield False
            return
        with held:
            yield True

    def _wait_for_turn(
        self, busy_message: str, cancel: CancelToken, on_wait: Callable[[], None]
    ) -> ExitStack | None:
        held = ExitStack()
        waiting = False
        try:
            while True:
                with self._cond:
                    try:
                        held.enter_context(self._busy.hold(busy_message))
                        return held
                    except BusyError:
                        if not self._batch_holds:
                            raise  # a user's job (an ingest, a deletion) holds it
                    if not waiting:
                        waiting = True
                        self._users_waiting += 1
                    else:
                        self._cond.wait(WAIT_CHECK_S)
                        if cancel.cancelled:
                            return None
                        continue
                on_wait()  # outside the condition: it reports progress to the window
                if cancel.cancelled:
                    return None
        finally:
            if waiting:
                with self._cond:
                    self._users_waiting -= 1
