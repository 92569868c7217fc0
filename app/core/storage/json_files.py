"""Reading the app's own JSON files when they may have been damaged or edited by hand.

Settings, the model list, conversations and voices are small JSON objects the app wrote, but
a disk error, a crash of another program, an editor saving UTF-16 or a hostile file can put
anything there. :func:`read_json_object` turns every such case into a :class:`Damaged` value
with a short reason, so each store decides what to do (set the file aside, show it as broken)
instead of crashing on ``UnicodeDecodeError`` or ``RecursionError``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.openvino_errors import first_line

MAX_DEPTH = 64
"""Deeper nesting than any file the app writes; deeper is refused before anything walks it."""
MAX_INT_DIGITS = 19
"""Whole numbers up to 64 bits; a longer one is refused (no field needs it)."""
MAX_BYTES = 64 * 1024 * 1024
"""Larger than any file the app writes (a very long conversation is a few MB)."""


@dataclass(frozen=True)
class Damaged:
    """Why a file's content cannot be used (a phrase that fits after "the file is …")."""

    reason: str


def read_json_object(path: Path, *, max_bytes: int = MAX_BYTES) -> dict[str, Any] | Damaged:
    """The JSON object stored in ``path``, or why its content is unusable.

    Raises:
        OSError: the file cannot be read (missing, a folder, no permission): not damage.
    """
    with path.open("rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        return Damaged(f"larger than {max_bytes // (1024 * 1024)} MB")
    return parse_json_object(raw)


def parse_json_object(raw: bytes) -> dict[str, Any] | Damaged:
    """As :func:`read_json_object`, for bytes already read."""
    try:
        text = raw.decode("utf-8-sig")  # a BOM (Windows editors add one) is harmless
    except UnicodeDecodeError:
        hint = " (saved as UTF-16?)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        return Damaged(f"not UTF-8 text{hint}")
    try:
        data = json.loads(text, parse_constant=_refuse_constant, parse_float=_float, parse_int=_int)
    except RecursionError:
        return Damaged("nested too deeply")
    except ValueError as error:  # JSONDecodeError, NaN/Infinity, a number of 5,000 digits
        return Damaged(f"not valid JSON ({first_line(error, 120)})")
    if not isinstance(data, dict):
        return Damaged(f"not a JSON object (it holds a {_kind(data)})")
    if depth(data) > MAX_DEPTH:
        return Damaged("nested too deeply")
    return data


def depth(value: object) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0); no recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children: list[object] = list(item.values())
        elif isinstance(item, list):
            children = list(item)
        else:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            return deepest  # enough to refuse; no need to walk the rest
        stack.extend((child, level + 1) for child in children)
    return deepest


def _float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e999: a float that overflowed to infinity
        raise ValueError(f"the number {text[:20]} is too large")
    return number


def _int(text: str) -> int:
    # Beyond 64 bits no field of the app makes sense, and int → float would overflow later.
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"the number {text[:20]}{'…' if len(text) > 20 else ''} is too large")
    return int(text)


def _refuse_constant(name: str) -> Any:
    # NaN and Infinity are not JSON; Python accepts them by default and they would then
    # pass through sorting and arithmetic as silent nonsense.
    raise ValueError(f"{name} is not a number JSON allows")


def _kind(data: object) -> str:
    names = {list: "list", str: "text", bool: "true/false", int: "number", float: "number"}
    return "null" if data is None else names.get(type(data), type(data).__name__)
