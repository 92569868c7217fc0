"""The services' shared model slot and busy lock, with real threads."""

from __future__ import annotations

import threading

import pytest

from app.core.errors import BusyError
from app.engines.slots import BusyLock, ModelSlot


class Model:
    """Something loaded: tells loads apart by identity."""

    def __init__(self, key: tuple[str, str]) -> None:
        self.key = key


def test_same_key_reuses_and_a_switch_reloads() -> None:
    slot: ModelSlot[Model] = ModelSlot()
    loads: list[tuple[str, str]] = []

    def load(key: tuple[str, str]) -> Model:
        loads.append(key)
        return Model(key)

    first = slot.get(("tts", "CPU"), lambda: load(("tts", "CPU")))
    assert slot.get(("tts", "CPU"), lambda: load(("tts", "CPU"))) is first
    on_gpu = slot.get(("tts", "GPU"), lambda: load(("tts", "GPU")))  # device switched
    other = slot.get(("other", "GPU"), lambda: load(("other", "GPU")))  # folder switched
    assert on_gpu is not first and other is not on_gpu
    assert loads == [("tts", "CPU"), ("tts", "GPU"), ("other", "GPU")]
    assert slot.model is other and slot.key == ("other", "GPU")
    back = slot.get(("tts", "CPU"), lambda: load(("tts", "CPU")))
    assert back is not first  # one model at a time: the first was dropped on the switch


def test_a_failed_load_leaves_the_slot_empty_and_the_next_call_retries() -> None:
    slot: ModelSlot[Model] = ModelSlot()
    slot.get("a", lambda: Model(("a", "CPU")))

    def broken() -> Model:
        assert slot.model is None  # the old model is dropped before the new one loads
        raise RuntimeError("cannot compile")

    with pytest.raises(RuntimeError, match="cannot compile"):
        slot.get("b", broken)
    assert slot.model is None and slot.key is None
    assert slot.get("b", lambda: Model(("b", "CPU"))).key == ("b", "CPU")


def test_replace_keeps_the_callers_model_and_clear_drops_it() -> None:
    slot: ModelSlot[Model] = ModelSlot()
    model = Model(("chat", "CPU"))
    slot.replace(("chat", "CPU"), model)
    assert slot.get(("chat", "CPU"), lambda: Model(("never", "loaded"))) is model
    slot.clear()
    assert slot.model is None


def test_threads_asking_at_once_load_one_model() -> None:
    slot: ModelSlot[Model] = ModelSlot()
    loading, release = threading.Event(), threading.Event()
    loads = 0

    def slow_load() -> Model:
        nonlocal loads
        loads += 1
        loading.set()
        release.wait(10)
        return Model(("tts", "CPU"))

    results: list[Model] = []
    threads = [
        threading.Thread(target=lambda: results.append(slot.get("k", slow_load))) for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    assert loading.wait(10)
    release.set()
    for thread in threads:
        thread.join(10)
    assert loads == 1
    assert len(results) == 4 and all(result is results[0] for result in results)


def test_a_second_job_while_busy_is_refused_with_the_sentence() -> None:
    lock = BusyLock()
    holding, release = threading.Event(), threading.Event()

    def job() -> None:
        with lock.hold("first"):
            holding.set()
            release.wait(10)

    worker = threading.Thread(target=job)
    worker.start()
    try:
        assert holding.wait(10)
        assert lock.busy
        sentence = "A video is being made; wait for it or stop it first."
        with pytest.raises(BusyError) as caught, lock.hold(sentence, field="x"):
            pytest.fail("a second job ran")
        assert str(caught.value) == "A video is being made; wait for it or stop it first."
        assert caught.value.field == "x"
    finally:
        release.set()
        worker.join(10)
    assert not lock.busy
    with lock.hold("free again"):
        assert lock.busy


def test_a_failing_job_releases_the_lock() -> None:
    lock = BusyLock()
    with pytest.raises(ValueError), lock.hold("busy"):
        raise ValueError("job failed")
    assert not lock.busy


def test_wait_runs_after_the_job_instead_of_refusing() -> None:
    lock = BusyLock()
    order: list[str] = []
    holding, release = threading.Event(), threading.Event()

    def job() -> None:
        with lock.hold("busy"):
            holding.set()
            release.wait(10)
            order.append("job")

    worker = threading.Thread(target=job)
    worker.start()
    assert holding.wait(10)
    waiter = threading.Thread(target=lambda: _waited(lock, order))
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive() and order == []  # waiting for the job, not refused
    release.set()
    worker.join(10)
    waiter.join(10)
    assert order == ["job", "waited"]


def _waited(lock: BusyLock, order: list[str]) -> None:
    with lock.wait():
        order.append("waited")
