"""A video preview: Qt's media player in a video widget, with play/pause and a seek slider.

The video widget draws nothing in ``QWidget.grab()`` (DESIGN.md §8), so tests read the frames
the player delivers to ``player.videoSink()``. When the video ends or is stopped, the video
widget would go black: the last frame shown is kept and shown as a still picture instead
(the first, when the video never played). Sound goes to the default speaker when Qt
lists one; with no sound card the video plays silently (asking Qt for an audio output there
only produces warnings).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt, QUrl, Slot
from PySide6.QtGui import QImage, QPixmap
from PySide6.QtMultimedia import QAudioOutput, QMediaDevices, QMediaPlayer, QVideoFrame
from PySide6.QtMultimediaWidgets import QVideoWidget
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSlider,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError


def clock(ms: int) -> str:
    """``m:ss`` of a position in milliseconds."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


class StillFrame(QLabel):
    """A frame of the video as a picture, scaled to fit (kept when the video stops)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setMinimumSize(1, 1)  # the pixmap must not hold the layout open
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.image = QImage()

    def show_image(self, image: QImage) -> None:
        """Show ``image`` (scaled to the label, its proportions kept)."""
        self.image = image
        self._scale()

    def event(self, event: QEvent) -> bool:
        """Re-scale on resize (``event()``: see ui.chat.input_box, PySide6 6.12.0)."""
        handled = super().event(event)
        if event.type() == QEvent.Type.Resize:
            self._scale()
        return handled

    def _scale(self) -> None:
        if self.image.isNull():
            self.clear()
            return
        pixmap = QPixmap.fromImage(self.image)
        self.setPixmap(
            pixmap.scaled(
                self.size(),
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        )


class VideoPreview(QWidget):
    """Plays one video file at a time; ``placeholder`` (a sentence, or a widget of the
    owner's: an empty state) is shown until there is one."""

    def __init__(
        self, placeholder: str | QWidget, parent: QWidget | None = None, *, controls: bool = True
    ) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.video = QVideoWidget()
        self.video.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        if isinstance(placeholder, QWidget):
            self.placeholder: QWidget = placeholder
        else:
            label = QLabel(placeholder)
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)
            label.setFrameShape(QLabel.Shape.StyledPanel)
            self.placeholder = label
        self.still = StillFrame()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.video)
        self.stack.addWidget(self.still)
        self._last_frame: QVideoFrame | None = None
        self.player = QMediaPlayer(self)
        self.player.setVideoOutput(self.video)
        self._audio: QAudioOutput | None = None
        self._audio_checked = False
        self.play_button = QPushButton(tr("Play"))
        set_icon(self.play_button, "play")
        describe(self.play_button, tr("Play or pause"), tr("Play or pause the video"))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        describe(self.slider, tr("Position"), tr("Position in the video"))
        self.time_label = QLabel(clock(0) + " / " + clock(0))
        self.error = InlineError()
        self.controls = QWidget()
        row = QHBoxLayout(self.controls)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.play_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.time_label)
        self.controls.setVisible(controls)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack, 1)
        layout.addWidget(self.controls)
        layout.addWidget(self.error)
        self._moving = False  # the slider follows the player; don't seek back from it
        self.play_button.clicked.connect(self.toggle)
        self.slider.valueChanged.connect(self._on_slider)
        self.player.positionChanged.connect(self._on_position)
        self.player.durationChanged.connect(self._on_duration)
        self.player.playbackStateChanged.connect(self._on_state)
        self.player.errorOccurred.connect(self._on_error)
        self.player.videoSink().videoFrameChanged.connect(self._on_frame)
        self._set_enabled(False)

    @property
    def playing(self) -> bool:
        """Whether the video is playing now."""
        return self.player.playbackState() == QMediaPlayer.PlaybackState.PlayingState

    def load(self, path: Path, *, play: bool = True) -> None:
        """Show ``path`` (and play it from the start)."""
        self._ensure_audio()
        self.error.clear()
        self.path = path
        self.player.stop()
        self._last_frame = None
        self.player.setSource(QUrl.fromLocalFile(str(path)))
        self.stack.setCurrentWidget(self.video)
        self._set_enabled(True)
        if play:
            self.player.play()

    def clear(self) -> None:
        """Stop and show the placeholder again."""
        self.player.stop()
        self.player.setSource(QUrl())
        self._last_frame = None
        self.path = None
        self.stack.setCurrentWidget(self.placeholder)
        self._set_enabled(False)
        self._on_duration(0)

    @Slot()
    def toggle(self) -> None:
        """Play or pause (at the end, play starts again from the beginning)."""
        if self.playing:
            self.player.pause()
        elif self.path is not None:
            self.player.play()

    @Slot()
    def pause(self) -> None:
        """Pause if playing (the panel was hidden, the window closes)."""
        if self.playing:
            self.player.pause()

    def _ensure_audio(self) -> None:
        if self._audio_checked:
            return
        self._audio_checked = True
        if QMediaDevices.audioOutputs():
            self._audio = QAudioOutput(self)
            self.player.setAudioOutput(self._audio)

    def _set_enabled(self, enabled: bool) -> None:
        self.play_button.setEnabled(enabled)
        self.slider.setEnabled(enabled)

    @Slot(int)
    def _on_slider(self, value: int) -> None:
        if not self._moving:
            self.player.setPosition(value)

    @Slot("qint64")
    def _on_position(self, position: int) -> None:
        self._moving = True
        try:
            if not self.slider.isSliderDown():
                self.slider.setValue(int(position))
        finally:
            self._moving = False
        self.time_label.setText(f"{clock(int(position))} / {clock(int(self.player.duration()))}")

    @Slot("qint64")
    def _on_duration(self, duration: int) -> None:
        self._moving = True
        try:
            self.slider.setRange(0, max(0, int(duration)))
        finally:
            self._moving = False
        self.time_label.setText(f"{clock(int(self.player.position()))} / {clock(int(duration))}")

    @Slot(QVideoFrame)
    def _on_frame(self, frame: QVideoFrame) -> None:
        # Kept as the frame (cheap, shared), turned into a picture only when playback stops.
        if frame.isValid():
            self._last_frame = QVideoFrame(frame)

    @Slot(QMediaPlayer.PlaybackState)
    def _on_state(self, state: QMediaPlayer.PlaybackState) -> None:
        playing = state == QMediaPlayer.PlaybackState.PlayingState
        self.play_button.setText(tr("Pause") if playing else tr("Play"))
        set_icon(self.play_button, "pause" if playing else "play")
        if self.path is None:
            return
        if state == QMediaPlayer.PlaybackState.StoppedState and self._last_frame is not None:
            self.still.show_image(self._last_frame.toImage())
            self.stack.setCurrentWidget(self.still)
        elif playing:
            self.stack.setCurrentWidget(self.video)

    @property
    def showing_still(self) -> bool:
        """Whether the last frame is shown as a still (the video ended or was stopped)."""
        return self.stack.currentWidget() is self.still

    @Slot(QMediaPlayer.Error, str)
    def _on_error(self, _: QMediaPlayer.Error, message: str) -> None:
        name = self.path.name if self.path is not None else tr("the video")
        self.error.show_message(
            tr("Cannot play {name}: {reason}.").format(
                name=name, reason=message or tr("unknown error")
            )
        )
        announce(self.error, self.error.text())
