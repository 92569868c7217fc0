"""A live language switch: every text the window shows in the old language is shown in the new
one, without rebuilding a widget or losing what a panel holds.

Widgets get their texts from :func:`ui.i18n.tr` as they are built, so Qt keeps only the
translated string. :class:`ShownTexts` remembers, for every string ``tr`` (or
:func:`ui.i18n.translated`) has handed out, what it was made from; after a new translator is
installed, :func:`retranslate_widgets` reads the texts Qt holds (labels, buttons, placeholders,
tool tips, titles, menus and actions, combo, tab, list, tree and table items, item-view headers)
and puts back each one it recognises, translated again.

A string put together after translating (``tr("{n} files").format(n=3)``, a number written
into a sentence) is not recognised, and is left to its owner: a widget showing such a text
re-makes it in ``changeEvent`` on ``QEvent.LanguageChange``, which Qt sends to every widget
after a translator changes (see :class:`ui.i18n.Translation`).
"""

from __future__ import annotations

import functools
import html
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TypeVar, cast

from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QPlainTextEdit,
    QTabBar,
    QTableWidget,
    QTextEdit,
    QToolBox,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from app.core import Text

KEPT_PER_TEXT = 64
"""How many strings made from one translatable text with different values (``"3 files"``,
``"12 tok/s"``) are remembered: the recent ones. Counted per text, so a line updated every
second (the performance overlay) forgets only its own old values, never a tool tip set once."""


@dataclass(frozen=True)
class Source:
    """What a shown string was made from: ``tr``'s arguments and the values ``format`` filled
    in, or a core sentence."""

    text: str
    disambiguation: str | None = None
    n: int = -1
    core: Text | None = None
    args: tuple[object, ...] = ()
    kwargs: tuple[tuple[str, object], ...] | None = None
    """The values of ``format`` (None: the translation was shown as it is)."""
    remake: Callable[[], str] | None = None
    """For a number written in the user's language (:func:`remade_on_switch`): writes it again."""
    family: str = ""
    """What strings of one kind are counted under (:data:`KEPT_PER_TEXT`); default ``text``."""


class TranslatedText(str):
    """A string :func:`ui.i18n.tr` handed out. Its ``format`` (the house's way of putting values
    in) remembers the values too, so the text it makes can be made again in another language."""

    source: Source

    def __new__(cls, shown: str, source: Source) -> TranslatedText:
        made = super().__new__(cls, shown)
        made.source = source
        return made

    def format(self, *args: object, **kwargs: object) -> str:
        """``str.format``, remembered with its values in :data:`SHOWN`."""
        made = str.format(self, *args, **kwargs)
        SHOWN.remember(made, replace(self.source, args=args, kwargs=tuple(kwargs.items())))
        return made


class ShownTexts:
    """Every translation handed out, by the string handed out."""

    def __init__(self) -> None:
        self._sources: dict[str, Source] = {}
        self._made_from: dict[str, OrderedDict[str, None]] = {}
        """For each text filled with values, the strings made from it, oldest first."""

    def remember(self, shown: str, source: Source) -> None:
        """``shown`` was made from ``source`` (a string made from two sources keeps the last:
        it is shown the same in this language, so either is as good a guess)."""
        self._sources[shown] = source
        plain = source.n == -1 and source.core is None and source.kwargs is None
        if plain and source.remake is None:
            return  # one string per text: as many as the catalog has
        family = source.family or source.text
        made = self._made_from.setdefault(family, OrderedDict())
        made[shown] = None
        made.move_to_end(shown)
        while len(made) > KEPT_PER_TEXT:
            oldest, _ = made.popitem(last=False)
            kept = self._sources.get(oldest, source)
            if (kept.family or kept.text) == family:
                self._sources.pop(oldest, None)

    def source_of(self, shown: str) -> Source | None:
        """What ``shown`` was made from, or None for a string no translation handed out."""
        return self._sources.get(shown)


SHOWN = ShownTexts()
"""The window's record (filled by :func:`ui.i18n.tr`, :meth:`TranslatedText.format` and
:func:`ui.i18n.translated`)."""


Written = TypeVar("Written", bound=Callable[..., str])


def remade_on_switch(write: Written) -> Written:
    """``write`` (a function writing a number in the user's language, :mod:`ui.numbers`) with
    each result remembered with how to write it again, so a language switch rewrites "38.8 MB"
    as "38,8 MB" wherever the window shows it, inside a sentence or glued to one."""

    @functools.wraps(write)
    def writing(*args: object, **kwargs: object) -> str:
        text = write(*args, **kwargs)
        again = functools.partial(writing, *args, **kwargs)
        source = Source(text, remake=again, family=write.__qualname__)
        SHOWN.remember(text, source)
        return TranslatedText(text, source)

    return cast(Written, writing)


Translate = Callable[[Source], str]
"""Turns a remembered source into a string in the language now installed."""


def retranslate_widgets(
    translate: Translate, widgets: Iterable[QWidget] | None = None, shown: ShownTexts = SHOWN
) -> int:
    """Show every recognised text of ``widgets`` (default: all of the application's) in the
    language now installed; returns how many texts changed.

    Args:
        translate: A remembered source in the new language (:func:`ui.i18n.translate_again`).
        widgets: The widgets to visit.
        shown: The record of translations handed out before the switch.
    """
    mapping: dict[str, str] = {}

    def again(text: str) -> str | None:
        if not text:
            return None
        if text not in mapping:
            mapping[text] = _made_again(text, translate, shown)
        new = mapping[text]
        return new if new != text else None

    changed = 0
    seen_actions: set[int] = set()
    seen_models: set[int] = set()
    for widget in QApplication.allWidgets() if widgets is None else widgets:
        changed += _retranslate_widget(widget, again)
        for action in widget.actions():
            if id(action) not in seen_actions:
                seen_actions.add(id(action))
                changed += _retranslate_action(action, again)
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            model = widget.model()
            if id(model) not in seen_models:
                seen_models.add(id(model))
                _ask_for_texts_again(model)
    return changed


def _made_again(text: str, translate: Translate, shown: ShownTexts) -> str:
    """``text`` in the new language: a string a translation made, or one glued together from
    such strings with tags, line breaks, " · " or " — " (``"<b>Collections</b>"``,
    ``"llama · 135M parameters"``), each piece put back; anything else as it is."""
    source = shown.source_of(text)
    if source is not None:
        return translate(source)
    parts = []
    for part in _GLUE.split(text):
        words = part.strip()
        if not words or _GLUE.fullmatch(part):
            parts.append(part)
            continue
        unescaped = html.unescape(words)
        source = shown.source_of(words) or shown.source_of(unescaped)
        if source is None:
            parts.append(part)
            continue
        new = translate(source)
        escaped = shown.source_of(words) is None  # it was written into rich text escaped
        parts.append(part.replace(words, html.escape(new, quote=False) if escaped else new))
    return "".join(parts)


_GLUE = re.compile(r"(<[^>]*>|\n| · | — )")
"""What the window glues translations together with."""


Again = Callable[[str], "str | None"]
"""A shown text in the new language, or None when it stays as it is."""


def _set(get: Callable[[], str], put: Callable[[str], None], again: Again) -> int:
    new = again(get())
    if new is None:
        return 0
    put(new)
    return 1


def _retranslate_widget(widget: QWidget, again: Again) -> int:
    """The texts of its kind, then those every widget has."""
    tooltip = widget.toolTip()
    changed = _retranslate_kind(widget, again)
    # A tool tip the widget made from its text (an elided label's full text) is made again
    # by its setText: only one it was given is put back here.
    if widget.toolTip() == tooltip:
        changed += _set(widget.toolTip, widget.setToolTip, again)
    changed += _set(widget.statusTip, widget.setStatusTip, again)
    changed += _set(widget.whatsThis, widget.setWhatsThis, again)
    changed += _set(widget.accessibleName, widget.setAccessibleName, again)
    changed += _set(widget.accessibleDescription, widget.setAccessibleDescription, again)
    if widget.isWindow():
        changed += _set(widget.windowTitle, widget.setWindowTitle, again)
    return changed


def _retranslate_kind(widget: QWidget, again: Again) -> int:
    """The texts of a label, a button, a combo box, a tab bar, a list… by its kind."""
    changed = 0
    if isinstance(widget, QLabel | QAbstractButton):
        changed += _set(widget.text, widget.setText, again)
    if isinstance(widget, QLineEdit | QTextEdit | QPlainTextEdit):
        changed += _set(widget.placeholderText, widget.setPlaceholderText, again)
    if isinstance(widget, QGroupBox):
        changed += _set(widget.title, widget.setTitle, again)
    if isinstance(widget, QMenu):
        changed += _set(widget.title, widget.setTitle, again)
    if isinstance(widget, QComboBox):
        changed += _set_items(widget.count(), widget.itemText, widget.setItemText, again)
    if isinstance(widget, QTabBar):
        changed += _set_items(widget.count(), widget.tabText, widget.setTabText, again)
        changed += _set_items(widget.count(), widget.tabToolTip, widget.setTabToolTip, again)
    if isinstance(widget, QToolBox):
        changed += _set_items(widget.count(), widget.itemText, widget.setItemText, again)
    if isinstance(widget, QListWidget):
        for i in range(widget.count()):
            item = widget.item(i)
            changed += _set(item.text, item.setText, again)
            changed += _set(item.toolTip, item.setToolTip, again)
    if isinstance(widget, QTreeWidget):
        changed += _retranslate_tree_item(widget.headerItem(), again)
        for i in range(widget.topLevelItemCount()):
            changed += _retranslate_tree_item(widget.topLevelItem(i), again, recursive=True)
    if isinstance(widget, QTableWidget):
        changed += _retranslate_table(widget, again)
    return changed


def _set_items(
    count: int, get: Callable[[int], str], put: Callable[[int, str], None], again: Again
) -> int:
    """``_set`` for each of ``count`` indexed texts (a combo's items, a tab bar's tabs)."""
    changed = 0
    for index in range(count):
        new = again(get(index))
        if new is not None:
            put(index, new)
            changed += 1
    return changed


def _retranslate_tree_item(
    item: QTreeWidgetItem | None, again: Again, *, recursive: bool = False
) -> int:
    if item is None:
        return 0
    columns = item.columnCount()
    changed = _set_items(columns, item.text, item.setText, again)
    changed += _set_items(columns, item.toolTip, item.setToolTip, again)
    if recursive:
        for i in range(item.childCount()):
            changed += _retranslate_tree_item(item.child(i), again, recursive=True)
    return changed


def _retranslate_table(table: QTableWidget, again: Again) -> int:
    changed = 0
    headers = [table.horizontalHeaderItem(c) for c in range(table.columnCount())]
    headers += [table.verticalHeaderItem(r) for r in range(table.rowCount())]
    items = [table.item(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())]
    for item in headers + items:
        if item is not None:
            changed += _set(item.text, item.setText, again)
            changed += _set(item.toolTip, item.setToolTip, again)
    return changed


def _retranslate_action(action: QAction, again: Again) -> int:
    changed = _set(action.text, action.setText, again)
    changed += _set(action.toolTip, action.setToolTip, again)
    changed += _set(action.statusTip, action.setStatusTip, again)
    changed += _set(action.iconText, action.setIconText, again)
    return changed


def _ask_for_texts_again(model: QAbstractItemModel) -> None:
    """A model that translates in ``data``/``headerData`` is asked for its texts again (a
    model of items set once is covered by its widget above)."""
    rows = model.rowCount(QModelIndex())
    # A list model's columnCount is private in C++ (it has one column).
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
    if columns > 0:
        model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, columns - 1)
    if rows > 0:
        model.headerDataChanged.emit(Qt.Orientation.Vertical, 0, rows - 1)
        if columns > 0:
            model.dataChanged.emit(model.index(0, 0), model.index(rows - 1, columns - 1))
