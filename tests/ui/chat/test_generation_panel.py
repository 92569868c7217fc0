"""The generation settings column: max new tokens clamped to the model's context; it fits its
width at the smallest and a large window size (no sideways scrolling, every text wrapped
inside the column)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

from app.chat.context_window import max_answer_tokens
from app.context import AppContext
from tests.ui.chat.test_context_meter import FAKE_CONTEXT, english_locale
from tests.ui.fakes import Script
from tests.ui.helpers import ask, load, shown
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow

__all__ = ["english_locale"]  # fixtures, imported for the tests below


def cut_widgets(content: QWidget) -> list[str]:
    """Visible widgets in ``content`` whose right end lies past its width, or that are narrower
    than they need (a check box's or a button's text cut)."""
    cut = []
    for widget in content.findChildren(QWidget):
        if not widget.isVisibleTo(content) or widget.width() == 0:
            continue
        right = widget.mapTo(content, widget.rect().topRight()).x()
        squeezed = isinstance(widget, QAbstractButton) and (
            widget.width() < widget.minimumSizeHint().width()
        )
        if right >= content.width() or squeezed:
            name = widget.text() if isinstance(widget, (QLabel, QAbstractButton)) else ""
            cut.append(f"{type(widget).__name__} {name!r}")
    return cut


@pytest.mark.parametrize("size", [(1024, 700), (1600, 1000)])
def test_the_settings_column_fits_without_sideways_scrolling(
    qtbot: QtBot,
    window: MainWindow,
    model_folder: Path,
    tmp_path: Path,
    app_look: None,
    size: tuple[int, int],
) -> None:
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    load(qtbot, window.chat_panel, model_folder)
    panel = window.chat_panel
    panel.generation.show_action.trigger()
    panel.generation.performance.toggle.click()
    panel.generation.answer_format.format.setCurrentIndex(1)  # JSON: the schema rows show
    QApplication.processEvents()
    scroller = panel.generation.scroller
    qtbot.waitUntil(lambda: panel.generation.content.width() > 0, timeout=2000)
    assert not scroller.horizontalScrollBar().isVisible()
    content = panel.generation.content
    assert content.width() <= scroller.viewport().width()
    assert cut_widgets(content) == []
    window.grab().save(str(tmp_path / f"settings-{size[0]}x{size[1]}.png"))
    bar = scroller.verticalScrollBar()
    bar.setValue(bar.maximum())  # the Performance rows, at the bottom
    QApplication.processEvents()
    window.grab().save(str(tmp_path / f"settings-{size[0]}x{size[1]}-scrolled.png"))


@pytest.mark.usefixtures("english_locale")
def test_max_new_tokens_is_clamped_to_the_models_context(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    ctx.settings_store.update(chat=ctx.settings.chat.model_copy(update={"max_new_tokens": 9999}))
    load(qtbot, panel, model_folder)
    ceiling = max_answer_tokens(FAKE_CONTEXT)
    assert ceiling == 1536  # a quarter of the window stays for the prompt
    assert panel.generation.max_new_tokens.maximum() == ceiling
    assert panel.generation.max_new_tokens.value() == ceiling
    assert panel.generation_settings().max_new_tokens == ceiling
    assert ctx.settings.chat.max_new_tokens == 9999  # the stored value is not rewritten
    ask(qtbot, panel, "Hello there")
    assert "Hello there, friend." in shown(panel)  # not "this model can read 0 …"
    assert not panel.input_error.isVisible()
