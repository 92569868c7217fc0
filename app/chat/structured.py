"""JSON answers: the one check of a JSON schema (settings, command line, server) and the
check of an answer against it.

A schema is refused before any generation, with one sentence, when it is not JSON, too big or
too deep, not a JSON Schema, one the model's constrained decoder (xgrammar, inside OpenVINO
GenAI) would refuse, or one whose grammar would cost too much to compile
(:mod:`app.core.schema_budget`). The last list was found by trying schemas on GenAI: it refuses
a
``false`` subschema, ranges whose minimum is above their maximum, an empty ``enum``, integer
bounds beyond 64 bits, regex lookarounds, backreferences, group flags and ``\\p{…}`` classes,
and ``$ref`` pointers it cannot find; it silently *ignores* a ``$ref`` to another document
(the answer would follow nothing). On the continuous-batching engine a refused grammar fails
the whole step, ending every running request, so these are caught here first.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from app.core.schema_budget import SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_ONE, check_budget
from app.core.texts import tr
from pipelines.core import InvalidInputError
from pipelines.generation import GenerationSettings

MAX_SCHEMA_BYTES = 100_000
"""A longer schema is refused: a person writes a few kilobytes; megabytes are a mistake."""
MAX_SCHEMA_DEPTH = 64
"""Deeper nesting is refused before parsing: the validators and the grammar recurse."""
ANY_JSON_OBJECT = '{"type": "object"}'
"""The schema of "answer in JSON" without a schema of one's own."""

LENGTH_LIMIT = tr(
    "The answer reached the length limit before its JSON was complete; raise Max new tokens."
)
FIELD = "json_schema"

_INT64 = 2**63 - 1
_UNSUPPORTED_REGEX = (
    (re.compile(r"\(\?<?[=!]"), "lookahead or lookbehind"),
    (re.compile(r"\(\?(?!:)"), "group flags such as (?P<name>…) or (?i)"),
    (re.compile(r"\\[1-9]|\\k<"), "backreferences"),
    (re.compile(r"\\[pP]\{"), "Unicode classes (\\p{…})"),
)


@dataclass(frozen=True)
class JsonCheck:
    """An answer read as JSON: ``value`` when it parsed, ``problem`` ("" when it follows the
    schema) otherwise or besides."""

    value: Any
    problem: str


def check_schema(text: str) -> str:
    """The JSON schema ``text`` made compact, once it is known to be usable.

    Raises:
        InvalidInputError: (field ``json_schema``) one sentence saying what is wrong.
    """
    from jsonschema.exceptions import SchemaError
    from jsonschema.validators import validator_for

    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_SCHEMA_BYTES:
        _refuse(f"The JSON schema is {size:,} bytes; the limit is {MAX_SCHEMA_BYTES:,}.")
    if not text.strip():
        _refuse("The JSON schema is empty; write one, or answer in plain JSON without one.")
    if _nesting(text) > MAX_SCHEMA_DEPTH:
        _refuse(f"The JSON schema is nested more than {MAX_SCHEMA_DEPTH} levels deep.")
    try:
        schema = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        _refuse(f"The JSON schema is not valid JSON: {_json_reason(error)}.")
    if schema is not True and not isinstance(schema, dict):
        _refuse("The JSON schema must be an object ({…}), or true for any JSON.")
    compact = json.dumps(schema, ensure_ascii=False, separators=(",", ":"))
    # First, as it is the cheapest: the meta-schema check below takes seconds on a big schema.
    check_budget(schema, compact)
    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as error:
        where = "/".join(str(part) for part in error.path)
        _refuse(
            f"The JSON schema is not a valid JSON Schema: {_short(error.message)}"
            + (f" (at {where})." if where else ".")
        )
    schemas: list[dict[str, Any]] = []
    _check_decodable(schema, schema, "", schemas)
    if isinstance(schema, dict):
        _check_ref_cycles(schemas, schema)
    return compact


def check_answer(text: str, schema_text: str, *, by_length: bool) -> JsonCheck:
    """Read ``text`` (an answer constrained to ``schema_text``) as JSON and check it follows
    the schema; ``by_length`` when generation ended at Max new tokens (a cut answer can still
    parse, e.g. a number, so a cut scalar counts as cut too)."""
    from jsonschema import exceptions
    from jsonschema.validators import validator_for

    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as bad:
        if by_length:
            return JsonCheck(None, LENGTH_LIMIT)
        return JsonCheck(None, f"The answer is not valid JSON: {_json_reason(bad)}.")
    if by_length and not isinstance(value, (dict, list)):
        return JsonCheck(None, LENGTH_LIMIT)
    schema = json.loads(schema_text)
    try:
        error = exceptions.best_match(validator_for(schema)(schema).iter_errors(value))
    except RecursionError:
        return JsonCheck(value, "The answer is nested too deeply to check against the schema.")
    if error is not None:
        return JsonCheck(
            value, f"The answer does not follow the JSON schema: {_short(error.message)}."
        )
    return JsonCheck(value, "")


def _refuse(message: str) -> Any:
    raise InvalidInputError(message, field=FIELD)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _json_reason(error: BaseException) -> str:
    if isinstance(error, RecursionError):
        return "it is nested too deeply"
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno}, column {error.colno}"
    return str(error)


def _short(message: str, limit: int = 160) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _nesting(text: str) -> int:
    """The deepest bracket nesting of ``text`` outside strings, without parsing it (a parser
    would recurse as deep)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _check_decodable(node: Any, root: Any, where: str, schemas: list[dict[str, Any]]) -> None:
    """Refuse what GenAI's grammar compiler refuses or ignores, anywhere in the schema;
    ``schemas`` collects every (sub)schema."""
    if node is False:
        _refuse(_at("The JSON schema has a 'false' subschema (no value can match it)", where))
    if not isinstance(node, dict):
        return
    schemas.append(node)
    _check_ranges(node, where)
    if "enum" in node and node["enum"] == []:
        _refuse(_at("The JSON schema has an empty 'enum' (no value can match it)", where))
    if "pattern" in node:
        _check_regex(node["pattern"], where)
    for key in node.get("patternProperties") or {}:
        _check_regex(key, where)
    if "$ref" in node:
        _check_ref(node["$ref"], root, where)
    items = node.get("items")
    prefix = node.get("prefixItems")
    if items is False and node.get("minItems", 0) > len(prefix if isinstance(prefix, list) else []):
        _refuse(_at("The JSON schema asks for more items than it allows ('items': false)", where))
    for key in SCHEMA_MAPS:
        children = node.get(key)
        if isinstance(children, dict):
            for name, child in children.items():
                _check_decodable(child, root, f"{where}/{key}/{name}", schemas)
    for key in SCHEMA_ONE:
        child = node.get(key)
        if child is False:  # "no more items/properties": fine, unlike a false property
            continue
        if isinstance(child, list):  # draft-7 tuple items
            for index, entry in enumerate(child):
                _check_decodable(entry, root, f"{where}/{key}/{index}", schemas)
        elif child is not None and key in node:
            _check_decodable(child, root, f"{where}/{key}", schemas)
    for key in SCHEMA_LISTS:
        entries = node.get(key)
        if isinstance(entries, list):
            for index, entry in enumerate(entries):
                _check_decodable(entry, root, f"{where}/{key}/{index}", schemas)


def _check_ranges(node: dict[str, Any], where: str) -> None:
    for low_key, high_key in (
        ("minLength", "maxLength"),
        ("minItems", "maxItems"),
        ("minProperties", "maxProperties"),
    ):
        lower, upper = node.get(low_key), node.get(high_key)
        if isinstance(lower, int) and isinstance(upper, int) and lower > upper:
            _refuse(_at(f"The JSON schema's {low_key} is above its {high_key}", where))
    bounds = [
        node.get(key) for key in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
    ]
    numbers = [b for b in bounds if isinstance(b, (int, float)) and not isinstance(b, bool)]
    if node.get("type") == "integer" and any(abs(b) > _INT64 for b in numbers):
        _refuse(_at("The JSON schema's integer bounds go beyond 64-bit integers", where))
    if any(isinstance(b, float) and not math.isfinite(b) for b in numbers):
        _refuse(_at("The JSON schema has a bound that is not a finite number", where))
    low = _bound(node, "minimum", "exclusiveMinimum", lower=True)
    high = _bound(node, "maximum", "exclusiveMaximum", lower=False)
    if low is not None and high is not None:
        empty = low[0] > high[0] or (low[0] == high[0] and (low[1] or high[1]))
        if node.get("type") == "integer":
            first = math.floor(low[0]) + 1 if low[1] else math.ceil(low[0])
            last = math.ceil(high[0]) - 1 if high[1] else math.floor(high[0])
            empty = first > last
        if empty:
            _refuse(_at("The JSON schema's minimum is above its maximum", where))


def _bound(
    node: dict[str, Any], plain: str, exclusive: str, *, lower: bool
) -> tuple[float, bool] | None:
    """The tighter of a plain and an exclusive bound (the exclusive one on a tie), with
    whether it is exclusive."""
    found: list[tuple[float, bool]] = []
    for key, strict in ((plain, False), (exclusive, True)):
        value = node.get(key)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            found.append((value, strict))
    if not found:
        return None
    if lower:
        return max(found, key=lambda pair: (pair[0], pair[1]))
    return min(found, key=lambda pair: (pair[0], not pair[1]))


def _check_regex(pattern: Any, where: str) -> None:
    if not isinstance(pattern, str):
        return
    try:
        re.compile(pattern)
    except re.error as error:
        _refuse(
            _at(f"The JSON schema's pattern {pattern[:40]!r} is not a valid regex ({error})", where)
        )
    for finder, what in _UNSUPPORTED_REGEX:
        if finder.search(pattern):
            _refuse(
                _at(
                    f"The JSON schema's pattern {pattern[:40]!r} uses {what}, "
                    "which JSON answers cannot follow",
                    where,
                )
            )


def _check_ref(ref: Any, root: Any, where: str) -> None:
    if not isinstance(ref, str):
        return
    if ref != "#" and not ref.startswith("#/"):
        _refuse(
            _at(
                f"The JSON schema refers to {ref[:60]!r}; only references inside the schema "
                "(#/…) can be followed",
                where,
            )
        )
    node = root
    for part in ref[2:].split("/") if ref != "#" else []:
        if "~" in part or "%" in part:
            _refuse(
                _at(
                    f"The JSON schema's reference {ref[:60]!r} uses escapes (~ or %) "
                    "JSON answers cannot follow",
                    where,
                )
            )
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            _refuse(_at(f"The JSON schema's reference {ref[:60]!r} points at nothing", where))


def _check_ref_cycles(schemas: list[dict[str, Any]], root: dict[str, Any]) -> None:
    """Refuse references that come back to where they started without reading any of the
    value on the way (``{"$ref": "#"}``, a → b → a): checking an answer would recurse forever.
    A reference under ``properties`` or ``items`` is fine: each turn reads a deeper value."""
    state: dict[int, int] = {}  # 1: on the current path, 2: done
    for start in schemas:
        if id(start) in state:
            continue
        state[id(start)] = 1
        stack = [(start, _same_value(start, root))]
        while stack:
            node, todo = stack[-1]
            if not todo:
                state[id(node)] = 2
                stack.pop()
                continue
            child = todo.pop()
            mark = state.get(id(child))
            if mark == 1:
                _refuse(
                    "The JSON schema's references go round in a circle without reading a value."
                )
            if mark is None:
                state[id(child)] = 1
                stack.append((child, _same_value(child, root)))


def _same_value(node: dict[str, Any], root: dict[str, Any]) -> list[dict[str, Any]]:
    """The subschemas that apply to the same value as ``node``: its reference and its
    combinators."""
    found: list[Any] = []
    ref = node.get("$ref")
    if isinstance(ref, str):
        target: Any = root
        try:
            for part in ref[2:].split("/") if ref != "#" else []:
                target = target[int(part)] if isinstance(target, list) else target[part]
        except (KeyError, IndexError, ValueError, TypeError):
            target = None  # a "$ref" inside data (a const, an enum), not a schema
        found.append(target)
    for key in ("allOf", "anyOf", "oneOf"):
        if isinstance(node.get(key), list):
            found.extend(node[key])
    found.extend(node[key] for key in ("not", "if", "then", "else") if key in node)
    return [child for child in found if isinstance(child, dict)]


def _at(message: str, where: str) -> str:
    return f"{message} (at {where})." if where else f"{message}."


def answer_problem(text: str, settings: GenerationSettings, generated: float | None) -> str:
    """What is wrong with a finished answer given ``settings`` ("" for free text, or JSON that
    follows its schema); ``generated`` tokens (None: unknown) tell a cut answer."""
    if settings.json_schema is None:
        return ""
    by_length = generated is not None and generated >= settings.max_new_tokens
    return check_answer(text, settings.json_schema, by_length=by_length).problem
