"""Turns at the knowledge busy lock: a user's ingest waits for a followed folder's batch (and
can be cancelled while it waits), the follower lets a waiting user in first, and a user's job
still refuses another user's at once. Threads meet on events, never on sleeps."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from app.core.errors import BusyError
from app.engines.slots import BusyLock
from app.knowledge.ingest_turns import IngestTurns
from pipelines.core import CancelToken

DEADLINE_S = 60.0


@contextmanager
def batch_holding(turns: IngestTurns) -> Iterator[threading.Event]:
    """A followed folder's batch holds the lock on another thread until the event is set."""
    held, release = threading.Event(), threading.Event()

    def batch() -> None:
        with turns.batch("syncing"):
            held.set()
            release.wait(DEADLINE_S)

    thread = threading.Thread(target=batch)
    thread.start()
    assert held.wait(DEADLINE_S)
    try:
        yield release
    finally:
        release.set()
        thread.join(DEADLINE_S)


def start_user_job(
    turns: IngestTurns, cancel: CancelToken, results: list[bool], waiting: threading.Event
) -> threading.Thread:
    def job() -> None:
        with turns.user_job("An ingest is already running", cancel, waiting.set) as ready:
            results.append(ready)
            results.append(turns.batch_running)  # never while the user's job holds the lock

    thread = threading.Thread(target=job)
    thread.start()
    return thread


def test_a_users_ingest_waits_for_the_batch_then_runs() -> None:
    turns = IngestTurns(BusyLock())
    results: list[bool] = []
    waiting = threading.Event()
    with batch_holding(turns) as release:
        user = start_user_job(turns, CancelToken(), results, waiting)
        assert waiting.wait(DEADLINE_S)  # said it waits, instead of being refused
        # The follower's next batch lets the waiting user in first.
        with pytest.raises(BusyError), turns.batch("syncing"):
            pass
        assert results == []
        release.set()
        user.join(DEADLINE_S)
    assert results == [True, False]


def test_cancel_while_waiting_stops_without_the_lock() -> None:
    busy = BusyLock()
    turns = IngestTurns(busy)
    results: list[bool] = []
    waiting = threading.Event()
    cancel = CancelToken()
    with batch_holding(turns):
        user = start_user_job(turns, cancel, results, waiting)
        assert waiting.wait(DEADLINE_S)
        cancel.cancel()
        user.join(DEADLINE_S)
        assert not user.is_alive()
        assert results[:1] == [False]  # the batch still holds it, untouched
        assert turns.batch_running
    with turns.batch("syncing"):  # the cancelled user waits no more: the follower goes on
        pass
    assert not busy.busy


def test_a_users_job_still_refuses_another_and_makes_the_batch_wait() -> None:
    busy = BusyLock()
    turns = IngestTurns(busy)
    with turns.user_job("An ingest is already running", CancelToken(), lambda: None) as ready:
        assert ready
        second = turns.user_job("An ingest is already running", CancelToken(), lambda: None)
        with pytest.raises(BusyError, match="already running"), second:
            pass
        with pytest.raises(BusyError, match="syncing"), turns.batch("syncing"):
            pass
    # A deletion is a user's job too: refused, not waited for.
    third = turns.user_job("An ingest is already running", CancelToken(), lambda: None)
    with busy.hold("deleting"), pytest.raises(BusyError, match="already running"), third:
        pass
