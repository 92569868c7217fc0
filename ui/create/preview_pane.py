"""The Create panel's picture area: the live preview while a picture is drawn, then the result,
with its caption, the progress of the steps and the time left.

A preview is one of three kinds (:class:`~app.images.Preview`): the picture decoded so far by
the model's VAE, the same by a tiny preview decoder (fast, close to it), or a colour sketch of
the latent at an eighth of the size, blurred — which is labelled a sketch, so nobody takes it
for the result. The line under the picture says which kind the run shows.
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QEvent, QSize, Qt, Slot
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtWidgets import QLabel, QProgressBar, QSizePolicy, QWidget

from app.images import UPSCALE_STAGE, Preview
from pipelines.core import Progress
from ui.a11y import describe
from ui.create.mask_canvas import rgb_image
from ui.i18n import tr, translated
from ui.numbers import decimal
from ui.widgets.layouts import vbox

APPROXIMATE = "approximate"
"""``PreviewKind.APPROXIMATE``'s value: a sketch, not the decoded picture."""
FAST = "fast"
"""``PreviewKind.FAST``'s value: decoded by a tiny preview decoder."""


def previews_line(kind: str) -> str:
    """What the previews of ``kind`` are, for the line under the picture."""
    if kind == FAST:
        return tr("Previews: fast decoder")
    if kind == APPROXIMATE:
        return tr("Previews: sketch")
    return tr("Previews: the model's decoder")


class PictureView(QLabel):
    """A picture scaled to fit the label, kept sharp as the label is resized."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = QImage()
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(160, 120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def show_picture(self, picture: NDArray[np.uint8] | None) -> None:
        """Show ``picture`` (None: nothing)."""
        self.image = QImage() if picture is None else rgb_image(picture)
        self._rescale()

    def sizeHint(self) -> QSize:
        """Room for a 512² picture when there is room at all."""
        return QSize(512, 512)

    def event(self, event: QEvent) -> bool:
        """A resize scales the picture again."""
        # event(), not resizeEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        handled = super().event(event)
        if event.type() == QEvent.Type.Resize:
            self._rescale()
        return handled

    def _rescale(self) -> None:
        if self.image.isNull():
            self.clear()
            return
        # Pictures smaller than the view are enlarged without smoothing: pixels stay pixels.
        smooth = max(self.image.width(), self.image.height()) > min(self.width(), self.height())
        mode = (
            Qt.TransformationMode.SmoothTransformation
            if smooth
            else Qt.TransformationMode.FastTransformation
        )
        scaled = self.image.scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio, mode)
        self.setPixmap(QPixmap.fromImage(scaled))


class StepClock:
    """The time left, from the pace of the steps so far."""

    def __init__(self) -> None:
        self._started: float | None = None
        self._first_done = 0

    def reset(self) -> None:
        """A new run."""
        self._started = None

    def text(self, progress: Progress) -> str:
        """ "Step 3 of 20 · about 12 s left" (no estimate before the second step)."""
        done, total = progress.done, progress.total or 0
        now = time.monotonic()
        if self._started is None:
            # The first step also loads and encodes: the pace is measured from it on.
            self._started, self._first_done = now, done
        if progress.stage == UPSCALE_STAGE:
            step = tr("Tile {done} of {total}").format(done=done, total=total)
        else:
            step = tr("Step {done} of {total}").format(done=done, total=total)
        paced = done - self._first_done
        if paced <= 0 or total <= done:
            return step
        left = (now - self._started) / paced * (total - done)
        return tr("{step} · about {seconds} s left").format(step=step, seconds=decimal(left, 0))


class PreviewPane(QWidget):
    """The picture being made (or made), its caption, and the steps' progress."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = PictureView()
        describe(self.view, tr("Picture"), tr("The picture being made, or the last one made"))
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumHeight(12)
        describe(self.progress_bar, tr("Progress"), tr("The denoising steps done"))
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.clock = StepClock()
        self.previews = 0
        """Previews shown in this run."""
        self.last_kind = ""
        self.previews_kind = QLabel()
        self.previews_kind.setAlignment(Qt.AlignmentFlag.AlignCenter)
        describe(self.previews_kind, tr("Previews"), tr("How the live previews are made"))
        vbox(
            (self.view, 1),
            self.caption,
            self.previews_kind,
            self.progress_bar,
            self.progress_label,
            parent=self,
        )
        self.show_progress(False)

    def start(self) -> None:
        """A run begins: the steps are not known yet."""
        self.clock.reset()
        self.previews = 0
        self.last_kind = ""
        self.previews_kind.clear()
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(tr("Loading the model…"))
        self.show_progress(True)

    def show_progress(self, visible: bool) -> None:
        """Show or hide the progress bar and its line."""
        self.progress_bar.setVisible(visible)
        self.progress_label.setVisible(visible)

    @Slot(object)
    def step(self, progress: Progress) -> None:
        """A denoising step is done; or, with no total (a remote endpoint tells nothing until
        the pictures come), a busy bar and the progress's own words."""
        if progress.total:
            self.progress_bar.setRange(0, progress.total)
            self.progress_bar.setValue(progress.done)
            self.progress_label.setText(self.clock.text(progress))
        elif progress.message:
            self.progress_bar.setRange(0, 0)
            self.progress_label.setText(translated(progress.message))

    def preview(self, preview: Preview) -> None:
        """Show the picture as it looks after a step."""
        self.previews += 1
        self.last_kind = str(preview.kind)
        self.view.show_picture(preview.picture)
        if self.last_kind == APPROXIMATE:
            text = tr("Sketch of step {step} of {total} (blurred, from the latent)")
        elif self.last_kind == FAST:
            text = tr("Fast preview after step {step} of {total}")
        else:
            text = tr("Preview after step {step} of {total}")
        self.caption.setText(text.format(step=preview.step, total=preview.total))
        self.previews_kind.setText(previews_line(self.last_kind))

    def result(self, picture: NDArray[np.uint8], caption: str) -> None:
        """Show a finished picture."""
        self.show_progress(False)
        self.last_kind = ""
        self.view.show_picture(picture)
        self.caption.setText(caption)

    def stopped(self, text: str) -> None:
        """The run ended without a picture: say why under the picture area."""
        self.progress_bar.hide()
        self.progress_label.setText(text)
        self.progress_label.show()
