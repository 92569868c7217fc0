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

from app.about import app_version, runtime_versions
from app.devices import DeviceInfo
from ui.layouts import hbox, vbox

PRIVACY = "Everything runs on this computer: no conversation, document or voice leaves it."


class AboutDialog(QDialog):
    """What this copy is and where its log is (every value selectable, to paste in a report)."""

    def __init__(
        self, devices: list[DeviceInfo], log_folder: Path, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("About OV Studio")
        self.log_folder = log_folder
        title = QLabel(f"<h3>OV Studio {html.escape(app_version())}</h3>")
        blurb = QLabel(f"Local multimodal AI on OpenVINO. {PRIVACY}")
        blurb.setWordWrap(True)
        form = QFormLayout()
        self.values: dict[str, QLabel] = {}
        rows = [*runtime_versions(), ("Qt for Python", pyside_version)]
        names = "\n".join(f"{d.name} — {d.full_name}" for d in devices) or "none found"
        rows += [("Devices", names), ("Log folder", str(log_folder))]
        for name, value in rows:
            label = QLabel(value)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.values[name] = label
            form.addRow(f"{name}:", label)
        self.open_button = QPushButton("Open folder")
        self.open_button.setToolTip("Show the log folder in the file manager")
        self.open_button.clicked.connect(self.open_log_folder)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        vbox(title, blurb, form, hbox(1, self.open_button, margins=0), buttons, parent=self)

    @Slot()
    def open_log_folder(self) -> None:
        """Show the log folder in the system's file manager (made first if it is not there)."""
        self.log_folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_folder)))
