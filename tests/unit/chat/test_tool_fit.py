"""Tool results fitted into the context: shortened with a note, older turns given up first
for half the room, never a prompt over the limit (a word-counting tokenizer stands in for
the model's: the arithmetic is what is tested here; the real tokenizer is in
tests/integration/chat/test_tool_fit.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import given
from hypothesis import strategies as st

from app.chat.tool_fit import PromptRoom
from app.mcp.calls import ToolCall
from app.tool_calls.prompting import SHORTENED, answer_prompt
from pipelines.generation import Message


class Words:
    """One token per word (and per quote marker): monotone in the text, like a tokenizer."""

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def words(n: int, tag: str = "w") -> str:
    return " ".join(f"{tag}{i}" for i in range(n))


def prompt_for(question: str, calls: list[ToolCall]) -> Callable[[Sequence[str]], str]:
    return lambda shown: answer_prompt(question, calls, shown)


def test_long_result_is_shortened_to_the_limit_and_says_so() -> None:
    room = PromptRoom(Words(), limit=400)
    history = [Message("system", "Be brief."), Message("user", "What is in the file?")]
    calls = [ToolCall("files/read_file", {"name": "long.txt"}, "done", words(20_000))]
    fitted = room.fit(history, prompt_for("What is in the file?", calls), [calls[0].result], 2000)
    assert fitted is not None
    assert room.cost(fitted) <= 400
    assert fitted[0] == history[0]
    assert SHORTENED in fitted[-1].content
    assert "w0" in fitted[-1].content  # the start of the result is what is kept
    assert calls[0].result.count(" ") == 19_999  # the stored result is whole


def test_short_results_stay_whole() -> None:
    room = PromptRoom(Words(), limit=4000)
    calls = [ToolCall("calc/add", {"a": 1, "b": 2}, "done", "3")]
    history = [Message("user", "1+2?")]
    fitted = room.fit(history, prompt_for("1+2?", calls), ["3"], 2000)
    assert fitted is not None
    assert SHORTENED not in fitted[-1].content
    assert fitted[-1].content == answer_prompt("1+2?", calls)


def test_older_turns_give_way_to_half_the_room() -> None:
    turns = [Message("user" if i % 2 == 0 else "assistant", words(60, f"t{i}_")) for i in range(10)]
    history = [*turns, Message("user", "And the file?")]
    calls = [ToolCall("files/read_file", {"name": "x"}, "done", words(5_000))]
    room = PromptRoom(Words(), limit=600)
    fitted = room.fit(history, prompt_for("And the file?", calls), [calls[0].result], 50_000)
    assert fitted is not None
    assert room.cost(fitted) <= 600
    kept = fitted[:-1]
    assert 0 < len(kept) < len(turns)
    assert kept == turns[-len(kept) :]  # the newest turns stay, the oldest go
    result_tokens = Words().count_tokens(fitted[-1].content)
    assert result_tokens >= 600 // 2 - 60  # the results got about half the room


def test_no_room_at_all_gives_none() -> None:
    room = PromptRoom(Words(), limit=20)
    calls = [ToolCall("calc/add", {}, "done", "3")]
    question = words(50)
    assert room.fit([Message("user", question)], prompt_for(question, calls), ["3"], 2000) is None


@given(
    limit=st.integers(min_value=0, max_value=3000),
    turns=st.lists(st.integers(min_value=0, max_value=300), max_size=12),
    results=st.lists(st.integers(min_value=0, max_value=4000), min_size=1, max_size=4),
    system=st.integers(min_value=0, max_value=200),
)
def test_a_fitted_prompt_never_exceeds_the_limit(
    limit: int, turns: Sequence[int], results: Sequence[int], system: int
) -> None:
    history = [Message("system", words(system))] if system else []
    history += [Message("user", words(n)) for n in turns]
    history.append(Message("user", "Q?"))
    calls = [ToolCall("t/x", {}, "done", words(n, "r")) for n in results]
    room = PromptRoom(Words(), limit=limit)
    fitted = room.fit(history, prompt_for("Q?", calls), [c.result for c in calls], 2000)
    if fitted is None:
        return
    assert room.cost(fitted) <= limit
    assert fitted[-1].content.startswith("Q?")
    shortened = fitted[-1].content.count(SHORTENED)
    assert shortened <= len(calls)
    if shortened == 0:
        assert fitted[-1].content == answer_prompt("Q?", calls)
