"""The Create panel's edit mode: the picture to edit and how — redrawn after the prompt (image
to image), repainted under a mask painted by hand (inpainting), or grown on one side
(outpainting) — with the mask's brush, eraser, size, Clear and Invert. The panel places the
mask canvas (:attr:`EditBox.canvas`) beside the controls, where there is room to paint."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from app.core import UserError
from app.images import ImageRequest, Mode, Side
from ui.a11y import describe
from ui.create.mask_canvas import DEFAULT_BRUSH, MaskCanvas
from ui.create.picture_job import PictureJob
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.flow_layout import FlowLayout
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

EDIT_MODES = (Mode.IMAGE_TO_IMAGE, Mode.INPAINTING, Mode.OUTPAINTING)
MAX_BRUSH = 512
MAX_EXTEND = 1024
DEFAULT_EXTEND = 128
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")
"""What can be edited, chosen or dropped (Pillow reads them all)."""


def mode_names() -> dict[Mode, str]:
    """The edit modes as the user reads them."""
    return {
        Mode.IMAGE_TO_IMAGE: tr("Redraw (image to image)"),
        Mode.INPAINTING: tr("Repaint the painted part (inpainting)"),
        Mode.OUTPAINTING: tr("Extend a side (outpainting)"),
    }


def side_names() -> dict[Side, str]:
    """The sides outpainting grows, as the user reads them."""
    return {
        Side.LEFT: tr("Left"),
        Side.RIGHT: tr("Right"),
        Side.TOP: tr("Top"),
        Side.BOTTOM: tr("Bottom"),
    }


class EditBox(QWidget):
    """The picture to edit, the edit mode and its controls."""

    pictureChosen = Signal(Path)  # "Choose picture…": the file the panel reads

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source: Path | None = None
        """The file the picture came from (None: none yet)."""
        self.picture: NDArray[np.uint8] | None = None
        self.choose_button = QPushButton(tr("Choose picture…"))
        set_icon(self.choose_button, "image-outline")
        describe(self.choose_button, tr("Choose picture"), tr("Open a picture to edit"))
        self.source_label = QLabel(tr("No picture yet."))
        self.source_label.setWordWrap(True)
        self.image_error = InlineError()
        self.mode = QComboBox()
        for mode, name in mode_names().items():
            self.mode.addItem(name, mode.value)
        describe(self.mode, tr("Edit mode"), tr("How the picture is edited"))
        self.canvas = MaskCanvas()
        self.brush_button = QPushButton(tr("Brush"))
        set_icon(self.brush_button, "brush")
        describe(self.brush_button, tr("Brush"), tr("Paint the part to repaint"))
        self.eraser_button = QPushButton(tr("Eraser"))
        set_icon(self.eraser_button, "eraser")
        describe(self.eraser_button, tr("Eraser"), tr("Take paint off the mask"))
        self.tools = QButtonGroup(self)
        for button in (self.brush_button, self.eraser_button):
            button.setCheckable(True)
            self.tools.addButton(button)
        self.brush_button.setChecked(True)
        self.brush_size = QSpinBox()
        self.brush_size.setRange(1, MAX_BRUSH)
        self.brush_size.setValue(DEFAULT_BRUSH)
        self.brush_size.setSuffix(tr(" px"))
        describe(self.brush_size, tr("Brush size"), tr("The brush's width in the picture's pixels"))
        self.clear_button = QPushButton(tr("Clear"))
        set_icon(self.clear_button, "selection-remove")
        describe(self.clear_button, tr("Clear the mask"), tr("Nothing is repainted"))
        self.invert_button = QPushButton(tr("Invert"))
        set_icon(self.invert_button, "invert-colors")
        describe(
            self.invert_button, tr("Invert the mask"), tr("Repaint everything but the painted part")
        )
        self.mask_error = InlineError()
        self.side = QComboBox()
        for side, name in side_names().items():
            self.side.addItem(name, side.value)
        describe(self.side, tr("Side"), tr("The side the picture grows on"))
        self.extend = QSpinBox()
        self.extend.setRange(8, MAX_EXTEND)
        self.extend.setSingleStep(8)
        self.extend.setValue(DEFAULT_EXTEND)
        self.extend.setSuffix(tr(" px"))
        describe(self.extend, tr("Extend by"), tr("How many pixels the picture grows"))
        self._layout()
        self.mode.currentIndexChanged.connect(self._show_mode)
        self.choose_button.clicked.connect(self.choose_picture)
        self.brush_size.valueChanged.connect(self._set_brush)
        self.eraser_button.toggled.connect(self._set_eraser)
        self.clear_button.clicked.connect(self.canvas.clear)
        self.invert_button.clicked.connect(self.canvas.invert)
        self.canvas.maskChanged.connect(self.mask_error.clear)
        self._show_mode()

    def _layout(self) -> None:
        self.mask_tools = QWidget()
        flow = FlowLayout(self.mask_tools)
        flow.add_widgets(
            self.brush_button,
            self.eraser_button,
            self.brush_size,
            self.clear_button,
            self.invert_button,
        )
        self.extend_row = QWidget()
        self.extend_row.setLayout(
            hbox(QLabel(tr("Side")), self.side, QLabel(tr("by")), self.extend, 1, margins=0)
        )
        vbox(
            hbox(self.choose_button, (self.source_label, 1), margins=0),
            self.image_error,
            self.mode,
            self.mask_tools,
            self.mask_error,
            self.extend_row,
            parent=self,
            margins=0,
        )

    # -- state ------------------------------------------------------------------------------

    @Slot()
    def choose_picture(self) -> None:
        """Pick a picture file to edit."""
        filters = tr("Pictures") + " (" + " ".join(f"*{s}" for s in PICTURE_SUFFIXES) + ")"
        path = open_file(self, tr("Choose a picture to edit"), FileKind.IMAGES, filters)
        if path is not None:
            self.pictureChosen.emit(path)

    def current_mode(self) -> Mode:
        """The edit mode chosen."""
        return Mode(str(self.mode.currentData()))

    def set_mode(self, mode: Mode) -> None:
        """Choose ``mode`` (one of :data:`EDIT_MODES`)."""
        index = self.mode.findData(mode.value)
        if index >= 0:
            self.mode.setCurrentIndex(index)

    def current_side(self) -> Side:
        """The side outpainting grows."""
        return Side(str(self.side.currentData()))

    def set_picture(self, picture: NDArray[np.uint8], source: Path | None) -> None:
        """Edit ``picture`` (read from ``source``); the mask starts empty."""
        self.picture = picture
        self.source = source
        height, width = picture.shape[:2]
        name = source.name if source is not None else tr("The last picture")
        self.source_label.setText(f"{name} · {width}×{height}")
        self.source_label.setToolTip(str(source) if source is not None else "")
        self.image_error.clear()
        self.mask_error.clear()
        self.canvas.set_picture(picture)

    def job(self, request: ImageRequest, device: str) -> PictureJob:
        """What Generate draws in the chosen edit mode.

        Raises:
            UserError: no picture yet (``field="image"``), or nothing painted to inpaint
                (``field="mask"``).
        """
        if self.picture is None:
            raise UserError(tr("Choose a picture to edit first."), field="image")
        mode = self.current_mode()
        mask = self.canvas.mask_pixels() if mode is Mode.INPAINTING else None
        if mask is not None and not mask.any():
            raise UserError(
                tr("Paint over the part to repaint first (it shows in red)."), field="mask"
            )
        return PictureJob(
            mode,
            request,
            device,
            picture=self.picture,
            mask=mask,
            side=self.current_side(),
            pixels=self.extend.value(),
        )

    def set_busy(self, busy: bool) -> None:
        """Nothing changes while a picture is drawn."""
        for widget in (
            self.choose_button,
            self.mode,
            self.canvas,
            self.mask_tools,
            self.extend_row,
        ):
            widget.setEnabled(not busy)

    @Slot()
    def _show_mode(self) -> None:
        mode = self.current_mode()
        inpainting = mode is Mode.INPAINTING
        self.canvas.setEnabled(True)
        self.mask_tools.setVisible(inpainting)
        self.extend_row.setVisible(mode is Mode.OUTPAINTING)
        self.canvas.painting = inpainting
        self.canvas.update()

    @Slot(int)
    def _set_brush(self, size: int) -> None:
        self.canvas.brush_size = size

    @Slot(bool)
    def _set_eraser(self, erasing: bool) -> None:
        self.canvas.erasing = erasing
