"""Property: every value valid under a drawn schema, written as compact JSON (properties in
schema order, the one order the grammar allows), is accepted by the schema's grammar; written
with spaces it is refused."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from pipelines.json_grammar import json_grammar
from pipelines.json_grammar_ebnf import compact
from tests.unit.pipelines.json_grammar_matcher import Grammar

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
