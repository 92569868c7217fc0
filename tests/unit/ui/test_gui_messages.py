"""No message the window can show names a command-line command or flag.

People who installed the app from a package never open a terminal: a message that says "run
`python -m app setup`" or "pass --group-size" leaves them stuck. This reads the sources (no
import, so it is quick): every string literal under ``ui/`` but docstrings and log lines, and
in ``app/`` the texts of raised (or returned) errors and the module-level message constants.
The command line adds its own hints in ``app/cli`` (not read here). Strings the window never
shows are allowed by name below, each with the reason.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.models.convert_wording import FLAGS

ROOT = Path(__file__).resolve().parents[3]
COMMAND_LINE_ONLY = ("app/cli/", "app/__main__.py")
"""The command line's own modules: they may name commands and flags."""

CLI_PATTERNS = {
    "a python -m command": re.compile(r"python3? -m app\b"),
    "a CLI command in backticks": re.compile(
        r"`(?:models|setup|ingest|search|collections|say|voices|lipsync|chat|ask|devices)\b"
    ),
    "a command-line flag": re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+"),
    "the installed command": re.compile(r"\bov-studio (?!is\b)[a-z]+"),
    "a pip command": re.compile(r"\bpip install\b"),
    "a make target": re.compile(r"\bmake (?:run|setup|dist|fixtures)\b"),
}

ALLOWED: dict[str, set[str]] = {
    # Said on stderr when there is no display, so no window can show anything.
    "ui/shell/launcher.py": {"--help", "python -m app"},
    # The flags the shared conversion messages may name, looked up to be replaced by the
    # Convert view's field names: the window shows the field names, never these.
    "ui/models/convert_wording.py": set(FLAGS),
    # The server's answers to programs when its embedder cannot be set up: read by a headless
    # user on the serve console or in a client's error; the window's Knowledge panel sets the
    # embedder up itself and never shows these.
    "app/server/embedder_setup.py": {"--install", "python -m app"},
}
"""File → texts (as matched) the GUI never shows."""

LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical"}


def gui_sources() -> list[Path]:
    """Every module whose strings may reach the window: ``ui/`` and ``app/`` but its CLI."""
    files = sorted((ROOT / "ui").rglob("*.py")) + sorted((ROOT / "app").rglob("*.py"))
    return [f for f in files if not f.relative_to(ROOT).as_posix().startswith(COMMAND_LINE_ONLY)]


def _text(node: ast.AST) -> str | None:
    """A literal's text; an f-string's constant parts with ``{}`` for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(part) or "{}" for part in node.values)
    return None


def _docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring nodes (never shown: they document the code)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and _text(body[0].value) is not None:
                found.add(id(body[0].value))
        # An attribute's docstring: a bare string right after an assignment.
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for before, after in itertools.pairwise(body):
                if isinstance(before, (ast.Assign, ast.AnnAssign)) and isinstance(after, ast.Expr):
                    found.add(id(after.value))
    return found


def _log_arguments(tree: ast.Module) -> set[int]:
    """ids of strings passed to ``log.info(…)`` and friends (the log file, not the window)."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in LOG_METHODS
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in ("log", "logger", "logging")
        ):
            found.update(id(sub) for arg in node.args for sub in ast.walk(arg))
    return found


def _core_messages(tree: ast.Module) -> Iterator[ast.AST]:
    """In core modules: what errors are raised with, and module-level text constants."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            for arg in node.exc.args:
                yield from ast.walk(arg)
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Call):
            callee = node.value.func
            name = callee.id if isinstance(callee, ast.Name) else getattr(callee, "attr", "")
            if name.endswith("Error"):  # an error built here, raised by the caller
                for arg in node.value.args:
                    yield from ast.walk(arg)
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and all(
            isinstance(target, ast.Name) and target.id.isupper() for target in statement.targets
        ):
            yield from ast.walk(statement.value)


def _fstring_parts(tree: ast.Module) -> set[int]:
    """ids of an f-string's constant parts: read with the whole f-string (see :func:`_text`)."""
    return {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in node.values
    }


def shown_texts(source: str, *, in_ui: bool) -> Iterator[tuple[int, str]]:
    """(line, text) of every string in ``source`` the window may show."""
    tree = ast.parse(source)
    hidden = _docstrings(tree) | _log_arguments(tree) | _fstring_parts(tree)
    nodes = ast.walk(tree) if in_ui else _core_messages(tree)
    for node in nodes:
        text = _text(node)
        if text is not None and id(node) not in hidden:
            yield getattr(node, "lineno", 0), text


def findings(source: str, name: str, *, in_ui: bool) -> list[str]:
    """``name:line: what “match” in text`` for each CLI command or flag in shown texts."""
    allowed = ALLOWED.get(name, set())
    found = set()
    for line, text in shown_texts(source, in_ui=in_ui):
        for what, pattern in CLI_PATTERNS.items():
            for match in pattern.finditer(text):
                if match.group(0) not in allowed:
                    found.add(f"{name}:{line}: {what} “{match.group(0)}” in {text!r}")
    return sorted(found)


@pytest.mark.parametrize("path", gui_sources(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_gui_message_names_a_cli_command_or_flag(path: Path) -> None:
    name = path.relative_to(ROOT).as_posix()
    in_ui = name.startswith("ui/")
    assert findings(path.read_text(encoding="utf-8"), name, in_ui=in_ui) == []


SAMPLE = """
NOTE = "Set it up with `setup` first"
def f(x):
    \"\"\"Docstrings may say python -m app setup.\"\"\"
    log.info("ran python -m app models convert")
    label = "Run python -m app setup first"
    if x:
        raise UserError(f"convert it with --task {x}")
    return f"pip install {x}"
"""


def test_the_guard_finds_what_it_is_for() -> None:
    """Not blind: labels and raised errors are read; docstrings and log lines are not."""
    in_ui = findings(SAMPLE, "ui/sample.py", in_ui=True)
    kinds = sorted(item.split(": ", 1)[1].split(" “")[0] for item in in_ui)
    assert kinds == [
        "a CLI command in backticks",
        "a command-line flag",
        "a pip command",
        "a python -m command",
    ]
    in_core = findings(SAMPLE, "app/chat/sample.py", in_ui=False)
    assert len(in_core) == 2 and "`setup" in in_core[0] and "--task" in in_core[1]
