"""A live language switch: what the window shows follows the language chosen in View →
Language at once, as a window built in that language would show it, and nothing is lost."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QWidget
from pytestqt.qtbot import QtBot

from app.core import DeviceInfo
from tests.ui.fakes import CPU
from tests.ui.helpers import WAIT_MS
from tests.ui.test_i18n import english_on_panels, visible_texts
from ui.i18n import TRANSLATION, Translation, tr
from ui.knowledge import KnowledgePanel
from ui.numbers import data_size, ratio
from ui.retranslation import KEPT_PER_TEXT, ShownTexts, Source, retranslate_widgets
from ui.shell.main_window import MainWindow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def languages(qapp: QApplication) -> Iterator[Translation]:
    """The app's compiled catalogs (as ``make`` leaves them), and the application left as it
    was afterwards: no translator, the default locale as before."""
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build_translations.py")], check=True)
    locale = QLocale()
    translation = Translation()
    try:
        yield translation
    finally:
        translation.uninstall(qapp)
        TRANSLATION.uninstall(qapp)
        QLocale.setDefault(locale)


def made(qtbot: QtBot) -> dict[str, QWidget]:
    """Widgets holding each kind of text the window puts together with ``tr``."""
    plain = QLabel(tr("Send"))
    rich = QLabel(f"<b>{tr('Collections')}</b>")
    filled = QLabel(tr("Context used: {used} / {limit} tokens").format(used=12, limit=4096))
    counted = QLabel(tr("%n frame(s)", "", 3))
    nested = QLabel(tr("Saved to {path}").format(path=tr("Collections")))
    combo = QComboBox()
    combo.addItems([tr("Send"), "SmolLM2-135M"])  # a model's name is no translation
    combo.setToolTip(tr("Remove {name}").format(name="notes.md"))
    holder = QWidget()
    holder.addAction(QAction(tr("&Theme"), holder))
    sized = QLabel(f"<b>Qwen3 4B</b> · {data_size(2_469_606_195)} · Apache-2.0")
    faster = QLabel(tr("Reuses earlier turns: {ratio}").format(ratio=ratio(1.65)))
    widgets = {
        "plain": plain,
        "rich": rich,
        "filled": filled,
        "counted": counted,
        "nested": nested,
        "combo": combo,
        "holder": holder,
        "sized": sized,
        "faster": faster,
    }
    for widget in widgets.values():
        qtbot.addWidget(widget)
    return widgets


def texts(widgets: dict[str, QWidget]) -> dict[str, object]:
    """What each widget shows."""
    combo, holder = widgets["combo"], widgets["holder"]
    assert isinstance(combo, QComboBox)
    shown: dict[str, object] = {
        name: widget.text() for name, widget in widgets.items() if isinstance(widget, QLabel)
    }
    shown["combo"] = ([combo.itemText(i) for i in range(combo.count())], combo.toolTip())
    shown["holder"] = [action.text() for action in holder.actions()]
    return shown


def test_each_kind_of_text_follows_a_switch_as_if_built_in_that_language(
    qtbot: QtBot, qapp: QApplication, languages: Translation
) -> None:
    languages.install(qapp, "en")
    switched = made(qtbot)
    english = texts(switched)
    for language in ("de", "zh_CN", "en"):
        languages.install(qapp, language)  # re-translates every widget of the application
        built_now = texts(made(qtbot))
        assert texts(switched) == built_now, language
    assert texts(switched) == english  # and back, word for word
    languages.install(qapp, "de")
    german = texts(switched)
    assert german["plain"] == "Senden" and german["rich"] == "<b>Sammlungen</b>"
    assert german["nested"] == "Gespeichert unter Sammlungen"
    assert german["combo"] == (["Senden", "SmolLM2-135M"], "notes.md entfernen")
    # Numbers too, as the locale writes them (not a glyph this test assumes).
    assert german["sized"] == f"<b>Qwen3 4B</b> · {data_size(2_469_606_195)} · Apache-2.0"
    assert "2,3" in str(german["sized"]) and "1,65" in str(german["faster"])


def test_a_string_no_translation_made_is_left_alone(qtbot: QtBot) -> None:
    shown = ShownTexts()
    shown.remember("Senden", Source("Send"))
    label, name = QLabel("Senden"), QLabel("Senden.txt")  # a file name, not a translation
    qtbot.addWidget(label)
    qtbot.addWidget(name)
    changed = retranslate_widgets(lambda source: source.text, [label, name], shown)
    assert (changed, label.text(), name.text()) == (1, "Send", "Senden.txt")


def panel_texts(window: MainWindow) -> dict[str, list[tuple[str, str]]]:
    """Every panel's visible texts, panel by panel (the panel shown in turn)."""
    shown: dict[str, list[tuple[str, str]]] = {}
    for name in window.panels:
        window.show_panel(name)
        shown[name] = sorted(visible_texts(window))
    window.show_panel("Chat")
    return shown


def settled(qtbot: QtBot, window: MainWindow) -> MainWindow:
    """``window`` once what it starts on its own has started: the Knowledge panel's database
    starts when the panel is first shown, and its texts change when it is up."""
    knowledge = window.panels["Knowledge"]
    assert isinstance(knowledge, KnowledgePanel)
    window.show_panel("Knowledge")
    qtbot.waitUntil(lambda: knowledge.ready and not window.tasks.busy, timeout=60_000)
    window.show_panel("Chat")
    return window


def test_the_view_menu_switches_the_open_window_without_a_restart(
    qtbot: QtBot,
    qapp: QApplication,
    languages: Translation,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
) -> None:
    TRANSLATION.install(qapp, "en")
    window = settled(qtbot, make_window([CPU]))
    window.chat_panel.input.setPlainText("a question typed before the switch")
    english = panel_texts(window)
    choices = window.menus.view.language_actions
    choices["de"].trigger()
    assert window.ctx.settings_store.load().settings.language == "de"  # saved for next time
    assert choices["de"].isChecked()
    assert window.chat_panel.input.toPlainText() == "a question typed before the switch"
    assert window.isVisible() and not window.notifications.isVisible()  # no restart asked
    english_left = english_on_panels(qtbot, window)
    assert not english_left, "English after the switch:\n" + "\n".join(english_left)
    german = panel_texts(window)
    # Back and forth, word for word, once the layouts have settled (a label cut in German is
    # cut again when its new width arrives, after the posted layout requests).
    choices["en"].trigger()
    qtbot.waitUntil(lambda: panel_texts(window) == english, timeout=WAIT_MS)
    choices["de"].trigger()
    qtbot.waitUntil(lambda: panel_texts(window) == german, timeout=WAIT_MS)
    size = window.size()
    window.close()
    built_in_german = settled(qtbot, make_window([CPU]))  # as the next start builds it
    built_in_german.resize(size)
    qtbot.waitUntil(lambda: panel_texts(built_in_german) == german, timeout=WAIT_MS)


def test_a_line_updated_often_forgets_only_its_own_old_values() -> None:
    shown = ShownTexts()
    tip = Source("Remove {name}", kwargs=(("name", "notes.md"),))
    shown.remember("notes.md entfernen", tip)  # a tool tip set once, long ago
    speed = Source("{speed} tok/s")
    for tokens in range(KEPT_PER_TEXT * 3):  # the overlay, every second
        shown.remember(f"{tokens} tok/s", replace(speed, kwargs=(("speed", tokens),)))
    assert shown.source_of("notes.md entfernen") == tip
    assert shown.source_of(f"{KEPT_PER_TEXT * 3 - 1} tok/s") is not None
    assert shown.source_of("0 tok/s") is None
