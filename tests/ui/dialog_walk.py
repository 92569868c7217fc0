"""Walks a dialog (or any widget) as a keyboard and screen-reader user would.

:func:`assert_walkable` checks, for each root it is given (shown, in the state the test put it
in), that every interactive widget has an accessible name and description
(:func:`ui.a11y.unlabelled_widgets`), and that pressing Tab from the first control visits every
enabled, visible, focusable interactive widget under the root and comes back round — so
nothing is reachable only by mouse, and no control (a text box without ``tabChangesFocus``)
swallows Tab. :func:`tab_cycle` returns the order Tab visits, for tests that check it follows
the layout.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QRadioButton, QWidget

from ui.a11y import is_interactive, unlabelled_widgets


def _takes_tab(widget: QWidget) -> bool:
    return bool(widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value)


def tab_stops(root: QWidget) -> list[QWidget]:
    """The interactive widgets under ``root`` a user should reach with Tab (layout order not
    implied): shown, enabled and taking Tab focus (directly or through a focus proxy)."""
    stops: list[QWidget] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not is_interactive(widget) or not widget.isVisibleTo(root) or not widget.isEnabled():
            continue
        target = widget.focusProxy() or widget
        if _takes_tab(target):
            stops.append(widget)
    return stops


def _covers(visited: QWidget, stop: QWidget) -> bool:
    """Whether focus on ``visited`` is focus on ``stop`` (itself, its proxy, or a part of it
    such as a spin box's or an editable combo box's line edit)."""
    return visited is stop or visited is stop.focusProxy() or stop.isAncestorOf(visited)


def _group_mates(button: QAbstractButton) -> list[QAbstractButton]:
    """The buttons an exclusive radio group moves between with the arrow keys (Tab visits
    only the checked one, as in every toolkit)."""
    group = button.group()
    if group is not None and group.exclusive():
        return list(group.buttons())
    parent = button.parentWidget()
    if isinstance(button, QRadioButton) and button.autoExclusive() and parent is not None:
        return [b for b in parent.findChildren(QRadioButton) if b.autoExclusive()]
    return [button]


def tab_cycle(root: QWidget, start: QWidget | None = None) -> list[QWidget]:
    """Press Tab from ``start`` (the first tab stop) until focus comes back to it.

    Returns:
        The widgets focus visited, in order, starting with ``start``; when focus never comes
        back (a widget keeps the Tab for itself) the list ends where it got stuck.
    """
    return _walk(root, start)[0]


def _walk(root: QWidget, start: QWidget | None) -> tuple[list[QWidget], bool]:
    """The Tab walk, and whether focus came back to where it started."""
    window = root.window()
    stops = tab_stops(root)
    assert stops, f"{type(root).__name__} has no control that takes Tab focus"
    first = start or stops[0]
    window.activateWindow()
    first.setFocus(Qt.FocusReason.TabFocusReason)
    QApplication.processEvents()
    current = window.focusWidget()
    assert current is not None, f"{type(first).__name__} did not take focus"
    limit = 2 * len(window.findChildren(QWidget)) + 4
    visited: list[QWidget] = [current]
    for _ in range(limit):
        QTest.keyClick(current, Qt.Key.Key_Tab)
        QApplication.processEvents()
        following = window.focusWidget()
        if following is visited[0]:
            return visited, True
        if following is None or following is current:  # the widget kept the Tab
            break
        visited.append(following)
        current = following
    return visited, False


def missed_by_tab(root: QWidget, visited: Iterable[QWidget]) -> list[QWidget]:
    """The tab stops under ``root`` that ``visited`` (a Tab walk) never reached."""
    visited = list(visited)
    missed = []
    for stop in tab_stops(root):
        mates = _group_mates(stop) if isinstance(stop, QAbstractButton) else [stop]
        if not any(_covers(v, mate) for v in visited for mate in mates):
            missed.append(stop)
    return missed


def _describe(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, QAbstractButton) else ""
    if isinstance(widget, QComboBox):
        text = widget.currentText()
    return f"{type(widget).__name__}({widget.objectName() or text or widget.accessibleName()!r})"


def _focus_chain(root: QWidget) -> str:
    """The window's focus chain from ``root`` round to it again, each widget with the state Tab
    decides by (policy, enabled, visible), and the application state that changes Tab: for a
    failure that only shows after other tests ran in the same process."""
    from PySide6.QtGui import QGuiApplication

    links, widget = [], root
    for _ in range(len(root.window().findChildren(QWidget)) + 2):
        state = (widget.focusPolicy().name, widget.isEnabled(), widget.isVisibleTo(root))
        links.append(f"{_describe(widget)}{list(state)}")
        widget = widget.nextInFocusChain()
        if widget is root:
            break
    hints = QGuiApplication.styleHints()
    return (
        " → ".join(links)
        + f"; tab behaviour {hints.tabFocusBehavior().name}, style {QApplication.style().name()},"
        + f" active window {type(QApplication.activeWindow()).__name__},"
        + f" modifiers {QGuiApplication.keyboardModifiers()}"
    )


def assert_walkable(roots: Iterable[QWidget]) -> None:
    """Every root (shown, in a state the test chose): each interactive widget named and
    described, and one Tab round visits every one of them and returns to the first."""
    for root in roots:
        name = type(root).__name__
        assert unlabelled_widgets(root) == [], f"{name}: {unlabelled_widgets(root)}"
        visited, came_back = _walk(root, None)
        missed = missed_by_tab(root, visited)
        order = " → ".join(_describe(w) for w in visited)
        assert missed == [], (
            f"{name}: Tab never reaches {[_describe(w) for w in missed]}; it goes {order}"
        )
        assert came_back, (
            f"{name}: Tab does not come back round; it goes {order} and stops.\n"
            f"Its focus chain: {_focus_chain(root)}"
        )
