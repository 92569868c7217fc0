"""Loops an answer falls into, told from repetition a sound answer has (pipelines.repetition)."""

from __future__ import annotations

import pytest

from pipelines.repetition import GLUED_UNIT_REPEATS, LOOP_CHARACTERS, LoopWatch, loop_length

ESSAY = (
    "The internet is a network of networks. Computers send data in packets, and routers pass "
    "each packet on towards its address. A computer asks a name server for the address of a "
    "name, then opens a connection to it; the web, e-mail and video calls all ride on that. "
)


def streamed(text: str, piece: int = 5) -> LoopWatch:
    watch = LoopWatch()
    for start in range(0, len(text), piece):
        watch.feed(text[start : start + piece])
    return watch


@pytest.mark.parametrize(
    "loop",
    [
        "s" + "computer" * 60,  # the glued loop seen from SmolLM2 at the app's defaults
        "\n" * 300,  # blank lines until the limit
        "She's a mystifying sight, the sea at night. " * 8,  # a sentence said again and again
        "1, 1, 1, " * 40,
    ],
)
def test_a_loop_at_the_end_of_an_answer_is_found(loop: str) -> None:
    assert loop_length(ESSAY + loop) >= LOOP_CHARACTERS
    assert streamed(ESSAY + loop).looped


@pytest.mark.parametrize("unit", ["Au", "z", "ing", "Aa1."])
def test_a_few_letters_glued_to_themselves_are_a_loop_long_before_other_loops(unit: str) -> None:
    # "…AuAuAuAu…" (seen from SmolLM2 at the app's defaults) made a 200-letter "word" before
    # the loop's length was reached: a glued unit is a loop at GLUED_UNIT_REPEATS times.
    loop = unit * GLUED_UNIT_REPEATS
    assert loop_length(ESSAY + loop) == len(loop)
    assert loop_length(ESSAY + loop[len(unit) :]) == 0  # one time fewer
    assert streamed(ESSAY + loop * 2).looped


@pytest.mark.parametrize(
    "sound",
    [
        ESSAY * 3,  # long, but no unit repeated at its end
        ESSAY + "-" * 80 + "\n",  # a ruled line
        ESSAY + "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n",  # a table
        ESSAY + "ha ha ha ha ha ha!",
        ESSAY + 'print("hello")\n' * 5,  # the same short line a few times
        ESSAY + "Row, row, row your boat. " * 3,  # a refrain, three times
        "computer" * 24,  # 192 characters: not yet a loop
        ESSAY + "Hahahahahaha! " + "Zzzzzzzzz.",  # laughter and sleep, a few times each
        ESSAY + "=" * 60 + "\n" + "*" * 40,  # rows of signs (no letter)
        ESSAY + "0101" * 20,  # digits (a bit pattern)
        ESSAY + "ab ab ab ab ab ab ab ab ab ab ab ab ab",  # spaced: words, not glue
    ],
)
def test_repetition_a_sound_answer_has_is_no_loop(sound: str) -> None:
    assert loop_length(sound) == 0
    assert not streamed(sound).looped


def test_a_loop_is_found_within_a_few_characters_of_reaching_its_length() -> None:
    watch = LoopWatch()
    text = ESSAY
    for piece in ["computer"] * 60:
        text += piece
        if watch.feed(piece):
            break
    looping = len(text) - len(ESSAY)
    assert LOOP_CHARACTERS <= looping <= LOOP_CHARACTERS + 16 + len("computer")


def test_a_loop_the_answer_leaves_was_one_and_stays_found() -> None:
    # Once an answer is ended for a loop it is not resumed: the watch keeps saying so.
    watch = streamed("computer" * 30)
    assert watch.looped
    assert watch.feed(" and then a new sentence.")


def test_only_the_answer_s_end_is_watched() -> None:
    # A loop long past (the watch only reads the end) and then sound text: no loop.
    assert loop_length("computer" * 30 + ESSAY * 5) == 0
