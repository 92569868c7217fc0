"""A dialog that keeps fitting its messages grows for a long one, and closing it while that
check is still pending (it runs after the layout change) is quiet: no error, no crash dialog.
A new entry of a list gets the first name no other entry has."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from ui.widgets.dialog_rows import free_name, keep_fitting
from ui.widgets.layouts import vbox

LONG = "A message long enough to need several lines in a narrow dialog. " * 4


def fitting_dialog(qtbot: QtBot, *, close_at_end: bool = True) -> tuple[QDialog, QLabel]:
    dialog = QDialog()
    if close_at_end:
        qtbot.addWidget(dialog)
    message = QLabel()
    message.setWordWrap(True)
    message.hide()
    vbox(QLineEdit(), message, parent=dialog)
    keep_fitting(dialog)
    dialog.resize(260, dialog.sizeHint().height())
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog, message


def test_a_message_that_needs_more_lines_grows_the_dialog(qtbot: QtBot) -> None:
    dialog, message = fitting_dialog(qtbot)
    height = dialog.height()
    message.setText(LONG)
    message.show()
    layout = dialog.layout()

    def fits() -> bool:  # as tall as its lines need at its width, and taller than before
        return dialog.height() >= layout.totalHeightForWidth(dialog.width()) > height

    qtbot.waitUntil(fits, timeout=2000)


def test_a_dialog_deleted_before_its_check_runs_is_left_alone(qtbot: QtBot) -> None:
    dialog, message = fitting_dialog(qtbot, close_at_end=False)  # deleted below
    message.setText(LONG)
    message.show()
    # The layout change reaches the dialog: its height check is now queued behind it.
    QCoreApplication.sendPostedEvents(dialog, QEvent.Type.LayoutRequest)
    dialog.deleteLater()  # closed with WA_DeleteOnClose, as the app's dialogs are
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(dialog)
    QCoreApplication.processEvents()  # the queued check's turn: it must not touch the dialog


def test_a_new_entry_gets_the_first_name_no_other_has_ignoring_case() -> None:
    assert free_name("New server", []) == "New server"
    assert free_name("New server", ["new SERVER"]) == "New server 2"
    assert free_name("New server", ["New server", "New server 2", "x"]) == "New server 3"
