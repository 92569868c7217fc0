"""The JSON schema → compact EBNF conversion, keyword by keyword, read back with the test
matcher (what each grammar accepts and refuses); GenAI's constrained decoder (xgrammar) takes
every grammar it writes; and, as a property, every value valid under a drawn schema is accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.generation import GenerationSettings, generation_config
from pipelines.json_grammar import (
    ANY_DEPTH,
    MAX_GRAMMAR_CHARS,
    MAX_ITEMS,
    json_grammar,
    structured_output_config,
)
from pipelines.json_grammar_ebnf import MAX_LENGTH_IN_GRAMMAR, compact
from pipelines.json_grammar_numbers import LARGEST_UNBOUNDED, integer_range
from tests.unit.pipelines.json_grammar_matcher import Grammar


def grammar(schema: Any) -> Grammar:
    text = json_grammar(json.dumps(schema), free_values=True)
    assert text is not None, schema
    return Grammar.parse(text)


OBJECT = {
    "type": "object",
    "properties": {
        "a": {"type": "integer"},
        "b": {"type": "string", "maxLength": 3},
        "c": {"type": "boolean"},
    },
    "required": ["b"],
}
TREE = {
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "v": {"type": "integer", "minimum": 0, "maximum": 9},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2},
            },
            "required": ["v"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/node",
}

CASES: list[tuple[Any, list[str], list[str]]] = [
    ({"type": "string"}, ['""', '"a b"', '"\\"\\\\\\n\\u00e9"', '"é😀"'], ['"a\nb"', "'a'", "1"]),
    ({"type": "string", "minLength": 2, "maxLength": 3}, ['"ab"', '"a\\nb"'], ['"a"', '"abcd"']),
    ({"type": "integer"}, ["0", "-7", "123"], ["-0", "01", "1.5", "1e3", '"1"']),
    ({"type": "integer", "minimum": -3, "maximum": 12}, ["-3", "0", "12"], ["-4", "13", "-0"]),
    (
        {"type": "integer", "exclusiveMinimum": 1.5, "exclusiveMaximum": 5},
        ["2", "4"],
        ["1", "5"],
    ),
    ({"type": "number"}, ["0", "-1.25", "3e+10", "1E-5"], ["01", ".5", "1.", "+1", "NaN"]),
    ({"type": "boolean"}, ["true", "false"], ["1", '"true"']),
    ({"type": "null"}, ["null"], ["None", ""]),
    ({"type": ["integer", "null"]}, ["1", "null"], ['"1"']),
    (
        {"enum": ['a"b', 1, None, {"x": [1, 2]}]},
        ['"a\\"b"', "1", "null", '{"x":[1,2]}'],
        ['"ab"', "2", '{"x": [1, 2]}'],
    ),
    ({"type": "string", "enum": ["a", 1]}, ['"a"'], ["1"]),
    ({"const": "é"}, ['"é"'], ['"e"', '"\\u00e9"']),
    ({"type": "array", "items": {"type": "boolean"}}, ["[]", "[true,false]"], ["[true, false]"]),
    (
        {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2},
        ["[1]", "[1,2]"],
        ["[]", "[1,2,3]", "[1,]"],
    ),
    ({"type": "array", "items": False}, ["[]"], ["[1]"]),
    (
        OBJECT,
        ['{"b":""}', '{"a":1,"b":"x"}', '{"a":1,"b":"x","c":true}', '{"b":"x","c":false}'],
        ["{}", '{"a":1}', '{"b":"x","a":1}', '{"b":"x","d":1}', '{"b": "x"}', '{"a":1,,"b":""}'],
    ),
    (
        {"type": "object", "properties": {"a": {"type": "integer"}}},
        ["{}", '{"a":1}'],
        ['{"b":1}', '{"a":1,"b":2}', '{,"a":1}'],
    ),
    (
        {"type": "object", "properties": {"a": {}}, "additionalProperties": True},
        ['{"a":[1,{"x":null}]}'],
        ['{"z":1}'],  # named properties only, even when extra ones are allowed
    ),
    ({"type": "object", "required": ["k"]}, ['{"k":[]}'], ["{}"]),
    (
        {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 2},
        ["{}", '{"x":1,"y":2}'],
        ['{"x":"1"}', '{"x":1,"y":2,"z":3}'],
    ),
    ({"type": "object", "additionalProperties": False}, ["{}"], ['{"a":1}']),
    ({"type": "object"}, ["{}", '{"a":[1,"b",{"c":null}]}'], ["[]", '{"a" :1}']),
    (
        {"anyOf": [{"type": "integer"}, {"type": "string", "maxLength": 1}]},
        ["1", '"x"'],
        ['"xy"', "true"],
    ),
    ({"oneOf": [{"const": 1}, {"const": 2}]}, ["1", "2"], ["3"]),
    ({"allOf": [{"type": "boolean"}], "description": "yes or no"}, ["true"], ["1"]),
    (
        TREE,
        ['{"v":1}', '{"v":1,"kids":[{"v":2,"kids":[]},{"v":3}]}'],
        ['{"v":10}', '{"kids":[]}', '{"v":1,"kids":[{"v":1},{"v":2},{"v":3}]}'],
    ),
    (
        {"definitions": {"x": {"type": "null"}}, "items": {"$ref": "#/definitions/x"}},
        ["[null]"],
        [],
    ),
    ({}, ['{"a":[true,null,-1.5]}', '"x"', "1"], ['{"a": 1}', "[1, 2]"]),
    (True, ["[]", "{}", "null"], ["[ ]", "nul"]),
    ({"properties": {"a": {"const": 1}}}, ['{"a":1}', "{}"], ["1"]),  # no type: an object
]


@pytest.mark.parametrize(("schema", "good", "bad"), CASES, ids=[str(c[0])[:50] for c in CASES])
def test_each_keyword_allows_only_compact_json_that_follows_it(
    schema: Any, good: list[str], bad: list[str]
) -> None:
    parsed = grammar(schema)
    for text in good:
        assert parsed.accepts(text), text
    for text in bad:
        assert not parsed.accepts(text), text


def test_white_space_is_never_allowed() -> None:
    parsed = grammar(OBJECT)
    value = {"a": 1, "b": "x", "c": True}
    assert parsed.accepts(compact(value))
    for spaced in (json.dumps(value), json.dumps(value, indent=1), " " + compact(value)):
        assert not parsed.accepts(spaced)


def test_string_lengths_are_kept_up_to_what_matches_fast() -> None:
    # Past MAX_LENGTH_IN_GRAMMAR a bound made each token of a string cost seconds: it is left
    # to the check of the whole answer, and a string without one is open.
    assert grammar({"type": "string"}).accepts(compact("x" * 5_000))
    kept = grammar({"type": "string", "minLength": 2, "maxLength": MAX_LENGTH_IN_GRAMMAR})
    assert kept.accepts(compact("x" * MAX_LENGTH_IN_GRAMMAR))
    assert not kept.accepts(compact("x" * (MAX_LENGTH_IN_GRAMMAR + 1)))
    assert not kept.accepts(compact("x"))
    longer = grammar({"type": "string", "minLength": 3, "maxLength": MAX_LENGTH_IN_GRAMMAR + 1})
    assert longer.accepts(compact("x" * 1_000)) and not longer.accepts(compact("xy"))
    assert grammar({"type": "string", "minLength": 500}).accepts(compact("x"))
    text = json_grammar(json.dumps({"type": "string", "maxLength": 2_000}))
    assert text is not None and "{0,2000}" not in text


def test_arrays_and_nesting_are_capped() -> None:
    array = grammar({"type": "array", "items": {"type": "integer"}})
    assert array.accepts(compact([0] * MAX_ITEMS))
    assert not array.accepts(compact([0] * (MAX_ITEMS + 1)))
    free = grammar({})
    assert free.accepts("[" * ANY_DEPTH + "]" * ANY_DEPTH)
    assert not free.accepts("[" * (ANY_DEPTH + 1) + "]" * (ANY_DEPTH + 1))
    number = grammar({"type": "integer"})
    assert number.accepts(str(LARGEST_UNBOUNDED))
    assert not number.accepts(str(LARGEST_UNBOUNDED * 10))


def test_nested_arrays_grow_the_grammar_by_one_rule_a_level() -> None:
    """Each level names its items once: copies doubled the grammar at every level, and
    xgrammar's compile with it (8 levels: 40 s and 822 MB on SmolLM2-135M)."""

    def nested(levels: int) -> str:
        schema: dict[str, Any] = {"type": "boolean"}
        for _ in range(levels):
            schema = {"type": "array", "items": schema, "maxItems": 3}
        text = json_grammar(json.dumps(schema))
        assert text is not None
        return text

    step = len(nested(11)) - len(nested(10))
    assert len(nested(20)) - len(nested(19)) == step < 100
    three = Grammar.parse(nested(3))
    assert three.accepts("[[[true],[]],[[false,true]]]")
    assert not three.accepts("[[[true,true,true,true]]]")


def test_a_grammar_past_its_size_limit_is_left_to_genai() -> None:
    names = [f"property_{i}" for i in range(60_000)]  # about 30 characters of rules each
    schema: dict[str, Any] = {"type": "object"}
    schema["properties"] = {name: {"type": "integer"} for name in names}
    schema["required"] = names
    assert json_grammar(json.dumps(schema)) is None
    assert json_grammar(json.dumps({**schema, "required": names[:100]})) is None
    assert len(names) * 30 > MAX_GRAMMAR_CHARS


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^a+$"},
        {"type": "string", "format": "date"},
        {"not": {"type": "null"}},
        {"if": {"type": "string"}, "then": {"maxLength": 2}},
        {"type": "object", "patternProperties": {"^x": {"type": "integer"}}},
        {"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}},
        {"type": "array", "uniqueItems": True},
        {"type": "array", "prefixItems": [{"type": "integer"}]},
        {"type": "number", "minimum": 0.5},
        {"type": "integer", "multipleOf": 3},
        {"$defs": {"a": {"type": "integer"}}, "$ref": "#/$defs/a", "minimum": 1},
        {"allOf": [{"type": "integer"}, {"minimum": 1}]},
        {"type": "object", "properties": {"a": {}}, "minProperties": 1},
        {"type": "string", "minLength": 10**6},
        # Schemas GenAI refuses (the app's check refuses them first): its refusal is kept.
        {"type": "array", "items": False, "minItems": 1},
        {"type": "integer", "minimum": -(10**30)},
        {"type": "object", "properties": {"a": False}},
    ],
)
def test_what_is_not_converted_keeps_genai_json_schema(schema: dict[str, Any]) -> None:
    text = json.dumps(schema)
    assert json_grammar(text) is None
    config = structured_output_config(text)
    assert config.json_schema == text
    assert not config.grammar


def test_a_converted_schema_is_sent_as_a_grammar() -> None:
    text = json.dumps(OBJECT)
    config = structured_output_config(text)
    assert config.grammar == json_grammar(text)
    assert not config.json_schema


@pytest.mark.parametrize("schema", [{}, True, {"type": "object"}, {"items": {}}])
def test_free_values_keep_genai_json_schema_unless_asked(schema: Any) -> None:
    text = json.dumps(schema)
    assert json_grammar(text) is None
    assert structured_output_config(text).json_schema == text
    assert json_grammar(text, free_values=True)


def test_an_empty_integer_range_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        integer_range(5, 4)
    assert json_grammar(json.dumps({"type": "integer", "minimum": 5, "maximum": 4})) is None


SMALL = [
    {"type": "object", "properties": {"ok": {"type": "boolean"}, "n": {"enum": [1, "two"]}}},
    {"type": "array", "items": {"type": "integer", "minimum": -3, "maximum": 40}, "maxItems": 3},
    {"anyOf": [{"type": "null"}, {"type": "string", "maxLength": 2}]},
    {
        "$defs": {
            "t": {
                "type": "object",
                "properties": {
                    "v": {"type": "boolean"},
                    "k": {"type": "array", "items": {"$ref": "#/$defs/t"}, "maxItems": 1},
                },
                "required": ["v"],
                "additionalProperties": False,
            }
        },
        "$ref": "#/$defs/t",
    },
]


@pytest.fixture(scope="module")
def tiny_llm(chat_model_dir: Path) -> Any:
    import openvino_genai as ov_genai

    return ov_genai.LLMPipeline(str(chat_model_dir), "CPU")


@pytest.mark.integration
@pytest.mark.parametrize("schema", [case[0] for case in CASES], ids=[str(c[0])[:50] for c in CASES])
def test_genai_compiles_every_grammar(tiny_llm: Any, schema: Any) -> None:
    import openvino_genai as ov_genai

    config = generation_config(GenerationSettings(max_new_tokens=3, temperature=0.0))
    grammar = json_grammar(json.dumps(schema), free_values=True)
    config.structured_output_config = ov_genai.StructuredOutputConfig(grammar=grammar)
    # Raises when xgrammar cannot read the grammar; three tokens are enough to prove it can.
    tiny_llm.generate("Answer in JSON.", config)


@pytest.mark.integration
def test_genai_raises_on_a_grammar_it_cannot_read(tiny_llm: Any) -> None:
    import openvino_genai as ov_genai

    config = generation_config(GenerationSettings(max_new_tokens=3, temperature=0.0))
    config.structured_output_config = ov_genai.StructuredOutputConfig(grammar='root ::= "a" (')
    with pytest.raises(RuntimeError):
        tiny_llm.generate("Answer in JSON.", config)


@pytest.mark.integration
@pytest.mark.parametrize("schema", SMALL, ids=[str(s)[:40] for s in SMALL])
def test_sampled_answers_are_compact_and_follow_the_schema(tiny_llm: Any, schema: Any) -> None:
    finished = 0
    for seed in range(12):
        settings = GenerationSettings(
            max_new_tokens=60, temperature=1.0, seed=seed, json_schema=json.dumps(schema)
        )
        config = generation_config(settings)
        assert config.structured_output_config.grammar  # the compact grammar, not json_schema
        result = tiny_llm.generate("Answer in JSON.", config)
        text = str(result)
        try:
            value = json.loads(text)
        except ValueError:
            continue  # cut at the length limit: only finished answers are judged
        finished += 1
        jsonschema.validate(value, schema)
        assert text == compact(value), text
    # A random model under these small grammars finishes most answers: not a vacuous check.
    assert finished >= 6, finished


Pair = tuple[Any, Any]
"""A schema and a value valid under it."""


NAMES = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)


ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**15), 10**15)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def strings(draw: st.DrawFn) -> Pair:
    low = draw(st.integers(0, 5))
    high = draw(st.integers(low, 12))
    return {"type": "string", "minLength": low, "maxLength": high}, draw(
        st.text(min_size=low, max_size=high)
    )


@st.composite
def integers(draw: st.DrawFn) -> Pair:
    low = draw(st.none() | st.integers(-(10**6), 10**6))
    high = draw(st.none() | st.integers(low if low is not None else -(10**6), 2 * 10**6))
    schema: dict[str, Any] = {"type": "integer"}
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    value = draw(
        st.integers(low if low is not None else -(10**9), high if high is not None else 10**9)
    )
    return schema, value


def scalars() -> st.SearchStrategy[Pair]:
    return st.one_of(
        strings(),
        integers(),
        st.tuples(st.just({"type": "number"}), st.floats(allow_nan=False, allow_infinity=False)),
        st.tuples(st.just({"type": "boolean"}), st.booleans()),
        st.tuples(st.just({"type": "null"}), st.none()),
        st.lists(ANY_JSON, min_size=1, max_size=4).flatmap(
            lambda values: st.tuples(st.just({"enum": values}), st.sampled_from(values))
        ),
        ANY_JSON.map(lambda value: ({"const": value}, value)),
        ANY_JSON.map(lambda value: ({}, value)),
    )


def arrays(items: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
    @st.composite
    def build(draw: st.DrawFn) -> Pair:
        schema, first = draw(items)
        low = draw(st.integers(0, 2))
        high = draw(st.integers(max(low, 1), 4))
        values = draw(st.lists(st.just(first), min_size=low, max_size=high))
        return {"type": "array", "items": schema, "minItems": low, "maxItems": high}, values

    return build()


def objects(values: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
    @st.composite
    def build(draw: st.DrawFn) -> Pair:
        names = draw(st.lists(NAMES, min_size=1, max_size=4, unique=True))
        pairs = [draw(values) for _ in names]
        required = [name for name in names if draw(st.booleans())]
        present = {
            name: value
            for name, (_, value) in zip(names, pairs, strict=True)
            if name in required or draw(st.booleans())
        }
        schema = {
            "type": "object",
            "properties": {name: pair[0] for name, pair in zip(names, pairs, strict=True)},
            "required": required,
        }
        if draw(st.booleans()):
            schema["additionalProperties"] = False
        return schema, present

    return build()


def alternatives(options: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
    @st.composite
    def build(draw: st.DrawFn) -> Pair:
        drawn = draw(st.lists(options, min_size=1, max_size=3))
        return {"anyOf": [schema for schema, _ in drawn]}, draw(st.sampled_from(drawn))[1]

    return build()


def referenced(inner: st.SearchStrategy[Pair]) -> st.SearchStrategy[Pair]:
    return inner.map(lambda pair: ({"$defs": {"d": pair[0]}, "$ref": "#/$defs/d"}, pair[1]))


LEVEL_ONE = st.one_of(scalars(), arrays(scalars()), objects(scalars()), alternatives(scalars()))


SCHEMAS = st.one_of(
    LEVEL_ONE, arrays(LEVEL_ONE), objects(LEVEL_ONE), referenced(objects(LEVEL_ONE))
)


@settings(max_examples=300, deadline=None)
@given(pair=SCHEMAS)
def test_every_valid_value_written_compactly_is_accepted(pair: Pair) -> None:
    schema, value = pair
    jsonschema.validate(value, schema)  # the strategy itself draws valid values
    text = json_grammar(json.dumps(schema), free_values=True)
    assert text is not None
    parsed = Grammar.parse(text)
    assert parsed.accepts(compact(value)), (schema, compact(value))
    spaced = json.dumps(value, ensure_ascii=False, indent=1)
    if spaced != compact(value):
        assert not parsed.accepts(spaced)
