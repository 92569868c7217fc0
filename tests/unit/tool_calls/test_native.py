"""Calls in a model's own format, read with GenAI's tool parsers; a streamed answer held back
only while it may be a call."""

from __future__ import annotations

import pytest

from app.tool_calls.native import HeldText, NativeFormat, native_format, read_calls

NAMES = {"get_weather", "multiply"}
QWEN = "{% if tools %}<tools>{{ tools }}</tools> answer <tool_call>{...}</tool_call>{% endif %}"
LLAMA_32 = "{% if tools %}[func_name1(params_name1=params_value1)]{% endif %}"
TWO_CALLS = (
    '{"name": "multiply", "arguments": {"a": 2}}; '
    '{"name": "get_weather", "arguments": {"city": "X"}}'
)
TAGGED = '<|python_tag|>{"name": "multiply", "parameters": {"a": 2, "b": 3}}'


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{% for m in messages %}{{ m.content }}{% endfor %}", None),
        (QWEN, NativeFormat.TAGGED_JSON),
        ("{% if tools %}<|python_tag|>{{ tools }}{% endif %}", NativeFormat.JSON),
        (LLAMA_32, NativeFormat.PYTHONIC),
    ],
)  # fmt: skip
def test_the_format_is_read_from_the_template(template: str, expected: NativeFormat | None) -> None:
    assert native_format(template) is expected


def test_tagged_calls_are_read_with_the_text_around_them() -> None:
    text = (
        "Let me check.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n'
        '<tool_call>{"name": "multiply", "arguments": {"a": 2, "b": 3}}</tool_call>'
    )
    content, calls = read_calls(text, NativeFormat.TAGGED_JSON, NAMES)
    assert content == "Let me check."
    assert [(c.name, dict(c.arguments)) for c in calls] == [
        ("get_weather", {"city": "Paris"}),
        ("multiply", {"a": 2, "b": 3}),
    ]
    assert len({c.id for c in calls}) == 2 and all(c.id.startswith("call_") for c in calls)


@pytest.mark.parametrize(
    ("text", "form", "called"),
    [
        (TAGGED, NativeFormat.JSON, ["multiply"]),
        (TWO_CALLS, NativeFormat.JSON, ["multiply", "get_weather"]),
        ('{"name": "rm_rf", "arguments": {}}', NativeFormat.JSON, []),  # not offered
        ('{"name": "multiply", "arguments": "{\\"a\\": 2}"}', NativeFormat.JSON, ["multiply"]),
        ("{not json at all", NativeFormat.JSON, []),
        ('[get_weather(city="Paris")]', NativeFormat.PYTHONIC, ["get_weather"]),
        ("<tool_call>{broken</tool_call>", NativeFormat.TAGGED_JSON, []),
        ("Just words.", NativeFormat.TAGGED_JSON, []),
    ],
)  # fmt: skip
def test_only_calls_to_offered_tools_are_calls(
    text: str, form: NativeFormat, called: list[str]
) -> None:
    content, calls = read_calls(text, form, NAMES)
    assert [call.name for call in calls] == called
    if not called:
        assert content == text  # nothing is lost: it is the answer's text


def stream(held: HeldText, text: str, size: int = 3) -> str:
    return "".join(held.feed(text[i : i + size]) for i in range(0, len(text), size))


def test_plain_text_streams_as_it_comes() -> None:
    held = HeldText(NativeFormat.TAGGED_JSON, NAMES)
    shown = stream(held, "The weather is fine <to")
    assert shown == "The weather is fine "  # "<to" may still become "<tool_call>"
    assert held.finish() == ("<to", [])


def test_a_call_is_held_back_and_read_at_the_end() -> None:
    held = HeldText(NativeFormat.TAGGED_JSON, NAMES)
    text = 'Checking. <tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}</tool_call>'
    shown = stream(held, text)
    rest, calls = held.finish()
    assert shown == "Checking. "
    assert rest == ""
    assert [(c.name, dict(c.arguments)) for c in calls] == [("get_weather", {"city": "Oslo"})]


def test_a_bare_json_answer_is_held_whole_and_shown_if_it_is_no_call() -> None:
    held = HeldText(NativeFormat.JSON, NAMES)
    shown = stream(held, ' {"answer": 42}')
    assert shown.strip() == ""
    assert shown + held.finish()[0] == ' {"answer": 42}'
    assert held.finish()[1] == []
