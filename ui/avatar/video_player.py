"""A video preview: Qt's media player in a video widget, with play/pause and a seek slider.

The video widget draws nothing in ``QWidget.grab()`` (DESIGN.md §8), so tests read the frames
the player delivers to ``player.videoSink()``. Sound goes to the default speaker when Qt
lists one; with no sound card the video plays silently (asking Qt for an audio output there
only produces warnings).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Slot
from PySide6.QtMultimedia import QAudioOutput, QMediaDevices, QMediaPlayer
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

from ui.inline_error import InlineError


def clock(ms: int) -> str:
    """``m:ss`` of a position in milliseconds."""
    seconds = max(0, ms) // 1000
    return f"{seconds // 60}:{seconds % 60:02d}"


class VideoPreview(QWidget):
    """Plays one video file at a time; ``placeholder`` is shown until there is one."""

    def __init__(
        self, placeholder: str, parent: QWidget | None = None, *, controls: bool = True
    ) -> None:
        super().__init__(parent)
        self.path: Path | None = None
        self.video = QVideoWidget()
        self.video.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.placeholder = QLabel(placeholder)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setFrameShape(QLabel.Shape.StyledPanel)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(self.video)
        self.player = QMediaPlayer(self)
        self.player.setVideoOutput(self.video)
        self._audio: QAudioOutput | None = None
        self._audio_checked = False
        self.play_button = QPushButton("Play")
        self.play_button.setToolTip("Play or pause the video")
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Position in the video")
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
        self.player.setSource(QUrl.fromLocalFile(str(path)))
        self.stack.setCurrentWidget(self.video)
        self._set_enabled(True)
        if play:
            self.player.play()

    def clear(self) -> None:
        """Stop and show the placeholder again."""
        self.player.stop()
        self.player.setSource(QUrl())
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

    @Slot(QMediaPlayer.PlaybackState)
    def _on_state(self, state: QMediaPlayer.PlaybackState) -> None:
        playing = state == QMediaPlayer.PlaybackState.PlayingState
        self.play_button.setText("Pause" if playing else "Play")

    @Slot(QMediaPlayer.Error, str)
    def _on_error(self, _: QMediaPlayer.Error, message: str) -> None:
        name = self.path.name if self.path is not None else "the video"
        self.error.show_message(f"Cannot play {name}: {message or 'unknown error'}.")
