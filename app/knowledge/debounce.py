"""Debouncing: a key (a file) is due once nothing has happened to it for a quiet time.

A file being written sends a burst of notifications (200 writes: 200 "modified"); each one
pushes its due time back, so the file is read once it is quiet, not once per write. Keys
touched by one event (a move names its old and its new path, microseconds apart) fall due
together: those touched within ``together_s`` after the last due one come with it, so the
two halves of a move are never synced apart.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


class Debouncer(Generic[Key]):
    """Keys waiting for quiet; not thread-safe (its owner holds a lock around it)."""

    def __init__(
        self,
        quiet_s: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        together_s: float = 0.0,
    ) -> None:
        """Args:
        quiet_s: how long a key must be untouched to be due.
        clock: the time now, in seconds.
        together_s: keys touched this soon after a due one are due with it (less than
            ``quiet_s``: a key touched since is not quiet and stays).
        """
        self.quiet_s = quiet_s
        self.together_s = min(together_s, quiet_s)
        self._clock = clock
        self._last: dict[Key, float] = {}

    def touch(self, key: Key, *, later_s: float = 0.0) -> None:
        """Something happened to ``key`` now: it is due ``quiet_s`` (and ``later_s`` more)
        from now."""
        self._last.pop(key, None)  # re-inserted last: the dict stays in order of last touch
        self._last[key] = self._clock() + later_s

    def due(self) -> list[Key]:
        """The keys quiet for ``quiet_s`` and those touched together with them, taken out (in
        the order they were last touched)."""
        now = self._clock()
        quiet = [last for last in self._last.values() if now - last >= self.quiet_s]
        if not quiet:
            return []
        until = max(quiet) + self.together_s
        ready = [key for key, last in self._last.items() if last <= until]
        for key in ready:
            del self._last[key]
        return ready

    def wait_s(self) -> float | None:
        """Seconds until the next key is due (0 when one is), None when none waits."""
        if not self._last:
            return None
        return max(0.0, min(self._last.values()) + self.quiet_s - self._clock())

    def pending(self) -> list[Key]:
        """The keys waiting, due or not."""
        return list(self._last)

    def discard(self, predicate: Callable[[Key], bool]) -> None:
        """Forget the keys ``predicate`` picks (a folder no longer followed)."""
        for key in [key for key in self._last if predicate(key)]:
            del self._last[key]
