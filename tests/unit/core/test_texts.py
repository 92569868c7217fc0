"""The core's sentences for people are translatable: a message given to one of the core's
errors is made with ``app.core.texts.tr`` (so the window can show it in the user's language),
and a translatable sentence fills in as English everywhere else.

The check reads the source, as lupdate does: it also covers errors no test provokes. The
command line and the local server answer in English (their users are scripts and programs),
so their own errors are left out."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from app.core.texts import Text, tr

APP = Path(__file__).resolve().parents[3] / "app"
ENGLISH_ONLY = ("cli", "server")
ERRORS = {
    "UserError",
    "BusyError",
    "StorageError",
    "ModelMissingError",
    "DatabaseError",
    "RemoteError",
    "InvalidInputError",
    "ModelLoadError",
    "DeviceError",
    "TextOnlyModelError",
}


def _called(node: ast.Call) -> str:
    func = node.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def untranslated_errors() -> list[str]:
    """``file:line`` of each core error given a plain string or an f-string."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        if path.relative_to(APP).parts[0] in ENGLISH_ONLY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and _called(node) in ERRORS and node.args):
                continue
            message = node.args[0]
            literal = isinstance(message, ast.Constant) and isinstance(message.value, str)
            if literal or isinstance(message, ast.JoinedStr):
                found.append(f"{path.relative_to(APP.parent)}:{node.lineno}")
    return found


def test_every_core_error_sentence_is_translatable() -> None:
    assert untranslated_errors() == []


def test_a_translatable_sentence_reads_as_english_with_its_values() -> None:
    sentence = tr("The message is about {fixed:,} tokens; {name!r} is {share:.0%}.")
    filled = sentence.format(fixed=12_345, name="x", share=0.5)
    assert filled == "The message is about 12,345 tokens; 'x' is 50%."
    assert isinstance(filled, Text) and filled.values == {
        "fixed": 12_345,
        "name": "x",
        "share": 0.5,
    }
    with pytest.raises(TypeError):
        sentence.format(1)


FOR_THE_MODEL = {
    # Read by a model, not a person: kept in the language the model is prompted in.
    "app/knowledge/grounding.py:INSTRUCTIONS",
    "app/chat/picture_tool.py:DESCRIPTION",
    "app/chat/tool_loop.py:REFUSED",
    "app/chat/tool_loop.py:NOT_ASKED",
}
NOT_YET: set[str] = set()
"""Modules whose sentences people read but whose features have not marked them yet: none."""


def untranslated_constants() -> list[str]:
    """``file:NAME`` of each module-level sentence (a capital, a space, a full stop) kept as a
    plain string: errors, refusals and notes are raised from such names, out of the reach of
    :func:`untranslated_errors`."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        module = path.relative_to(APP.parent).as_posix()
        if path.relative_to(APP).parts[0] in ENGLISH_ONLY or module in NOT_YET:
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.Assign) or not isinstance(node.targets[0], ast.Name):
                continue
            value = node.value
            sentence = isinstance(value, ast.Constant) and isinstance(value.value, str)
            if sentence and re.fullmatch(r"[A-Z].* .*[.!?]", str(value.value), re.DOTALL):
                name = f"{module}:{node.targets[0].id}"
                if name not in FOR_THE_MODEL:
                    found.append(name)
    return found


def test_every_sentence_constant_is_translatable() -> None:
    assert untranslated_constants() == []
