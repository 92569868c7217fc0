"""One turn of the spoken conversation as the listener heard it, possibly before it is over.

A turn is *speculative* when it starts at a short pause (``speech_paused``): its answer is
transcribed, written and synthesised while the listener waits for the full end-of-turn silence,
but nothing of it reaches the user or the conversation until :meth:`HeardTurn.confirm`. Speech
coming back first :meth:`~HeardTurn.drop`\\ s it silently. A confirmed turn can still be dropped
(its speech goes on into the next turn) until its answer is heard or kept
(:meth:`~HeardTurn.keep`); after that, new speech is a barge-in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Protocol

from app.core.audio.devices import Float32Array
from pipelines.core import CancelToken


class Answering(Protocol):
    """What a turn needs of its spoken answer (a
    :class:`~app.hands_free.spoken_answer.SpokenAnswer`)."""

    def release(self) -> None: ...

    def interrupt(self) -> None: ...

    @property
    def heard(self) -> bool: ...


class HeardTurn:
    """What was said (16 kHz, from the start of the turn), when it ended, and its fate.

    Args:
        utterance: the speech to transcribe.
        at: when the speech ended (or paused), on :func:`time.monotonic`'s clock.
        confirmed: the end-of-turn silence was heard (False: a speculative turn).
    """

    def __init__(self, utterance: Float32Array, at: float, *, confirmed: bool) -> None:
        self.utterance = utterance
        self.at = at
        self.cancel = CancelToken()
        self._lock = threading.Lock()
        self._confirmed = confirmed
        self._dropped = False
        self._kept = False
        self._decided = threading.Event()
        if confirmed:
            self._decided.set()
        self._held: list[Callable[[], None]] = []
        self._answer: Answering | None = None

    @property
    def confirmed(self) -> bool:
        """The user's turn is over (the end-of-turn silence was heard)."""
        with self._lock:
            return self._confirmed

    def attach(self, answer: Answering) -> None:
        """The answer being prepared (created held): released when the turn is confirmed."""
        with self._lock:
            self._answer = answer
            confirmed, dropped = self._confirmed, self._dropped
        if dropped:
            answer.interrupt()
        elif confirmed:
            answer.release()

    def show(self, action: Callable[[], None]) -> None:
        """Do ``action`` (tell the user something) now if confirmed, at confirmation if not,
        never if the turn is dropped."""
        with self._lock:
            if self._dropped:
                return
            if not self._confirmed:
                self._held.append(action)
                return
        action()

    def confirm(self) -> None:
        """The end-of-turn silence came: what was held is shown, the answer heard (listener's
        thread)."""
        with self._lock:
            if self._dropped or self._confirmed:
                return
            self._confirmed = True
            held, self._held = self._held, []
            answer = self._answer
            # Under the lock: what the turn's thread shows next must come after these.
            for action in held:
                action()
        self._decided.set()
        if answer is not None:
            answer.release()

    def drop(self) -> bool:
        """Cancel the turn silently (more speech continues it); False when it is too late:
        its answer is being heard or kept (then it is a barge-in)."""
        with self._lock:
            if self._kept or (self._answer is not None and self._answer.heard):
                return False
            self._dropped = True
            self._held.clear()
            answer = self._answer
        self.cancel.cancel()
        self._decided.set()
        if answer is not None:
            answer.interrupt()
        return True

    def interrupt(self) -> None:
        """Stop the turn's work (barge-in, or the conversation stops); an unconfirmed turn is
        dropped, a confirmed one keeps what was said."""
        if not self.confirmed and self.drop():
            return
        self.cancel.cancel()
        with self._lock:
            answer = self._answer
        if answer is not None:
            answer.interrupt()

    def keep(self) -> bool:
        """Wait for the turn's fate; True: its answer is to be saved (the chat's ``confirm``).

        After True the turn can no longer be dropped."""
        self._decided.wait()
        with self._lock:
            self._kept = not self._dropped
            return self._kept
