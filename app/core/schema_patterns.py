"""The regex patterns of a JSON schema: how much their counted repetitions cost a grammar, and
whether Python's ``re`` could take exponential time on them.

GenAI's converter unrolls a counted repetition (``[a-z]{1,1000}`` took 1.4 s of compile on
SmolLM2-135M), so the counts are added up (:mod:`app.core.schema_budget` bounds the sum). A
pattern that repeats a varying repetition with nothing it must match between two turns
(``(a+)+``, ``(\\w+\\s?)*``) is refused: the checks of answers and of tool arguments
(jsonschema) run Python's ``re``, where ``^(a+)+$`` took 3 s on 24 characters and triples every
two more. ``([a-z]+\\.)+`` is fine: each turn ends at a dot. Alternatives that overlap
(``(a|aa)+``) are not caught: a scan cannot tell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.core.texts import tr
from pipelines.core import InvalidInputError

MAX_PATTERN_CHARS = 1_000
FIELD = "json_schema"

# A quantifier (``*``, ``+``, ``?``, ``{n}``, ``{n,}``, ``{,m}``, ``{n,m}``) with its lazy or
# possessive mark; and what opens a group before its body (``(?:``, ``(?P<name>``, ``(?i)``…).
_QUANTIFIER = re.compile(r"(?:([*+?])|\{(\d*)(,?)(\d*)\})[?+]?")
_GROUP_OPENING = re.compile(r"\((?:\?(?:[:=!>|]|<[=!]|P<[^>]*>|P=[^)]*|[a-zA-Z-]*:?))?")


@dataclass
class _Group:
    repeats: int = 0
    """Characters the counted repetitions inside come to."""
    varies: bool = False
    """A quantifier inside repeats a varying number of times (``*``, ``+``, ``?``, ``{n,m}``)."""
    pinned: bool = True
    """Every alternative before the current one holds a character it must match."""
    here_pinned: bool = False
    """The current alternative does."""
    last: _Atom | None = None
    """The last atom read, which a quantifier would repeat (None: nothing to repeat, as after
    ``(`` or ``|``)."""

    def settle(self) -> None:
        """The last atom has no quantifier: it stays as it is."""
        if self.last is not None:
            self.here_pinned = self.here_pinned or self.last.pins
        self.last = None


@dataclass(frozen=True)
class _Atom:
    repeats: int = 0
    varies: bool = False
    pins: bool = True
    """It must match a character (``a``, ``\\.``, ``[0-9]``, a group that does)."""


_ZERO_WIDTH = frozenset("^$")
_ZERO_WIDTH_ESCAPES = frozenset("bBAZz")


def pattern_repeats(pattern: str, where: str) -> int:
    """How many characters ``pattern``'s counted repetitions come to (nested counts multiply).

    Raises:
        InvalidInputError: (field ``json_schema``) the pattern at ``where`` (a JSON pointer)
            is longer than :data:`MAX_PATTERN_CHARS` or repeats a repetition.

    A scan, not a parse: the pattern may not even be valid (a tool's schema is checked only
    as a JSON Schema), and Python's regex parser is private."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise InvalidInputError(
            tr(
                "The JSON schema's pattern at {where} is {count} characters long; at most "
                "{limit} are allowed."
            ).format(where=where, count=f"{len(pattern):,}", limit=f"{MAX_PATTERN_CHARS:,}"),
            field=FIELD,
        )
    stack = [_Group()]
    index = 0
    while index < len(pattern):
        top = stack[-1]
        quantifier = _QUANTIFIER.match(pattern, index)
        if quantifier and top.last is not None and _is_quantifier(quantifier):
            low, high = _counts(quantifier)
            atom = top.last
            varies = high is None or high != low
            if atom.varies and not atom.pins and varies and (high is None or high > 1):
                raise InvalidInputError(
                    tr(
                        "The JSON schema's pattern at {where} repeats a repetition ({pattern}), "
                        "which can take a regex exponential time; write it without one."
                    ).format(where=where, pattern=_short(pattern)),
                    field=FIELD,
                )
            if quantifier.group(1) is None:  # counted: the compile unrolls it
                most = low if high is None else high
                top.repeats += max(1, atom.repeats) * most - atom.repeats
            top.varies = top.varies or varies or atom.varies
            top.here_pinned = top.here_pinned or (atom.pins and not varies and low > 0)
            top.last = None
            index = quantifier.end()
            continue
        top.settle()
        char = pattern[index]
        if char == "(":
            opening = _GROUP_OPENING.match(pattern, index)
            stack.append(_Group())
            index = opening.end() if opening else index + 1
            continue
        if char == ")" and len(stack) > 1:
            group = stack.pop()
            pins = group.pinned and group.here_pinned
            stack[-1].repeats += group.repeats
            stack[-1].varies = stack[-1].varies or group.varies
            stack[-1].last = _Atom(group.repeats, group.varies, pins)
        elif char == "|":
            top.pinned = top.pinned and top.here_pinned
            top.here_pinned = False
        elif char in _ZERO_WIDTH:
            pass
        elif char == "\\":
            escaped = pattern[index + 1 : index + 2]
            top.last = None if escaped in _ZERO_WIDTH_ESCAPES else _Atom()
        else:
            top.last = _Atom()
        if char == "\\":
            index += 2
        elif char == "[":
            index = _class_end(pattern, index)
        else:
            index += 1
    return stack[0].repeats


def _is_quantifier(match: re.Match[str]) -> bool:
    """Python reads ``{`` as a quantifier only with a count in it (``{}``, ``{,}`` are text)."""
    return match.group(1) is not None or bool(match.group(2) or match.group(4))


def _counts(match: re.Match[str]) -> tuple[int, int | None]:
    """The least and most repetitions of a quantifier (None: unbounded)."""
    if match.group(1) is not None:
        return {"*": (0, None), "+": (1, None), "?": (0, 1)}[match.group(1)]
    low = int(match.group(2) or 0)
    if not match.group(3):
        return low, low
    return low, int(match.group(4)) if match.group(4) else None


def _class_end(pattern: str, start: int) -> int:
    """The index after the character class that opens at ``start``."""
    index = start + 1
    if index < len(pattern) and pattern[index] == "^":
        index += 1
    if index < len(pattern) and pattern[index] == "]":
        index += 1  # a "]" first in a class is a character
    while index < len(pattern) and pattern[index] != "]":
        index += 2 if pattern[index] == "\\" else 1
    return index + 1


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
