"""Which older messages go with the next question: kept until the context overflows, then cut
in one block, so the prompts between two cuts begin alike; token counts remembered.

The rule is plain arithmetic over token counts: here a count of words stands for the
tokenizer (the integration tests count with a real one)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from app.chat.history import (
    KEEP_SHARE,
    TEMPLATE_TOKENS_PER_MESSAGE,
    KeptHistory,
    RememberedCounts,
    kept_history,
)
from app.chat.storage import ChatMessage

ROOM = 1000
FRAME = 20 + 2 * TEMPLATE_TOKENS_PER_MESSAGE
"""A system prompt of 20 tokens, with the template's share of it and of the question."""


class Words:
    """Counts words, and how often it was asked."""

    def __init__(self) -> None:
        self.calls = 0

    def count_tokens(self, text: str) -> int:
        self.calls += 1
        return len(text.split())


def words(n: int, tag: str = "w") -> str:
    return " ".join([tag] * n)


def chat(turns: int, question: int = 40, answer: int = 40) -> Iterator[tuple[int, KeptHistory]]:
    """Sends ``turns`` questions one after the other, as the service does: yields the index of
    each turn's question and the history kept with it, then stores the question and its
    answer."""
    counter = Words()
    messages: list[ChatMessage] = []
    for turn in range(turns):
        asked = words(question, f"q{turn}")
        kept = kept_history(messages, counter, ROOM, FRAME, counter.count_tokens(asked))
        yield len(messages), kept
        messages += [ChatMessage("user", asked), ChatMessage("assistant", words(answer))]


def prompt_tokens(kept: KeptHistory, question: int = 40) -> int:
    return FRAME + kept.tokens + question


def test_everything_is_sent_while_it_fits() -> None:
    for _, kept in chat(8):  # 8 turns of 96 tokens: under the room of 1000
        assert kept.first == 0


def test_once_full_the_history_is_cut_in_blocks_and_the_prompts_between_cuts_grow() -> None:
    sent = list(chat(60))
    starts = [kept.first for _, kept in sent]
    cuts = [turn for turn in range(1, len(sent)) if starts[turn] != starts[turn - 1]]
    assert cuts, "60 turns of 96 tokens overflow a room of 1000"
    for turn, (_, kept) in enumerate(sent):
        assert prompt_tokens(kept) <= ROOM  # never more than the room
        assert kept.first % 2 == 0  # the history starts at a question (or is empty)
        if turn in cuts:  # a cut leaves the prompt at most KEEP_SHARE of the room ...
            assert prompt_tokens(kept) <= KEEP_SHARE * ROOM
            assert starts[turn] > starts[turn - 1]
    # ... so the next ones append to the same beginning until the room is full again:
    # (1000 - 600) / 96 tokens a turn = 4 turns between two cuts.
    gaps = [after - before for before, after in itertools.pairwise(cuts)]
    assert gaps and min(gaps) >= int((1 - KEEP_SHARE) * ROOM / 96)


def test_the_latest_turns_are_kept_even_when_one_is_bigger_than_the_share_kept() -> None:
    counter = Words()
    long_turn = [ChatMessage("user", words(300)), ChatMessage("assistant", words(300))]
    messages = [ChatMessage("user", words(200)), ChatMessage("assistant", words(200)), *long_turn]
    kept = kept_history(messages, counter, ROOM, FRAME, 10)
    # Everything is 1032 + 36 + 10 > 1000; the last turn alone (616) is more than 60 % of the
    # room but fits: it is kept rather than nothing.
    assert kept.first == 2
    assert kept.tokens == 2 * (300 + TEMPLATE_TOKENS_PER_MESSAGE)


def test_a_question_too_long_for_any_history_is_sent_alone() -> None:
    messages = [ChatMessage("user", words(50)), ChatMessage("assistant", words(50))]
    kept = kept_history(messages, Words(), ROOM, FRAME, 950)
    assert kept == KeptHistory(first=2, tokens=0)


def test_deleting_older_turns_moves_the_start_with_them() -> None:
    counter = Words()
    messages = [
        ChatMessage(role, words(40, f"q{turn}") if role == "user" else words(40))
        for turn in range(40)
        for role in ("user", "assistant")
    ]
    question = 40
    whole = kept_history(messages, counter, ROOM, FRAME, question)
    # Nothing is stored about where the history started: without its first ten turns the
    # conversation's history is worked out again, still from a question, fitting, newest kept.
    shorter = kept_history(messages[20:], counter, ROOM, FRAME, question)
    assert shorter.first % 2 == 0 and FRAME + shorter.tokens + question <= ROOM
    assert messages[20:][shorter.first :][-2:] == messages[-2:]
    assert whole.first % 2 == 0 and FRAME + whole.tokens + question <= ROOM


def test_each_text_is_counted_once() -> None:
    words_counter = Words()
    remembered = RememberedCounts(words_counter, capacity=3)
    assert remembered.count_tokens("a b") == 2
    assert remembered.count_tokens("a b") == 2
    assert words_counter.calls == 1
    for text in ("c", "d", "e"):  # the oldest ("a b") makes room for these
        remembered.count_tokens(text)
    assert remembered.count_tokens("a b") == 2
    assert words_counter.calls == 5


def test_a_long_conversation_counts_only_its_new_messages() -> None:
    counter = Words()
    remembered = RememberedCounts(counter)
    messages: list[ChatMessage] = []
    calls: list[int] = []
    for turn in range(100):
        before = counter.calls
        asked = words(40, f"q{turn}")
        kept_history(messages, remembered, ROOM, FRAME, remembered.count_tokens(asked))
        calls.append(counter.calls - before)
        messages += [ChatMessage("user", asked), ChatMessage("assistant", words(40, f"a{turn}"))]
    # The new question, and the previous answer: never the whole conversation again.
    assert max(calls[1:]) <= 2
