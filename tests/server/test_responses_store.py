"""The Responses API's store: responses kept by id with the conversation they ended, the
oldest dropped past the count or the size, and an id it does not hold refused as OpenAI does."""

from __future__ import annotations

from typing import Any

import pytest

from app.chat import Message
from app.server.errors import ApiError
from app.server.responses_store import ResponseStore


def response(number: int, text: str = "") -> dict[str, Any]:
    return {"id": f"resp_{number}", "object": "response", "output_text": text}


def test_a_response_is_kept_with_its_conversation() -> None:
    store = ResponseStore()
    history = [Message("user", "Hi"), Message("assistant", "Hello!")]
    store.put(response(1), history)
    stored = store.previous("resp_1")
    assert stored.response == response(1)
    assert stored.history == tuple(history)


def test_past_the_count_the_oldest_response_is_dropped() -> None:
    store = ResponseStore(max_count=3)
    for number in range(5):
        store.put(response(number), [Message("user", "Hi")])
    assert len(store) == 3
    assert store.get("resp_0") is None and store.get("resp_1") is None
    assert store.get("resp_4") is not None


def test_past_the_size_the_oldest_responses_are_dropped_and_the_count_follows() -> None:
    store = ResponseStore(max_chars=10_000)
    for number in range(10):
        store.put(response(number), [Message("user", "a" * 3_000)])
    assert store.chars <= 10_000
    assert [n for n in range(10) if store.get(f"resp_{n}") is not None] == [7, 8, 9]
    store.delete("resp_9")
    assert store.chars == sum(store.previous(f"resp_{n}").chars for n in (7, 8))


def test_a_response_larger_than_the_whole_store_is_not_kept() -> None:
    store = ResponseStore(max_chars=1_000)
    store.put(response(1), [Message("user", "kept")])
    store.put(response(2), [Message("user", "a" * 5_000)])
    assert store.get("resp_2") is None and store.get("resp_1") is not None


def test_a_dropped_response_does_not_break_the_one_that_continued_it() -> None:
    store = ResponseStore(max_count=1)
    first = [Message("user", "My name is Ana."), Message("assistant", "Hello Ana!")]
    store.put(response(1), first)
    store.put(response(2), [*first, Message("user", "Hi"), Message("assistant", "Hi!")])
    assert store.get("resp_1") is None
    assert store.previous("resp_2").history[0] == Message("user", "My name is Ana.")


def test_an_unknown_previous_response_is_a_400_as_openai_answers() -> None:
    with pytest.raises(ApiError) as refused:
        ResponseStore().previous("resp_nope")
    assert refused.value.status == 400
    assert refused.value.code == "previous_response_not_found"
    assert refused.value.param == "previous_response_id"
    assert refused.value.message == "Previous response with id 'resp_nope' not found."


def test_an_unknown_response_to_read_is_a_404_naming_a_bounded_id() -> None:
    with pytest.raises(ApiError) as refused:
        ResponseStore().stored("resp_" + "x" * 10_000)
    assert refused.value.status == 404
    assert len(refused.value.message) < 200
