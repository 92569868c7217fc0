"""Answers caught in a loop: the same few characters over and over until the length limit.

A small model sampled at sound settings now and then falls into a loop it cannot leave
("…computercomputercomputer…" for 400 tokens, seen from SmolLM2-135M at the app's defaults in
one essay of a few hundred): what the user gets is the loop, and the time it took. A
repetition penalty prevents loops but breaks every long answer (GenAI penalises each token of
the prompt and the answer, spaces' tokens too: README, "Generation settings"). So the engines
watch the text instead, and end an answer whose tail has become one unit repeated — the way
it would have gone on to the limit — as if the model had stopped there.

Only exact repetition counts, and only a long one (:data:`LOOP_CHARACTERS`, at least
:data:`LOOP_REPEATS` times its unit): a refrain, a row of dashes or the same short code line a
few times are not loops. A unit of a few letters glued to itself ("AuAuAuAu…", seen from
SmolLM2 at the app's defaults) is a loop much sooner (:data:`GLUED_UNIT_REPEATS`): no word is
made that way, and at 200 characters it already was one of the longest "words" of an essay.
"""

from __future__ import annotations

LOOP_CHARACTERS = 200
"""A loop is at least this long: 25 times "computer", 200 blank lines, 4 times a 50-character
sentence. (A ruled line of 80 dashes, a table's rows or "ha ha ha" stay far under it.)"""
LOOP_REPEATS = 4
"""…and its unit comes at least this many times in a row."""
GLUED_UNIT = 4
"""A unit this short, with a letter and no space, is a glued loop…"""
GLUED_UNIT_REPEATS = 12
"""…once it comes this many times in a row ("AuAu…" at 24 characters; "hahahaha" and a row
of dashes are not loops)."""
LONGEST_UNIT = 256
"""Longer units (a paragraph said again) are not looked for: the tail watched stays short."""
_WATCHED = LONGEST_UNIT * LOOP_REPEATS
"""Characters of the answer's end that are looked at."""
_CHECK_EVERY = 16
"""Characters written between two looks (a loop is found at most this late)."""


def loop_length(text: str) -> int:
    """The length of the longest end of ``text`` that is one unit of at most
    :data:`LONGEST_UNIT` characters repeated at least :data:`LOOP_REPEATS` times, when it is at
    least :data:`LOOP_CHARACTERS` long, or a glued unit of at most :data:`GLUED_UNIT` characters
    repeated at least :data:`GLUED_UNIT_REPEATS` times; else 0.

    The end of ``text`` read backwards: the smallest period of its first ``n`` characters is
    ``n`` minus their longest border (the prefix function), all found in one pass.
    """
    reverse = text[::-1][:_WATCHED]
    borders = [0] * len(reverse)
    longest, border = 0, 0
    for end in range(1, len(reverse)):
        while border and reverse[end] != reverse[border]:
            border = borders[border - 1]
        if reverse[end] == reverse[border]:
            border += 1
        borders[end] = border
        size = end + 1
        period = size - border
        long_loop = size >= LOOP_CHARACTERS and period <= LONGEST_UNIT
        if long_loop and size >= LOOP_REPEATS * period:
            longest = size
        elif period <= GLUED_UNIT and size >= GLUED_UNIT_REPEATS * period:
            longest = size if _is_glued_unit(reverse[:period]) else longest
    return longest


def _is_glued_unit(unit: str) -> bool:
    """A unit glued to itself makes a "word": it has a letter and no space."""
    return any(char.isalpha() for char in unit) and not any(char.isspace() for char in unit)


class LoopWatch:
    """Reads an answer as it streams and says when it has fallen into a loop."""

    def __init__(self) -> None:
        self._tail = ""
        self._unread = 0
        self.looped = False
        """The answer ended in a loop (sticky: once found, every later piece says so too)."""

    def feed(self, piece: str) -> bool:
        """Take the next ``piece`` of the answer; True when the answer is in a loop now."""
        if self.looped or not piece:
            return self.looped
        self._tail = (self._tail + piece)[-_WATCHED:]
        self._unread += len(piece)
        if self._unread >= _CHECK_EVERY:
            self._unread = 0
            self.looped = loop_length(self._tail) > 0
        return self.looped
