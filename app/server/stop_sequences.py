"""Which stop sequence ended an answer, and the answer cut before it.

GenAI stops at a stop string but does not say which one matched, and by default leaves it out
of the text, so "the model finished" and "a stop string ended it" look alike. Anthropic's
Messages API must tell them apart (``stop_reason: "stop_sequence"`` and the ``stop_sequence``
itself), so its requests keep the stop string in the text
(:attr:`~pipelines.serving_requests.RequestOptions.stop_in_text`) and :class:`StopFinder`
cuts it off here, remembering which one it was.

GenAI still holds back the tokens that could be part of a stop string until it knows
(its stream window), so a stop string arrives whole in the last pieces of a stream: nothing
before it is ever sent and taken back.
"""

from __future__ import annotations

from collections.abc import Sequence


class StopFinder:
    """Finds the first stop sequence in an answer's text, given whole or in pieces."""

    def __init__(self, stops: Sequence[str]) -> None:
        self._stops = tuple(stop for stop in stops if stop)
        self._overlap = max((len(stop) for stop in self._stops), default=1) - 1
        """How much already passed text a stop string could begin in."""
        self._tail = ""
        """The end of the text passed on so far (up to ``_overlap`` characters)."""
        self.matched: str | None = None
        """The stop sequence found, once one is."""

    def feed(self, piece: str) -> str:
        """The part of ``piece`` to pass on: all of it until a stop sequence appears, then
        what comes before it (and nothing after, ever).
        """
        if self.matched is not None or not piece:
            return ""
        if not self._stops:
            return piece
        text = self._tail + piece
        found = self._first_match(text)
        if found is None:
            self._tail = text[-self._overlap :] if self._overlap else ""
            return piece
        start, self.matched = found
        # A match that began in text passed on already cuts this piece at its start.
        return piece[: max(0, start - len(self._tail))]

    def cut(self, text: str) -> str:
        """``text`` (a whole answer) up to its first stop sequence, which is remembered."""
        return self.feed(text)

    def _first_match(self, text: str) -> tuple[int, str] | None:
        """Where the stop sequence that completes first in ``text`` begins, and which it is:
        GenAI stops as soon as one is complete (of two ending at once, the longer)."""
        best: tuple[int, int, str] | None = None  # (end, -length, stop)
        for stop in self._stops:
            at = text.find(stop)
            if at >= 0 and (best is None or (at + len(stop), -len(stop)) < best[:2]):
                best = (at + len(stop), -len(stop), stop)
        return None if best is None else (best[0] + best[1], best[2])
