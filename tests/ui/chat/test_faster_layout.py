"""The background job that makes a converted GGUF faster: which loads start it, its progress and
Cancel in the status bar, and the sentence it ends with. The job function is replaced by one
that waits on its cancel token (the job itself is tested on the real model in
tests/integration/pipelines/test_gguf_relayout.py)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import ui.chat.faster_layout as faster_layout_module
from app.chat import LayoutDecision, LoadedModel, RelayoutBusyError
from pipelines.core import Cancelled, CancelToken, Progress
from ui.chat.faster_layout import KIND, FasterLayout, LayoutProgress
from ui.shell.main_window import MainWindow
from ui.tasks import TaskRunner

WAIT_MS = 30_000


def _loaded(tmp_path: Path, **changes: object) -> LoadedModel:
    fields: dict[str, object] = {
        "model_path": tmp_path / "SmolLM2-135M-Instruct.Q4_1.gguf",
        "requested_device": "AUTO",
        "device": "CPU",
        "load_ms": 10.0,
        "converted": tmp_path / "converted",
    }
    fields.update(changes)
    return LoadedModel(**fields)  # type: ignore[arg-type]


def _must_not_run(*_args: object) -> None:
    raise AssertionError("started")


@pytest.fixture
def job(qtbot: QtBot) -> Iterator[tuple[FasterLayout, LayoutProgress, TaskRunner]]:
    runner = TaskRunner()
    view = LayoutProgress()
    qtbot.addWidget(view)
    yield FasterLayout(runner, view), view, runner
    assert runner.cancel_all_and_wait()


def test_a_first_gguf_load_on_the_cpu_shows_progress_and_cancel_stops_it_quietly(
    job: tuple[FasterLayout, LayoutProgress, TaskRunner],
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    controller, view, runner = job
    started = threading.Event()

    def waits_for_cancel(
        folder: Path, gguf: Path, cancel: CancelToken, on_progress
    ) -> LayoutDecision:  # type: ignore[no-untyped-def]
        assert folder == tmp_path / "converted" and gguf.name.endswith(".gguf")
        on_progress(Progress("relayout", 30, 100))
        started.set()
        while not cancel.cancelled:
            threading.Event().wait(0.01)
        raise Cancelled()

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", waits_for_cancel)
    said: list[str] = []
    controller.finished.connect(said.append)
    controller.follow(_loaded(tmp_path))
    assert not view.isHidden()
    assert view.label.text() == "Tuning SmolLM2-135M-Instruct.Q4_1 for this computer…"
    qtbot.waitUntil(lambda: view.progress.value() == 30, timeout=WAIT_MS)
    controller.follow(_loaded(tmp_path))  # a second load meanwhile starts no second job
    view.cancel_button.click()
    qtbot.waitUntil(lambda: not runner.running(KIND), timeout=WAIT_MS)
    qtbot.waitUntil(view.isHidden, timeout=WAIT_MS)
    assert said == []


@pytest.mark.parametrize(
    "changes",
    [
        {"converted": None},  # an OpenVINO folder, or a GGUF read without a cache
        {"layout": LayoutDecision("", ())},  # decided before
        {"device": "GPU.0"},
        {"remote_model": "qwen3"},
    ],
)
def test_other_loads_start_nothing(
    job: tuple[FasterLayout, LayoutProgress, TaskRunner],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    changes: dict[str, object],
) -> None:
    controller, view, runner = job

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", _must_not_run)
    controller.follow(_loaded(tmp_path, **changes))
    assert not runner.running(KIND) and view.isHidden()


def test_a_run_that_turned_it_off_starts_nothing(
    job: tuple[FasterLayout, LayoutProgress, TaskRunner],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    controller, view, runner = job

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", _must_not_run)
    controller.enabled = False
    controller.follow(_loaded(tmp_path))
    assert not runner.running(KIND) and view.isHidden()


@pytest.mark.parametrize(
    ("outcome", "sentence"),
    [
        (
            LayoutDecision("body kept, head int8-sym-channel", ()),
            "tuned for this computer from its next load",
        ),
        (LayoutDecision("", ()), "keeps the file's own weight layout"),
        (LayoutDecision("the file's own, read exactly", ()), "reads its weights exactly"),
        (OSError("disk"), None),
    ],
)
def test_the_outcome_is_one_sentence_in_the_status_bar(
    job: tuple[FasterLayout, LayoutProgress, TaskRunner],
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    outcome: object,
    sentence: str | None,
) -> None:
    controller, view, _runner = job

    def ends(*_args: object) -> object:
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", ends)
    with qtbot.waitSignal(controller.finished, timeout=WAIT_MS) as said:
        controller.follow(_loaded(tmp_path))
    text = said.args[0]
    assert (sentence or "disk") in text
    assert view.isHidden()


def test_another_window_doing_it_is_not_reported(
    job: tuple[FasterLayout, LayoutProgress, TaskRunner],
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    controller, view, runner = job

    def busy(*_args: object) -> None:
        raise RelayoutBusyError("Another OV Studio window is making this model faster.")

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", busy)
    said: list[str] = []
    controller.finished.connect(said.append)
    controller.follow(_loaded(tmp_path))
    qtbot.waitUntil(lambda: not runner.running(KIND), timeout=WAIT_MS)
    qtbot.waitUntil(view.isHidden, timeout=WAIT_MS)
    assert said == []


def test_the_window_tunes_a_loaded_gguf_and_says_how_it_ended(
    window: MainWindow, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def decides(*_args: object) -> LayoutDecision:
        return LayoutDecision("the file's own, read exactly", ())

    monkeypatch.setattr(faster_layout_module, "choose_faster_layout", decides)
    window.chat_panel.modelLoaded.emit(_loaded(tmp_path))
    qtbot.waitUntil(
        lambda: "reads its weights exactly" in window.statusBar().currentMessage(),
        timeout=WAIT_MS,
    )
    assert window.layout_progress.isHidden()
