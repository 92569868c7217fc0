"""Every deferred GUI call names the object it belongs to, so it is dropped with that object.

A call that runs later, after a zero-timer or when a job ends, may find its widget closed and
deleted meanwhile: on a busy machine a dialog's height check ran on a deleted dialog and the
crash dialog opened. Qt drops a single-shot timer whose context object is gone, and the task
runner drops a callback that is a method of a deleted object, but neither can tell whose a bare
function or a lambda is. This reads the sources under ``ui/`` (no import, so it is quick).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TASK_STARTS = {"start", "start_with_progress"}
"""TaskRunner methods that take ``on_…`` callbacks."""
LATER_CALLS = {"post", "connect_keys"}
"""Methods whose positional callable runs later on the GUI thread."""


def calls() -> Iterator[tuple[str, ast.Call]]:
    """Every call under ``ui/``, with where it is (``path:line``)."""
    for path in sorted((ROOT / "ui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                yield f"{path.relative_to(ROOT).as_posix()}:{node.lineno}", node


def _name(node: ast.expr) -> str:
    """``QTimer.singleShot`` for that attribute chain ("" for anything else)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def test_single_shot_timers_name_their_context_object() -> None:
    unbound = [
        where
        for where, call in calls()
        if _name(call.func) == "QTimer.singleShot" and len(call.args) < 3
    ]
    assert unbound == [], "use QTimer.singleShot(ms, owner, callable): " + ", ".join(unbound)


def test_job_callbacks_are_methods_not_lambdas() -> None:
    lambdas = [
        f"{where} {keyword.arg}"
        for where, call in calls()
        if isinstance(call.func, ast.Attribute) and call.func.attr in TASK_STARTS
        for keyword in call.keywords
        if (keyword.arg or "").startswith("on_") and isinstance(keyword.value, ast.Lambda)
    ]
    assert lambdas == [], "pass a method or functools.partial of one: " + ", ".join(lambdas)


def test_posted_calls_and_settings_listeners_are_methods_not_lambdas() -> None:
    """``TaskRunner.post`` and ``SettingsSignals.connect_keys`` run their callable later too."""
    lambdas = [
        f"{where} {call.func.attr}"
        for where, call in calls()
        if isinstance(call.func, ast.Attribute) and call.func.attr in LATER_CALLS
        if any(isinstance(arg, ast.Lambda) for arg in call.args)
    ]
    assert lambdas == [], "pass a method or functools.partial of one: " + ", ".join(lambdas)


def test_the_check_sees_the_calls_it_is_about() -> None:
    """The scan finds the app's timers and jobs (a rename would otherwise pass silently)."""
    names = {_name(call.func) for _, call in calls()}
    assert "QTimer.singleShot" in names
    assert any(name.endswith("tasks.start") for name in names)
    assert {name.rsplit(".", 1)[-1] for name in names} >= LATER_CALLS
