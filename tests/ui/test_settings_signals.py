"""Settings signals: a change reaches the widgets that listen to its fields, on the GUI thread,
whichever thread made it; other widgets are not woken; nothing arrives after the window closed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.settings_store import SettingsStore
from ui.settings_signals import ChangedFields, SettingsSignals
from ui.tasks import TaskRunner


class Listener(QObject):
    """A GUI object with slots, as a panel is; notes the thread each call arrives on."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.heard: list[ChangedFields] = []
        self.threads: list[int] = []
        self.woken = 0

    @Slot(object)
    def on_fields(self, fields: ChangedFields) -> None:
        self.heard.append(fields)
        self.threads.append(threading.get_ident())

    @Slot()
    def on_change(self) -> None:
        self.woken += 1

    @Slot(str)
    def on_marker(self, marker: str) -> None:
        self.heard.append(frozenset({marker}))


@pytest.fixture
def holder(qtbot: QtBot) -> Iterator[QWidget]:
    widget = QWidget()
    qtbot.addWidget(widget)
    yield widget


@pytest.fixture
def tasks(holder: QWidget, qtbot: QtBot) -> Iterator[TaskRunner]:
    runner = TaskRunner(holder)
    yield runner
    runner.cancel_all_and_wait(5000)


@pytest.fixture
def store(tmp_path: Path) -> SettingsStore:
    return SettingsStore(tmp_path / "settings.json")


@pytest.fixture
def signals(store: SettingsStore, tasks: TaskRunner, holder: QWidget) -> Iterator[SettingsSignals]:
    signals = SettingsSignals(store, tasks, holder)
    yield signals
    signals.close()


def on_a_thread(work: Callable[[], Any]) -> None:
    """Run ``work`` on a thread of its own (as the server or a job would) and wait for it."""
    failures: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - re-raised on the test's thread
            failures.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    assert not thread.is_alive()
    if failures:
        raise failures[0]


def test_a_change_made_here_is_heard_before_the_call_returns(
    signals: SettingsSignals, store: SettingsStore
) -> None:
    listener = Listener()
    signals.connect_keys({"theme"}, listener.on_fields)
    store.update(theme="dark")
    assert listener.heard == [frozenset({"theme"})]


def test_a_change_made_on_another_thread_is_heard_on_the_gui_thread(
    signals: SettingsSignals, store: SettingsStore, qtbot: QtBot
) -> None:
    listener = Listener()
    signals.connect_keys({"theme", "language"}, listener.on_fields)
    on_a_thread(lambda: store.update(theme="dark", overlay_visible=True))
    qtbot.waitUntil(lambda: bool(listener.heard), timeout=5000)
    assert listener.heard == [frozenset({"theme", "overlay_visible"})]  # every changed field
    assert listener.threads == [threading.get_ident()]
    assert signals.settings.theme == "dark"


def test_a_change_to_other_fields_does_not_wake_a_listener(
    signals: SettingsSignals, store: SettingsStore, qtbot: QtBot
) -> None:
    theme, other = Listener(), Listener()
    signals.connect_keys({"overlay_visible"}, other.on_change)
    signals.connect_keys({"theme"}, theme.on_change)
    on_a_thread(lambda: store.update(theme="dark"))
    on_a_thread(lambda: store.update(overlay_visible=True))  # arrives after the theme
    qtbot.waitUntil(lambda: other.woken == 1, timeout=5000)
    assert theme.woken == 1
    store.update(language="de")
    assert (theme.woken, other.woken) == (1, 1)


def test_a_field_that_does_not_exist_is_refused(signals: SettingsSignals) -> None:
    listener = Listener()
    with pytest.raises(ValueError, match="themes"):
        signals.connect_keys({"themes"}, listener.on_change)
    with pytest.raises(ValueError):
        signals.connect_keys(set(), listener.on_change)


def test_nothing_arrives_after_close(
    signals: SettingsSignals, store: SettingsStore, tasks: TaskRunner, qtbot: QtBot
) -> None:
    listener = Listener()
    signals.connect_keys({"theme"}, listener.on_fields)
    signals.close()
    on_a_thread(lambda: store.update(theme="dark"))
    store.update(theme="light")
    tasks.post(listener.on_marker, "after")  # posted after the changes: arrives after them
    qtbot.waitUntil(lambda: bool(listener.heard), timeout=5000)
    assert listener.heard == [frozenset({"after"})]
    signals.close()  # twice is harmless


def test_a_deleted_listener_is_not_called(
    signals: SettingsSignals, store: SettingsStore, holder: QWidget, qtbot: QtBot
) -> None:
    survivor, gone = Listener(), Listener(holder)
    signals.connect_keys({"theme"}, survivor.on_change)
    key_filter = signals.connect_keys({"theme"}, gone.on_change)
    assert key_filter.parent() is gone  # the connection ends with its receiver
    shiboken6.delete(gone)
    on_a_thread(lambda: store.update(theme="dark"))
    qtbot.waitUntil(lambda: survivor.woken == 1, timeout=5000)
    assert not shiboken6.isValid(key_filter)


def test_a_model_choice_wakes_only_the_listeners_of_its_task(
    signals: SettingsSignals, store: SettingsStore, tmp_path: Path
) -> None:
    # Every task's choice is in the one "models" field: the Voice panel must not wake (and
    # re-announce its missing model) when the chat loads a model.
    voice, chat = Listener(), Listener()
    signals.connect_model_choices((ModelTask.TTS, ModelTask.SPEAKER_ENCODER), voice.on_change)
    signals.connect_model_choices((ModelTask.CHAT,), chat.on_change)

    store.update(models=store.settings.models.with_folder(ModelTask.CHAT, tmp_path))
    assert (voice.woken, chat.woken) == (0, 1)

    store.update(models=store.settings.models.with_folder(ModelTask.SPEAKER_ENCODER, tmp_path))
    store.update(theme="dark")
    assert (voice.woken, chat.woken) == (1, 1)
