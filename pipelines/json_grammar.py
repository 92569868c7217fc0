"""A JSON schema turned into a compact EBNF grammar for GenAI's constrained decoder.

GenAI compiles ``StructuredOutputConfig(json_schema=…)`` with xgrammar's defaults, which allow
any amount of white space between tokens; a small model that finds no likely value goes on
writing blank lines until the length limit (SmolLM2-135M did on 3 of 25 small schemas). GenAI
has no white-space option, but it takes an EBNF grammar, so the schemas we can express are
converted here into one that allows **no** white space at all (``{"a":1,"b":[true]}``) and
caps every string, array and nesting depth, so an answer cannot run away.

Covered: ``type`` (also lists), ``properties``/``required``/``additionalProperties``,
``enum``, ``const``, ``minLength``/``maxLength``, integer ``minimum``/``maximum`` (and the
exclusive ones), ``items``/``minItems``/``maxItems``, ``anyOf``/``oneOf`` (as alternatives),
a one-entry ``allOf``, ``$ref`` to the schema's own ``$defs``/``definitions`` (recursion
allowed), and ``{}``/``true`` for any JSON value. Anything else (``pattern``, ``format``,
``not``, number bounds, ``uniqueItems``…) makes :func:`json_grammar` answer None and the caller
keeps GenAI's own ``json_schema`` conversion; the answer check after generation stays the
judge either way.

This module walks the schema; how the rules are spelt (literals, strings of bounded length,
repetitions) is :mod:`pipelines.json_grammar_ebnf`, and numbers are
:mod:`pipelines.json_grammar_numbers`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pipelines.grammar_probe import GrammarSpec
from pipelines.json_grammar_ebnf import (
    BASE_RULES,
    NotConvertibleError,
    alternatives,
    compact,
    literal,
    repeat,
    sequence,
    string_rule,
)
from pipelines.json_grammar_numbers import integer_range

MAX_ITEMS = 100
"""An array without ``maxItems`` (or an object of any keys) holds at most this many entries."""
ANY_DEPTH = 8
"""How deeply arrays and objects nest in a value the schema leaves free (``{}``)."""
MAX_GRAMMAR_CHARS = 1_000_000
"""A longer grammar is not converted: the app's schema budget keeps grammars near 100 KB, so
only a converter that copies rules again (arrays once doubled the grammar at each level) gets
here — stopped before it fills the memory, and left to GenAI's own conversion."""
_INT64 = 2**63 - 1

_ANNOTATIONS = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "$schema",
        "$id",
        "$anchor",
        "deprecated",
        "readOnly",
        "writeOnly",
        "$defs",
        "definitions",
    }
)
_FOR_TYPE = {
    "string": frozenset({"minLength", "maxLength"}),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}),
    "number": frozenset(),
    "boolean": frozenset(),
    "null": frozenset(),
    "array": frozenset({"items", "minItems", "maxItems"}),
    "object": frozenset(
        {"properties", "required", "additionalProperties", "minProperties", "maxProperties"}
    ),
}
# Number bounds are read only for integers; on a plain number they are not converted.
_INFER = {
    "string": _FOR_TYPE["string"],
    "number": _FOR_TYPE["integer"],
    "array": _FOR_TYPE["array"],
    "object": _FOR_TYPE["object"],
}
_SUPPORTED = frozenset().union(*_FOR_TYPE.values()) | {
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
}


@lru_cache(maxsize=64)
def json_grammar(schema_text: str, *, free_values: bool = False) -> str | None:
    """The compact EBNF grammar (xgrammar syntax, start rule ``root``) of the JSON schema
    ``schema_text`` — already checked by the app — or None when the schema uses a keyword
    this conversion does not cover.

    A schema that leaves a value free (``{}``, ``{"type": "object"}`` — "answer in JSON"
    without a schema) is converted only with ``free_values``: measured on SmolLM2-135M, xgrammar
    slows to seconds a token once an answer under the bounded any-value rules is some 70
    tokens long, so those answers keep GenAI's own (fast) any-JSON grammar for now.
    """
    try:
        builder = _Builder(json.loads(schema_text))
        grammar = builder.grammar()
    except (NotConvertibleError, LookupError, ValueError, TypeError, RecursionError):
        return None
    return grammar if free_values or builder.any_depth < 0 else None


def grammar_spec(schema_text: str, *, compact: bool = True) -> GrammarSpec:
    """What GenAI is given for answers following ``schema_text``: the compact grammar when
    ``compact`` and the schema converts, else the schema for GenAI's own conversion. The one
    source of both the config an answer runs under and the one its grammar is probed with."""
    grammar = json_grammar(schema_text) if compact else None
    if grammar is None:
        return GrammarSpec("json_schema", schema_text)
    return GrammarSpec("grammar", grammar)


def structured_output_config(schema_text: str) -> Any:
    """GenAI's ``StructuredOutputConfig`` for answers following ``schema_text``: the compact
    grammar when the schema converts, else GenAI's own JSON-schema conversion."""
    return grammar_spec(schema_text).genai_config()


class _Builder:
    """Rules collected while walking one schema."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.rules: dict[str, str] = {}
        self.refs: dict[str, str] = {}
        self.any_depth = -1
        self.chars = 0

    def grammar(self) -> str:
        top = self.value(self.root)
        if self.chars + len(top) > MAX_GRAMMAR_CHARS:
            raise NotConvertibleError("a grammar too long")
        lines = [f"root ::= {top}", *BASE_RULES]
        lines += [f"{name} ::= {body}" for name, body in self.rules.items()]
        lines += self._any_rules()
        return "\n".join(lines) + "\n"

    def new_rule(self, body: str, hint: str) -> str:
        self.chars += len(body)
        if self.chars > MAX_GRAMMAR_CHARS:
            raise NotConvertibleError("a grammar too long")
        name = f"{hint}{len(self.rules)}"
        self.rules[name] = body
        return name

    def named(self, expr: str, hint: str) -> str:
        """``expr`` as a rule name, so that a rule using it twice holds its name, not two
        copies: an array writes its item twice (``item ("," item){0,99}``), and with copies
        nested arrays doubled the grammar at each level — 8 levels took xgrammar 40 s and
        822 MB to compile, 30 ran the builder itself out of memory. Named, 30 levels compile
        in about a second (SmolLM2-135M)."""
        return expr if expr.isidentifier() else self.new_rule(expr, hint)

    def value(self, node: Any) -> str:
        """An expression for the values ``node`` allows."""
        if node is True or (isinstance(node, dict) and not set(node) - _ANNOTATIONS):
            return self.any_value()
        if not isinstance(node, dict):
            raise NotConvertibleError("a schema that is not an object")
        unknown = set(node) - _SUPPORTED - _ANNOTATIONS
        if unknown:
            raise NotConvertibleError(", ".join(sorted(unknown)))
        keys = set(node) - _ANNOTATIONS
        if "$ref" in node:
            if keys != {"$ref"}:
                raise NotConvertibleError("$ref beside other keywords")
            return self.ref(node["$ref"])
        if "allOf" in node:
            if keys != {"allOf"} or len(node["allOf"]) != 1:
                raise NotConvertibleError("allOf")
            return self.value(node["allOf"][0])
        for key in ("anyOf", "oneOf"):
            if key in node:
                if keys != {key}:
                    raise NotConvertibleError(f"{key} beside other keywords")
                return alternatives([self.value(entry) for entry in node[key]])
        if "enum" in node or "const" in node:
            return self.constants(node)
        kinds = node.get("type")
        if kinds is None:
            # No type: read it from the keywords (a schema with "properties" asks for an
            # object); with none of them, any value.
            kinds = [kind for kind, words in _INFER.items() if words & keys]
            if not kinds:
                return self.any_value()
        if isinstance(kinds, str):
            kinds = [kinds]
        for kind in kinds:
            # Number bounds are kept only on integers; anything else there is unknown.
            ignored = keys - _FOR_TYPE[kind] - {"type"}
            if kind == "number" and ignored & _FOR_TYPE["integer"]:
                raise NotConvertibleError("number bounds")
        return alternatives([self.typed(kind, node) for kind in dict.fromkeys(kinds)])

    def typed(self, kind: str, node: dict[str, Any]) -> str:
        if kind == "string":
            return string_rule(int(node.get("minLength", 0)), node.get("maxLength"))
        if kind == "integer":
            return self.integer(node)
        if kind == "number":
            return "jnum"
        if kind == "boolean":
            return '("true" | "false")'
        if kind == "null":
            return '"null"'
        if kind == "array":
            return self.array(node)
        if kind == "object":
            return self.object(node)
        raise NotConvertibleError(f"type {kind!r}")

    def integer(self, node: dict[str, Any]) -> str:
        low: int | None = None
        high: int | None = None
        for key, bound in (("minimum", 0), ("exclusiveMinimum", 1)):
            if key in node:
                value = _number(node[key], key)
                edge = -int(-value // 1) if bound == 0 else int(value // 1) + 1
                low = edge if low is None else max(low, edge)
        for key, bound in (("maximum", 0), ("exclusiveMaximum", 1)):
            if key in node:
                value = _number(node[key], key)
                edge = int(value // 1) if bound == 0 else -int(-value // 1) - 1
                high = edge if high is None else min(high, edge)
        if low is None and high is None:
            return "jint"
        return self.new_rule(integer_range(low, high), "int")

    def array(self, node: dict[str, Any]) -> str:
        items = node.get("items", True)
        low = int(node.get("minItems", 0))
        high = int(node.get("maxItems", max(low, MAX_ITEMS)))
        if items is False and low > 0:
            raise NotConvertibleError("more items than 'items': false allows")
        if items is False or high == 0:
            return '"[" "]"'
        if isinstance(items, list):
            raise NotConvertibleError("items as a list")
        item = self.named(self.value(items), "item")
        if low == 0:
            return '"[" (' + sequence(item, repeat(f'"," {item}', 0, high - 1)) + ')? "]"'
        return '"[" ' + sequence(item, repeat(f'"," {item}', low - 1, high - 1)) + ' "]"'

    def object(self, node: dict[str, Any]) -> str:
        properties: dict[str, Any] = dict(node.get("properties", {}))
        required = list(dict.fromkeys(node.get("required", [])))
        for name in required:
            properties.setdefault(name, True)
        if not properties:
            return self.map(node)
        # Only the properties the schema names, never extra keys — also when
        # additionalProperties is absent or allows them: an answer the user asked for in a
        # shape gets only that shape (and a model could add keys for ever).
        if node.get("minProperties", 0) > len(required):
            raise NotConvertibleError("minProperties above the required properties")
        if node.get("maxProperties", len(properties)) < len(properties):
            raise NotConvertibleError("maxProperties below the properties")
        required_names = set(required)
        entries = [
            (f'{literal(compact(name))} ":" {self.value(schema)}', name in required_names)
            for name, schema in properties.items()
        ]
        # rest[i]: entries i… after one already written (each after a comma);
        # the body: the first entry written is any one up to the first required one.
        rest = [""] * (len(entries) + 1)
        for index in range(len(entries) - 1, 0, -1):
            entry, needed = entries[index]
            step = f'"," {entry}' if needed else f'("," {entry})?'
            rest[index] = self.new_rule(sequence(step, rest[index + 1]), "rest") if step else ""
        starts: list[str] = []
        for index, (entry, needed) in enumerate(entries):
            starts.append(sequence(entry, rest[index + 1]))
            if needed:
                break
        else:
            starts.append("")
        body = " | ".join(start if start else '""' for start in starts)
        return '"{" ' + self.new_rule(body, "obj") + ' "}"'

    def map(self, node: dict[str, Any]) -> str:
        extra = node.get("additionalProperties", True)
        low = int(node.get("minProperties", 0))
        high = int(node.get("maxProperties", max(low, MAX_ITEMS)))
        if extra is False or high == 0:
            return '"{" "}"'
        entry = self.new_rule(f'jstr ":" {self.value(extra)}', "kv")
        if low == 0:
            return '"{" (' + sequence(entry, repeat(f'"," {entry}', 0, high - 1)) + ')? "}"'
        return '"{" ' + sequence(entry, repeat(f'"," {entry}', low - 1, high - 1)) + ' "}"'

    def constants(self, node: dict[str, Any]) -> str:
        values = list(node["enum"]) if "enum" in node else [node["const"]]
        if "const" in node:
            values = [value for value in values if _same(value, node["const"])]
        kinds = node.get("type")
        if kinds is not None:
            wanted = [kinds] if isinstance(kinds, str) else list(kinds)
            values = [value for value in values if _json_type(value, wanted)]
        if not values:
            raise NotConvertibleError("an enum no value of its type can match")
        return alternatives(list(dict.fromkeys(literal(compact(value)) for value in values)))

    def ref(self, pointer: Any) -> str:
        if not isinstance(pointer, str) or not (pointer == "#" or pointer.startswith("#/")):
            raise NotConvertibleError("a reference outside the schema")
        if pointer not in self.refs:
            # The name first, the body after: a recursive reference finds the name.
            name = f"ref{len(self.refs)}"
            self.refs[pointer] = name
            self.rules[name] = ""
            target: Any = self.root
            for part in pointer[2:].split("/") if pointer != "#" else []:
                target = target[int(part)] if isinstance(target, list) else target[part]
            self.rules[name] = self.value(target)
        return self.refs[pointer]

    def any_value(self) -> str:
        self.any_depth = ANY_DEPTH
        return f"jany{ANY_DEPTH}"

    def _any_rules(self) -> list[str]:
        if self.any_depth < 0:
            return []
        scalars = 'jstr | jnum | "true" | "false" | "null"'
        lines = [f"jany0 ::= {scalars}"]
        for depth in range(1, self.any_depth + 1):
            inner = f"jany{depth - 1}"
            array = f'"[" ({inner} ("," {inner}){{0,{MAX_ITEMS - 1}}})? "]"'
            pair = f'jstr ":" {inner}'
            obj = f'"{{" ({pair} ("," {pair}){{0,{MAX_ITEMS - 1}}})? "}}"'
            lines.append(f"jany{depth} ::= {scalars} | {array} | {obj}")
        return lines


def _number(value: Any, key: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise NotConvertibleError(key)  # draft-4 boolean exclusive bounds
    if abs(value) > _INT64:
        # GenAI refuses such bounds; left to it, the refusal stays the same one sentence.
        raise NotConvertibleError(f"{key} beyond 64-bit integers")
    return value


def _same(left: Any, right: Any) -> bool:
    """JSON equality (``1`` and ``true`` differ, ``1`` and ``1.0`` do not)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    return bool(left == right)


def _json_type(value: Any, kinds: list[str]) -> bool:
    checks = {
        "null": value is None,
        "boolean": isinstance(value, bool),
        "integer": (isinstance(value, int) and not isinstance(value, bool))
        or (isinstance(value, float) and value.is_integer()),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "string": isinstance(value, str),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }
    return any(checks.get(kind, False) for kind in kinds)
