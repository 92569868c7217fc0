"""Every user-visible string literal in ui/ goes through tr(), in a form lupdate can extract.

A source check rather than a screen check: it also covers messages that only appear in rare
states (errors, empty lists) that no rendering test reaches.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

UI = Path(__file__).resolve().parents[3] / "ui"

# Calls whose string arguments users read.
TEXT_SETTERS = {
    "setText",
    "setToolTip",
    "setPlaceholderText",
    "setWindowTitle",
    "setTitle",
    "setStatusTip",
    "setWhatsThis",
    "setAccessibleName",
    "setAccessibleDescription",
    "setLabelText",
    "setHorizontalHeaderLabels",
    "addAction",
    "addMenu",
    "addItem",
    "addTab",
    "setTabText",
    "showMessage",
    "show_message",
    "setSuffix",
    "setPrefix",
    "setSpecialValueText",
    "describe",
    "announce",
    "information",
    "warning",
    "critical",
    "question",
}
TEXT_WIDGETS = {
    "QLabel",
    "QPushButton",
    "QToolButton",
    "QCheckBox",
    "QRadioButton",
    "QGroupBox",
    "QAction",
    "QMenu",
    "QCommandLinkButton",
}


# Keyword arguments that carry text (others, such as level="error", are settings).
TEXT_KEYWORDS = {"text", "title", "tooltip", "description", "name", "details", "message"}
TAG = re.compile(r"<[^>]*>|&\w+;")
WORD = re.compile(r"[A-Za-z]{2,}")


def _is_text(node: ast.expr) -> bool:
    """A literal with a word in it outside HTML tags (not "·", "%", "<b>{name}</b>")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            str(part.value) if isinstance(part, ast.Constant) else "{}" for part in node.values
        )
    else:
        return False
    return bool(WORD.search(TAG.sub(" ", text)))


def _callee(call: ast.Call) -> str:
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return ""


LOGGERS = {"log", "logger", "logging", "warnings"}
# A line may opt out with a reason, e.g. a device name or a file filter pattern:
#   combo.addItem("CPU")  # untranslated: a device name
OPT_OUT = "# untranslated:"


def _problems(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, str(path))
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found += [
                f"{path.relative_to(UI.parent)}:{inner.lineno}: tr() inside an f-string "
                "(lupdate does not read it: translate first, then put the result in)"
                for inner in ast.walk(node)
                if isinstance(inner, ast.Call) and _callee(inner) == "tr"
            ]
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        receiver = function.value if isinstance(function, ast.Attribute) else None
        if isinstance(receiver, ast.Name) and receiver.id in LOGGERS:
            continue
        if any(OPT_OUT in lines[n - 1] for n in range(node.lineno, (node.end_lineno or 0) + 1)):
            continue
        name = _callee(node)
        where = f"{path.relative_to(UI.parent)}:{node.lineno}"
        if name == "tr":
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                found.append(f"{where}: tr() needs a string literal (lupdate reads the source)")
            continue
        if name in TEXT_SETTERS or name in TEXT_WIDGETS:
            arguments = [
                *node.args,
                *(keyword.value for keyword in node.keywords if keyword.arg in TEXT_KEYWORDS),
            ]
            if name == "describe":
                arguments = arguments[1:]  # the widget
            for argument in arguments:
                if _is_text(argument):
                    found.append(f"{where}: {name}() shows an untranslated literal")
    return found


def test_user_visible_literals_go_through_tr() -> None:
    problems = [
        problem
        for path in sorted(UI.rglob("*.py"))
        if "__pycache__" not in path.parts
        for problem in _problems(path)
    ]
    assert not problems, f"{len(problems)} untranslated strings:\n" + "\n".join(problems)


def test_the_catalog_descriptions_are_listed_for_translation() -> None:
    import json

    from app.models.catalog_texts import DESCRIPTIONS

    catalog = json.loads((UI.parent / "assets" / "catalog.json").read_text(encoding="utf-8"))
    wanted = {str(model["description"]) for model in catalog["models"]}
    assert set(DESCRIPTIONS) == wanted, "run scripts/update_translations.py"
