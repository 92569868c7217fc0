"""OpenVINO's errors in words a person can act on.

OpenVINO's ``RuntimeError`` text is a stack of frames before the sentence that matters::

    Exception from src/inference/src/cpp/core.cpp:84:
    Check 'is_valid_weights_range(...)' failed at src/core/xml_util/src/xml_deserialize_util.cpp:9:
    Incorrect weights in bin file!

Showing its first line ("Exception from src/…") tells a person nothing; :func:`openvino_reason`
skips the frames and returns the first line they can act on.
"""

from __future__ import annotations

import re

# A frame: "Exception from src/…cpp:84:" or "Check 'cond' failed at src/…cpp:900:"; the latter
# may carry the reason on the same line after the location ("…cpp:900: reason").
_FRAME = re.compile(r"^(?:Exception from \S+:\d+:|Check '.*' failed at \S+:\d+:)\s*(?P<rest>.*)$")
MAX_REASON = 300


def openvino_reason(error: BaseException) -> str:
    """The first line of ``error`` a person can act on, without OpenVINO's source frames.

    Falls back to the exception's type name when the text holds nothing else.
    """
    for raw in str(error).splitlines():
        line = raw.strip()
        frame = _FRAME.match(line)
        if frame is not None:
            line = frame.group("rest").strip()
        if line:
            return line[:MAX_REASON]
    return type(error).__name__
