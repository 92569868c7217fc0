"""Where errors are shown: next to their control, or as a notification for device and unknown
errors."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.errors import UserError
from pipelines.core import DeviceError, InvalidInputError, PipelineError
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.widgets.inline_error import InlineError


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

    errors.show(PipelineError("The database stopped answering."), default_field="model")
    assert bar.message.text() == "The database stopped answering."

    try:
        raise KeyError("config")
    except KeyError as error:
        errors.show(error, default_field="model")
    assert bar.message.text().startswith("Something went wrong (KeyError")
    assert "Traceback" not in bar.message.text()
    assert bar.copy_button.isVisible() and "Traceback" in bar.details
