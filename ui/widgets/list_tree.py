"""The flat, renamable lists of named things (collections, voices): one way to build them.

A list is a ``QTreeWidget`` with columns and no tree decoration; the first column (the name)
takes the room and the others fit their contents. Renaming happens in place: F2 or a
double-click edits the name, and the edited text is checked here before anyone is asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTreeWidget, QTreeWidgetItem, QWidget

from ui.i18n import tr


def make_list_tree(object_name: str, headers: Sequence[str], right: Sequence[int]) -> QTreeWidget:
    """A list with ``headers``, read-only unless a rename opens an item's name.

    Args:
        object_name: For style sheets and tests.
        headers: Column titles; the first column stretches, the others fit their contents.
        right: Columns whose header is right-aligned (numbers).
    """
    tree = QTreeWidget()
    tree.setObjectName(object_name)
    tree.setColumnCount(len(headers))
    tree.setHeaderLabels(list(headers))
    tree.setRootIsDecorated(False)
    tree.setUniformRowHeights(True)
    tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    header = tree.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for column in range(1, len(headers)):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    for column in right:
        tree.headerItem().setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
    return tree


def rename_action(tree: QTreeWidget, owner: QWidget) -> QAction:
    """F2 on ``tree`` (only while it has focus): connect it to the owner's rename."""
    action = QAction(tr("Rename"), owner)
    action.setShortcut(QKeySequence(Qt.Key.Key_F2))
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    tree.addAction(action)
    return action


def tree_items(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The rows, top to bottom."""
    rows = (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
    return [item for item in rows if item is not None]


def wanted_rename(old: str, edited: str) -> str | None:
    """The name the user asked for, or None when the edit only moved white space around."""
    return None if " ".join(edited.split()) == old else edited
