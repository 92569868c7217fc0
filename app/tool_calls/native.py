"""Tool calls in a model's own format: for a model whose chat template lists tools.

Such a model was trained to call tools in the format its template teaches: Qwen and Hermes
models write ``<tool_call>{"name": …, "arguments": …}</tool_call>``, Llama 3.1 a bare JSON
object (after ``<|python_tag|>``), Llama 3.2 and 4 ``[name(arg=value)]``. The tools are given
to the template (:meth:`pipelines.batching.BatchingEngine.template`), the model answers freely,
and its answer is read with GenAI's tool parsers (``Llama3JsonToolParser``,
``Llama3PythonicToolParser``); a call to a tool that was not offered is text, not a call.

A streamed answer is held back only while it may still be a call (:class:`HeldText`): text
that plainly is not one streams as it comes.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.tool_calls.specs import new_call_id
from pipelines.generation import RequestedCall

log = logging.getLogger(__name__)


class NativeFormat(Enum):
    """How a model writes a call, read from its chat template."""

    TAGGED_JSON = "<tool_call>"
    """``<tool_call>{json}</tool_call>``, any number of them (Qwen, Hermes, SmolLM3)."""
    JSON = "json"
    """A bare JSON object, or several separated by ``;`` (Llama 3.1)."""
    PYTHONIC = "pythonic"
    """``[name(arg=value), …]`` (Llama 3.2, Llama 4)."""


_PYTHON_TAG = "<|python_tag|>"
_TAGGED = re.compile(r"<tool_call>(.*?)(?:</tool_call>|\Z)", re.DOTALL)
_PYTHONIC_HINT = re.compile(r"\[\s*func_name\d*\s*\(|func_name1\(")


def native_format(chat_template: str) -> NativeFormat | None:
    """The tool-call format a chat template teaches, or None when it does not list tools
    (the model then chooses through the constrained choice, :mod:`app.tool_calls.choice`)."""
    if "tools" not in chat_template:
        return None
    if "<tool_call>" in chat_template:
        return NativeFormat.TAGGED_JSON
    if _PYTHONIC_HINT.search(chat_template):
        return NativeFormat.PYTHONIC
    return NativeFormat.JSON


def read_calls(text: str, form: NativeFormat, names: set[str]) -> tuple[str, list[RequestedCall]]:
    """The text of an answer besides its calls, and its calls to tools among ``names``.

    An answer whose would-be calls name no offered tool, or do not parse, is all text."""
    if form is NativeFormat.TAGGED_JSON:
        found = [_parsed_json(inner) for inner in _TAGGED.findall(text)]
        calls = _kept([entry for entries in found for entry in entries], names)
        return (_TAGGED.sub("", text).strip(), calls) if calls else (text, [])
    body = text.replace(_PYTHON_TAG, "").strip()
    entries = _parsed_pythonic(body) if form is NativeFormat.PYTHONIC else _parsed_json(body)
    calls = _kept(entries, names)
    return ("", calls) if calls else (text, [])


def _parsed_json(text: str) -> list[dict[str, Any]]:
    """GenAI's JSON tool parser's calls in ``text``; several objects may be ``;``-separated
    (which the parser itself refuses)."""
    import openvino_genai as ov_genai

    parser = ov_genai.Llama3JsonToolParser()
    found: list[dict[str, Any]] = []
    pieces = [text] if text.count(";") == 0 else [text, *text.split(";")]
    for piece in pieces:
        message: dict[str, Any] = {"content": piece.strip()}
        try:
            parser.parse(message)
        except RuntimeError:
            continue  # not JSON (or several objects): the pieces are tried next
        calls = message.get("tool_calls") or []
        found += [call for call in calls if isinstance(call, dict)]
        if found and piece is text:
            break  # the whole text parsed: its pieces would repeat the calls
    return found


def _parsed_pythonic(text: str) -> list[dict[str, Any]]:
    import openvino_genai as ov_genai

    message: dict[str, Any] = {"content": text}
    try:
        ov_genai.Llama3PythonicToolParser().parse(message)
    except RuntimeError:
        return []
    return [call for call in message.get("tool_calls") or [] if isinstance(call, dict)]


def _kept(entries: list[dict[str, Any]], names: set[str]) -> list[RequestedCall]:
    """The parsed entries that call an offered tool with an object of arguments."""
    calls: list[RequestedCall] = []
    for entry in entries:
        name = entry.get("name")
        arguments = entry.get("arguments", entry.get("parameters", {}))
        if isinstance(arguments, str):  # some models write the arguments as a JSON string
            try:
                arguments = json.loads(arguments)
            except (ValueError, RecursionError):
                arguments = None
        if not isinstance(name, str) or name not in names or not isinstance(arguments, dict):
            log.info("a tool call the model wrote was not kept (unknown tool or arguments)")
            continue
        calls.append(RequestedCall(new_call_id(), name, arguments))
    return calls


@dataclass
class HeldText:
    """A streamed answer's text, held back while it may be a tool call.

    :meth:`feed` gives the text that may be shown now; at the end, :meth:`finish` reads the
    whole answer and gives the rest of its text and its calls."""

    form: NativeFormat
    names: set[str]
    _text: str = ""
    _shown: int = 0
    _holding: bool = False

    def feed(self, piece: str) -> str:
        """Add ``piece``; the text that can be shown now (it is no call)."""
        self._text += piece
        if self._holding:
            return ""
        start = self._call_start()
        if start is None:
            safe = self._safe_end()
        else:
            self._holding = True
            safe = start
        out = self._text[self._shown : safe] if safe > self._shown else ""
        self._shown = max(self._shown, safe)
        return out

    def finish(self) -> tuple[str, list[RequestedCall]]:
        """The text not shown yet, and the answer's calls."""
        _content, calls = read_calls(self._text, self.form, self.names)
        unshown = self._text[self._shown :]
        if not calls:
            return unshown, []
        if self.form is NativeFormat.TAGGED_JSON:  # text may follow or sit between the calls
            return _TAGGED.sub("", unshown).strip(), calls
        return "", calls

    def _markers(self) -> tuple[str, ...]:
        if self.form is NativeFormat.TAGGED_JSON:
            return ("<tool_call>", _PYTHON_TAG)
        return (_PYTHON_TAG,)

    def _openers(self) -> tuple[str, ...]:
        """What a call begins with when it is the whole answer."""
        return {
            NativeFormat.TAGGED_JSON: ("<tool_call>",),
            NativeFormat.JSON: ("{", _PYTHON_TAG),
            NativeFormat.PYTHONIC: ("[", _PYTHON_TAG),
        }[self.form]

    def _call_start(self) -> int | None:
        """Where a call begins in the text, if one has begun."""
        lead = len(self._text) - len(self._text.lstrip())
        if self._text[lead:].startswith(self._openers()):
            return lead
        found = [self._text.find(m) for m in self._markers() if m in self._text]
        return min(found) if found else None

    def _safe_end(self) -> int:
        """How much of the text cannot be the start of a call: all but a tail that could
        still grow into a marker (or, at the very start, into an opener)."""
        stripped = self._text.lstrip()
        if any(opener.startswith(stripped) for opener in self._openers()):
            return 0  # only white space, or the start of an opener so far
        end = len(self._text)
        for marker in self._markers():
            for size in range(min(len(marker) - 1, len(self._text)), 0, -1):
                if self._text.endswith(marker[:size]):
                    end = min(end, len(self._text) - size)
                    break
        return end
