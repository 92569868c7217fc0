"""Help → About: the version, OpenVINO and GenAI versions, the devices found, the log folder."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QWidget,
)

from app.core import DeviceInfo, app_version, runtime_versions
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.dialog_rows import describe_standard_buttons
from ui.widgets.layouts import hbox, vbox


def privacy_sentence() -> str:
    """The promise About (and first run) makes, in the user's language."""
    return tr("Everything runs on this computer: no conversation, document or voice leaves it.")


class AboutDialog(QDialog):
    """What this copy is and where its log is (every value selectable, to paste in a report).

    ``values`` is keyed by the English row names ("OpenVINO", "Devices", "Log folder"); the
    labels beside them are shown translated.
    """

    def __init__(
        self, devices: list[DeviceInfo], log_folder: Path, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("About OV Studio"))
        self.log_folder = log_folder
        title = QLabel(f"<h3>OV Studio {html.escape(app_version())}</h3>")  # untranslated: name
        blurb = QLabel(
            tr("Local multimodal AI on OpenVINO. {privacy}").format(privacy=privacy_sentence())
        )
        blurb.setWordWrap(True)
        form = QFormLayout()
        self.values: dict[str, QLabel] = {}
        # Product names stay as they are; the two descriptive rows are translated.
        shown_names = {"Devices": tr("Devices"), "Log folder": tr("Log folder")}
        rows = [*runtime_versions(), ("Qt for Python", pyside_version)]
        names = "\n".join(f"{d.name} — {d.full_name}" for d in devices) or tr("none found")
        rows += [("Devices", names), ("Log folder", str(log_folder))]
        for name, value in rows:
            label = QLabel(value)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[name] = label
            form.addRow(tr("{name}:").format(name=shown_names.get(name, name)), label)
        self.open_button = QPushButton(tr("&Open log folder"))
        set_icon(self.open_button, "folder-open")
        describe(
            self.open_button,
            tr("Open log folder"),
            tr("Show the log folder in the file manager."),
        )
        self.open_button.clicked.connect(self.open_log_folder)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        describe_standard_buttons(buttons)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        close.setDefault(True)
        buttons.rejected.connect(self.reject)
        vbox(title, blurb, form, hbox(1, self.open_button, margins=0), buttons, parent=self)
        self.setTabOrder(self.open_button, close)
        self.setMinimumWidth(440)  # the blurb in two lines, not four

    @Slot()
    def open_log_folder(self) -> None:
        """Show the log folder in the system's file manager (made first if it is not there)."""
        self.log_folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_folder)))
