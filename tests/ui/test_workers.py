"""The thread bridge: batching, generator workers, cancel-and-wait, where errors are shown."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

import pytest
from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.errors import UserError
from pipelines.core import CancelToken, DeviceError, InvalidInputError, ModelLoadError
from tests.ui.fakes import Script
from ui.inline_error import InlineError
from ui.notifications import NotificationBar
from ui.workers import ChunkBuffer, ErrorRouter, WorkerRegistry


class Recorder(QObject):
    """A GUI-thread receiver with slots, as real widgets are."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.values: list[object] = []
        self.errors: list[BaseException] = []

    @Slot(str)
    def on_text(self, text: str) -> None:
        self.texts.append(text)

    @Slot(object)
    def on_value(self, value: object) -> None:
        self.values.append(value)

    @Slot(object)
    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)


@pytest.fixture
def registry(qtbot: QtBot) -> Iterator[WorkerRegistry]:
    holder = QWidget()
    qtbot.addWidget(holder)
    registry = WorkerRegistry(holder)
    yield registry
    registry.cancel_all_and_wait(5000)


def stream_many(sink_append: Callable[[str], None], count: int) -> int:
    for index in range(count):
        sink_append(f"{index},")
    return count


def test_streamed_text_arrives_in_batches(qtbot: QtBot, registry: WorkerRegistry) -> None:
    buffer = ChunkBuffer()
    recorder = Recorder()
    buffer.textReady.connect(recorder.on_text)
    buffer.start()
    registry.start(stream_many, buffer.sink.append, 5000, on_returned=recorder.on_value)
    qtbot.waitUntil(lambda: recorder.values == [5000], timeout=5000)
    buffer.stop()
    assert "".join(recorder.texts) == "".join(f"{i}," for i in range(5000))
    assert len(recorder.texts) < 50  # 5000 chunks, a handful of GUI updates


def count_to(limit: int) -> Generator[int, None, str]:
    yield from range(limit)
    return "done"


def test_generator_worker_yields_and_returns(qtbot: QtBot, registry: WorkerRegistry) -> None:
    recorder = Recorder()
    registry.start_generator(
        count_to, 3, on_yielded=recorder.on_value, on_returned=recorder.on_value
    )
    qtbot.waitUntil(lambda: recorder.values == [0, 1, 2, "done"], timeout=5000)
    qtbot.waitUntil(lambda: not registry.busy, timeout=5000)


def fail_like_openvino() -> Generator[int, None, None]:
    yield 1
    raise RuntimeError("Exception from src/plugin.cpp:42:\nout of device memory")


def test_a_runtime_error_in_a_generator_reaches_errored(
    qtbot: QtBot, registry: WorkerRegistry
) -> None:
    recorder = Recorder()
    registry.start_generator(fail_like_openvino, on_errored=recorder.on_error)
    qtbot.waitUntil(lambda: bool(recorder.errors), timeout=5000)
    [error] = recorder.errors
    assert isinstance(error, RuntimeError)  # unwrapped: callers see what was raised
    assert "out of device memory" in str(error)
    qtbot.waitUntil(lambda: not registry.busy, timeout=5000)


def wait_for_cancel(cancel: CancelToken, script: Script) -> str:
    while not script.release.wait(0.01):
        if cancel.cancelled:
            return "cancelled"
    return "released"


def test_cancel_all_and_wait_stops_a_blocking_job(
    qtbot: QtBot, registry: WorkerRegistry, script: Script
) -> None:
    recorder = Recorder()
    cancel = CancelToken()
    registry.start(wait_for_cancel, cancel, script, cancel=cancel, on_returned=recorder.on_value)
    qtbot.waitUntil(lambda: registry.active_threads == 1, timeout=5000)
    assert registry.cancel_all_and_wait(5000)
    assert cancel.cancelled
    assert registry.active_threads == 0
    qtbot.waitUntil(lambda: recorder.values == ["cancelled"], timeout=5000)


@pytest.fixture
def router(
    qtbot: QtBot,
) -> Iterator[tuple[ErrorRouter, InlineError, InlineError, NotificationBar]]:
    holder = QWidget()  # held here until the test ends: its children die with it
    qtbot.addWidget(holder)
    prompt, model, bar = InlineError(holder), InlineError(holder), NotificationBar(holder)
    holder.show()
    yield ErrorRouter(bar, {"prompt": prompt, "model": model}), prompt, model, bar


def test_errors_go_next_to_their_control(
    router: tuple[ErrorRouter, InlineError, InlineError, NotificationBar],
) -> None:
    errors, prompt, model, bar = router
    errors.show(UserError("Choose a chat model first.", field="model"), default_field="prompt")
    assert model.isVisible() and model.text() == "Choose a chat model first."
    assert not prompt.isVisible()
    errors.show(InvalidInputError("Type a message first.", field="prompt"), default_field="model")
    assert prompt.text() == "Type a message first."
    errors.show(UserError("No field here."), default_field="prompt")
    assert prompt.text() == "No field here."  # no field: the caller's control
    assert not bar.isVisible()


@pytest.mark.logs_error("KeyError: 'config'")  # the bug this test plants
def test_device_and_unknown_errors_become_notifications(
    router: tuple[ErrorRouter, InlineError, InlineError, NotificationBar],
) -> None:
    errors, _, _, bar = router
    used: list[str] = []
    failure = DeviceError("Could not compile the model on NPU: no shapes", device="NPU")
    errors.show(failure, default_field="model", use_cpu=lambda: used.append("cpu"))
    assert bar.isVisible() and bar.action_button.text() == "Use CPU instead"
    bar.action_button.click()
    assert used == ["cpu"] and not bar.isVisible()

    errors.show(DeviceError("Generation failed on CPU", device="CPU"), default_field="model")
    assert not bar.action_button.isVisible()  # already on the CPU: nothing to offer

    errors.show(ModelLoadError("Could not load x: bad IR"), default_field="model")
    assert bar.message.text() == "Could not load x: bad IR"

    try:
        raise KeyError("config")
    except KeyError as error:
        errors.show(error, default_field="model")
    assert bar.message.text().startswith("Something went wrong (KeyError")
    assert "Traceback" not in bar.message.text()
    assert bar.copy_button.isVisible() and "Traceback" in bar.details
