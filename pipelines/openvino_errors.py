"""Errors in words a person can act on: the first line that says something.

Most errors (the OS, the database, the model hub, a JSON parser) put their reason on the first
line; :func:`first_line` takes it. OpenVINO's ``RuntimeError`` text is a stack of frames before
the sentence that matters::

    Exception from src/inference/src/cpp/core.cpp:84:
    Check 'is_valid_weights_range(...)' failed at src/core/xml_util/src/xml_deserialize_util.cpp:9:
    Incorrect weights in bin file!

Showing its first line ("Exception from src/…") tells a person nothing; :func:`openvino_reason`
skips the frames and returns the first line they can act on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# A frame: "Exception from src/…cpp:84:" or "Check 'cond' failed at src/…cpp:900:"; the latter
# may carry the reason on the same line after the location ("…cpp:900: reason").
_FRAME = re.compile(r"^(?:Exception from \S+:\d+:|Check '.*' failed at \S+:\d+:)\s*(?P<rest>.*)$")
MAX_REASON = 300


def first_line(error: BaseException, limit: int | None = MAX_REASON) -> str:
    """The first line of ``error``'s message that holds text, at most ``limit`` characters
    (None: all of it); the exception's type name when the message is empty.

    For errors that are not OpenVINO's (those go through :func:`openvino_reason`).
    """
    return _first_text(str(error).splitlines(), limit) or type(error).__name__


def openvino_reason(error: BaseException) -> str:
    """The first line of ``error`` a person can act on, without OpenVINO's source frames.

    Falls back to the exception's type name when the text holds nothing else.
    """
    lines = (_without_frame(line.strip()) for line in str(error).splitlines())
    return _first_text(lines, MAX_REASON) or type(error).__name__


def _without_frame(line: str) -> str:
    frame = _FRAME.match(line)
    return line if frame is None else frame.group("rest")


def _first_text(lines: Iterable[str], limit: int | None) -> str:
    """The first of ``lines`` with text, stripped and cut to ``limit``; "" when none has."""
    for raw in lines:
        line = raw.strip()
        if line:
            return line[:limit]
    return ""
