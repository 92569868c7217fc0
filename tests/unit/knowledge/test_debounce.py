"""A key is due once quiet: a burst of touches pushes it back, other keys keep their turn."""

from __future__ import annotations

from app.knowledge.debounce import Debouncer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_is_due_once_after_the_last_touch() -> None:
    clock = Clock()
    pending: Debouncer[str] = Debouncer(1.0, clock)
    for _ in range(200):
        pending.touch("report.docx")
        clock.now += 0.01  # written for two seconds in all
        assert pending.due() == []
    assert pending.wait_s() is not None and 0 < pending.wait_s() <= 1.0  # type: ignore[operator]
    clock.now += 1.0
    assert pending.due() == ["report.docx"]
    assert pending.due() == [] and pending.wait_s() is None


def test_keys_are_due_in_the_order_they_went_quiet_and_can_be_forgotten() -> None:
    clock = Clock()
    pending: Debouncer[str] = Debouncer(1.0, clock)
    pending.touch("a")
    pending.touch("b")
    pending.touch("c")
    pending.touch("a")  # touched again: now the last
    pending.discard(lambda key: key == "c")
    assert pending.pending() == ["b", "a"]
    clock.now += 1.0
    assert pending.due() == ["b", "a"]


def test_keys_touched_by_one_event_fall_due_together() -> None:
    """A move names its old and new path microseconds apart: they are synced in one pass."""
    clock = Clock()
    pending: Debouncer[str] = Debouncer(1.0, clock, together_s=0.2)
    pending.touch("a/old.txt")
    clock.now = 100.0001
    pending.touch("b/old.txt")
    clock.now = 100.5
    pending.touch("growing.log")  # written after: not part of that event
    clock.now = 101.0  # the first is due, the second not quite
    assert pending.due() == ["a/old.txt", "b/old.txt"]
    assert pending.pending() == ["growing.log"]
    clock.now += 1.0
    assert pending.due() == ["growing.log"]


def test_a_key_touched_for_later_is_due_that_much_after_the_quiet_time() -> None:
    clock = Clock()
    pending: Debouncer[str] = Debouncer(1.0, clock)
    pending.touch("gone.txt", later_s=3.0)  # a deleted file's grace period
    pending.touch("new.txt")
    clock.now += 1.0
    assert pending.due() == ["new.txt"]
    assert pending.wait_s() == 3.0
    clock.now += 3.0
    assert pending.due() == ["gone.txt"]
