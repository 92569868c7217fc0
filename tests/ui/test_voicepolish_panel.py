"""Issue 18 polish of the Voice panel: status lines never move Record, Create voice or Speak;
every control has a name and a description; screenshots at both sizes in both themes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.voice.test_panel import make_voice_window, open_voice
from ui.a11y import unlabelled_widgets
from ui.shell.main_window import MainWindow
from ui.theme import dark_palette

__all__ = ["make_voice_window"]  # the fixture

LONG = "A problem said in a sentence long enough to wrap over two lines or more. " * 3


def where(widget: QWidget) -> QPoint:
    return widget.mapTo(widget.window(), QPoint(0, 0))


def test_status_lines_never_move_the_buttons(
    make_voice_window: Callable[..., MainWindow],
) -> None:
    panel = open_voice(make_voice_window())
    box, speech = panel.new_voice, panel.speech
    buttons = [
        box.record.record_button,
        box.create_button,
        box.file_button,
        speech.speak_button,
        panel.voices.rename_button,
    ]
    QApplication.processEvents()
    before = [where(button) for button in buttons]
    lines = [
        box.name_error,
        box.file_error,
        box.record.error,
        box.problems,
        box.create_error,
        speech.speak_error,
        speech.playback_note,
        speech.save_error,
        panel.voices.error,
    ]
    for line in lines:
        line.show_message(LONG)
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, line
        line.clear()
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, line
    for text in ("", LONG, "Recording in 3…"):
        box.clip_label.setText(text)
        box.progress_label.setText(text)
        box.record.status.setText(text[:20])
        speech.metrics_label.setText(text)
        box.trim_button.setVisible(bool(text))
        box.progress.setVisible(bool(text))
        QApplication.processEvents()
        assert [where(button) for button in buttons] == before, text


def test_every_control_has_a_name_and_a_description(
    make_voice_window: Callable[..., MainWindow],
) -> None:
    panel = open_voice(make_voice_window())
    problems = unlabelled_widgets(panel)
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("size", [(1600, 1000), (1024, 700)], ids=["large", "small"])
def test_screenshots_at_both_sizes_in_both_themes(
    make_voice_window: Callable[..., MainWindow], size: tuple[int, int], dark: bool
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.palette()
    if dark:
        app.setPalette(dark_palette())
    try:
        window = make_voice_window()
        window.resize(*size)
        open_voice(window)
        QApplication.processEvents()
        folder = Path("/tmp/shots-voice")
        folder.mkdir(exist_ok=True)
        name = f"voice-{size[0]}x{size[1]}-{'dark' if dark else 'light'}.png"
        assert window.grab().save(str(folder / name))
    finally:
        app.setPalette(original)
