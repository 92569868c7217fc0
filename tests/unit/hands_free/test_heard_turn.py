"""A spoken turn's fate: held until confirmed, dropped silently, kept once heard or saved."""

from __future__ import annotations

import threading

import numpy as np

from app.hands_free.heard_turn import HeardTurn


class Answer:
    """What the turn sees of a spoken answer."""

    def __init__(self) -> None:
        self.released = self.interrupted = self.heard = False

    def release(self) -> None:
        self.released = True

    def interrupt(self) -> None:
        self.interrupted = True


def speculative() -> HeardTurn:
    return HeardTurn(np.zeros(160, np.float32), 0.0, confirmed=False)


def test_what_a_speculative_turn_shows_waits_for_its_confirmation_in_order() -> None:
    turn, shown, answer = speculative(), [], Answer()
    turn.show(lambda: shown.append("transcribing"))
    turn.attach(answer)
    turn.show(lambda: shown.append("question"))
    assert shown == [] and not answer.released
    turn.confirm()
    turn.show(lambda: shown.append("text"))
    assert shown == ["transcribing", "question", "text"]
    assert answer.released and turn.keep()


def test_a_dropped_turn_shows_nothing_is_not_kept_and_stops_its_answer() -> None:
    turn, shown, answer = speculative(), [], Answer()
    turn.show(lambda: shown.append("question"))
    turn.attach(answer)
    keeping: list[bool] = []
    waiting = threading.Thread(target=lambda: keeping.append(turn.keep()))
    waiting.start()  # the chat waits for the turn's fate before saving
    assert turn.drop()
    waiting.join(timeout=5)
    turn.confirm()  # too late: dropped
    assert keeping == [False] and shown == []
    assert answer.interrupted and turn.cancel.cancelled


def test_a_confirmed_turn_can_be_dropped_until_its_answer_is_heard_or_kept() -> None:
    turn, answer = HeardTurn(np.zeros(0, np.float32), 0.0, confirmed=True), Answer()
    turn.attach(answer)
    assert answer.released
    answer.heard = True
    assert not turn.drop() and not turn.cancel.cancelled  # a barge-in now
    kept = HeardTurn(np.zeros(0, np.float32), 0.0, confirmed=True)
    assert kept.keep() and not kept.drop()
    turn.interrupt()  # barge-in: stopped, but what was said is kept
    assert turn.cancel.cancelled and answer.interrupted and turn.keep()


def test_stopping_a_speculative_turn_drops_it() -> None:
    turn = speculative()
    turn.interrupt()
    assert turn.cancel.cancelled and not turn.keep()
