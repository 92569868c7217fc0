"""Every panel, and the windows opened from the menus, walked as a screen-reader user would.

Each interactive widget shown must have an accessible name and a description (the per-dialog
and per-panel tests cover their other states; this one catches what nobody owns: the window's
frame, the panels at rest, the model manager's tabs).
"""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from tests.ui.dialog_walk import missed_by_tab, tab_cycle
from ui.a11y import unlabelled_widgets
from ui.shell.main_window import MainWindow


def test_every_panel_names_its_controls(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1600, 1000)
    problems: list[str] = []
    for name in window.panels:
        window.show_panel(name)
        qtbot.wait(20)
        problems += [f"{name}: {problem}" for problem in unlabelled_widgets(window)]
    assert not problems, "\n".join(problems)


def test_every_control_of_a_panel_is_reached_with_tab(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1600, 1000)
    missed: list[str] = []
    for name in window.panels:
        window.show_panel(name)
        qtbot.wait(20)
        panel = window.stack.currentWidget()
        visited = tab_cycle(window, window.nav)
        missed += [
            f"{name}: {type(widget).__name__} {widget.accessibleName()!r}"
            for widget in missed_by_tab(panel, visited)
        ]
    assert not missed, "\n".join(missed)


def test_the_model_manager_names_its_controls(qtbot: QtBot, window: MainWindow) -> None:
    manager = window.open_models()
    problems: list[str] = []
    for index in range(manager.tabs.count()):
        manager.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        problems += unlabelled_widgets(manager)
    assert not problems, "\n".join(problems)
