"""The cost budget of a JSON schema: a walk over the schema, without compiling anything, that
refuses in one sentence a schema whose grammar would take the constrained decoder too long or
too much memory to compile.

OpenVINO GenAI compiles the grammar inside ``generate()``, in the app's own process, and has no
way to compile one on its own; a child process that did would have to load the model too
(SmolLM2-135M: 7-17 s and 400 MB; a 4B model: gigabytes). So what a grammar may cost is bounded
here, before any model work, by limits measured against the compile (xgrammar, inside GenAI)
on SmolLM2-135M's 49k-token vocabulary (``benchmarks/bench_json_schema.py``; CPU seconds of
the first answer under the grammar — the next reuses it; a larger vocabulary costs
proportionally more):

=================================  ===============================================  ==========
what grows                         measured                                         limit
=================================  ===============================================  ==========
arrays nested (compact grammar)    16 levels: 0.2 s, 4 MB (before items were        16 levels
                                   named, 8 levels: 40 s and 822 MB)
subschemas                         1,999 required properties: 0.3 s, 6 MB           2,000
enum and const values              5,000: 0.5 s, 25 MB                              5,000
optional properties of an object   64: 0.2 s; 30 such objects: 4.2 s; grows with    64
                                   the square (1,000 in one: 161 s wall)
string length bounds given to      300 and 100,000 (600 counted): 12 s, 9 MB;       600
GenAI's converter                  one of 100: 2.4 s, of 300 or more: about 7 s
counted repetition in patterns     ``{1,1000}`` twice: 1.1 s                        2,000
=================================  ===============================================  ==========

Bounds of strings and arrays cost the compact grammar (:mod:`pipelines.json_grammar`) nothing
to compile (it keeps string bounds up to 128 characters, which match as fast as none, and
leaves longer ones to the check of the answer), so they are limited only to what an answer
could hold (100,000 characters, 10,000 items); a
schema the compact grammar cannot express (``pattern``, ``format``…) goes to GenAI's own
converter, where each different string length bound costs seconds. Patterns are scanned by
:mod:`app.core.schema_patterns` (their counted repetitions, and repetitions of repetitions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.core.schema_patterns import pattern_repeats
from app.core.texts import Text, tr
from pipelines.core import InvalidInputError
from pipelines.json_grammar import json_grammar

MAX_LEVELS = 16
"""Arrays and objects nested deeper are refused (a reference to a definition starts afresh)."""
MAX_SUBSCHEMAS = 2_000
MAX_ENUM_VALUES = 5_000
"""``enum`` and ``const`` values in the whole schema."""
MAX_OPTIONAL_PROPERTIES = 64
"""Properties of one object that are not required: each may or may not follow the others,
so the compile grows with their square."""
MAX_STRING_LENGTH = 100_000
"""``minLength``/``maxLength``: more than the longest answer (32,768 tokens) can hold."""
MAX_COUNT = 10_000
"""``minItems``/``maxItems``/``minProperties``/``maxProperties``/``minContains``/
``maxContains``: more entries than the longest answer can hold."""
MAX_LENGTH_BOUNDS = 600
"""Characters of string length bounds given to GenAI's own converter, each different bound
counted once and up to :data:`COSTLIEST_BOUND` (12 CPU seconds of compile on SmolLM2-135M):
as much as a realistic model with a format or pattern needs (bounds of 500, 100, 60 and 20)."""
COSTLIEST_BOUND = 300
"""GenAI's converter costs no more for a longer bound (measured up to 1e9)."""
MAX_PATTERN_REPEATS = 2_000
"""Characters the schema's patterns repeat in all (``{n,m}`` counts ``m``, nested ones
multiply)."""

FIELD = "json_schema"

SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
"""Keywords whose value maps names to subschemas."""
SCHEMA_ONE = (
    "items",
    "additionalItems",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "propertyNames",
)
"""Keywords whose value is one subschema (``items`` may also be a draft-7 list)."""
SCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
"""Keywords whose value lists subschemas."""

# Subschemas of the same value as their parent: no deeper level of the answer.
_SAME_VALUE = frozenset(
    {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$defs", "definitions"}
    | {"dependentSchemas"}
)
_COUNTS = ("minItems", "maxItems", "minProperties", "maxProperties", "minContains", "maxContains")


@dataclass
class SchemaSize:
    """What a schema's grammar grows with, added up over its subschemas."""

    levels: int = 0
    subschemas: int = 0
    enum_values: int = 0
    length_bounds: set[tuple[int, int]] = field(default_factory=set)
    """Each different ``(minLength, maxLength)`` of a string without a pattern."""
    pattern_repeats: int = 0

    def add(self, other: SchemaSize) -> None:
        """Count ``other`` (a schema offered beside this one, as one of ``anyOf``) in."""
        self.levels = max(self.levels, other.levels)
        self.subschemas += other.subschemas
        self.enum_values += other.enum_values
        self.length_bounds |= other.length_bounds
        self.pattern_repeats += other.pattern_repeats

    def length_cost(self) -> int:
        """The length bounds' characters as GenAI's converter pays for them."""
        return sum(min(max(bound), COSTLIEST_BOUND) for bound in self.length_bounds)


def check_budget(schema: Any, compact_text: str) -> None:
    """Refuse ``schema`` (parsed JSON, not yet known to be a valid JSON Schema: the walk
    skips keywords of the wrong type; ``compact_text`` is it as the model gets it) when its
    grammar would cost more than the budget.

    Raises:
        InvalidInputError: (field ``json_schema``) one sentence naming what is too big and
            the limit.
    """
    size = measure(schema)
    problem = size_problem(size, bounds_to_genai=False)
    if problem is None and size.length_cost() > MAX_LENGTH_BOUNDS:
        # Only now is it worth knowing whether the compact grammar holds the schema (its
        # conversion is cheap, and remembered for the answer).
        problem = size_problem(size, bounds_to_genai=json_grammar(compact_text) is None)
    if problem is not None:
        _refuse(problem)


def measure(schema: Any) -> SchemaSize:
    """What ``schema``'s grammar grows with.

    Raises:
        InvalidInputError: one subschema alone goes over a limit (a bound, a pattern, an
            object's optional properties); the sentence says where.
    """
    size = SchemaSize()
    _walk(schema, "", 0, size)
    return size


def size_problem(size: SchemaSize, *, bounds_to_genai: bool) -> Text | None:
    """The sentence refusing a schema of ``size``, or None when it is within the budget;
    ``bounds_to_genai``: its string length bounds reach GenAI's own converter (the compact
    grammar does not hold the schema)."""
    if size.levels > MAX_LEVELS:
        return tr(
            "The JSON schema nests arrays and objects {levels} levels deep; "
            "at most {limit} are allowed."
        ).format(levels=size.levels, limit=MAX_LEVELS)
    if size.subschemas > MAX_SUBSCHEMAS:
        return tr("The JSON schema has {count} subschemas; at most {limit} are allowed.").format(
            count=f"{size.subschemas:,}", limit=f"{MAX_SUBSCHEMAS:,}"
        )
    if size.enum_values > MAX_ENUM_VALUES:
        return tr(
            "The JSON schema lists {count} enum and const values; at most {limit} are allowed."
        ).format(count=f"{size.enum_values:,}", limit=f"{MAX_ENUM_VALUES:,}")
    if size.pattern_repeats > MAX_PATTERN_REPEATS:
        return tr(
            "The JSON schema's patterns repeat {count} characters in all ({{n,m}} counts); "
            "at most {limit} are allowed."
        ).format(count=f"{size.pattern_repeats:,}", limit=f"{MAX_PATTERN_REPEATS:,}")
    cost = size.length_cost()
    if bounds_to_genai and cost > MAX_LENGTH_BOUNDS:
        return tr(
            "The JSON schema's string length bounds come to {count} characters (each different "
            "bound counted once, up to {each}); beside keywords such as 'pattern' or 'format' "
            "at most {limit} are allowed."
        ).format(count=f"{cost:,}", each=COSTLIEST_BOUND, limit=MAX_LENGTH_BOUNDS)
    return None


def _walk(node: Any, where: str, level: int, size: SchemaSize) -> None:
    if not isinstance(node, (dict, bool)):
        return
    size.subschemas += 1
    size.levels = max(size.levels, level)
    if isinstance(node, bool):
        return
    _check_node(node, where, size)
    for key, child, deeper in _children(node):
        _walk(child, f"{where}/{key}", level + deeper, size)


def _children(node: dict[str, Any]) -> list[tuple[str, Any, int]]:
    """``(path, subschema, 1 when it describes a deeper value else 0)`` of ``node``."""
    found: list[tuple[str, Any, int]] = []
    for key in SCHEMA_MAPS:
        children = node.get(key)
        if isinstance(children, dict):
            deeper = 0 if key in _SAME_VALUE else 1
            found += [(f"{key}/{name}", child, deeper) for name, child in children.items()]
    for key in SCHEMA_ONE:
        child = node.get(key)
        deeper = 0 if key in _SAME_VALUE else 1
        if isinstance(child, list):  # draft-7 tuple items
            found += [(f"{key}/{index}", entry, deeper) for index, entry in enumerate(child)]
        elif child is not None:
            found.append((key, child, deeper))
    for key in SCHEMA_LISTS:
        entries = node.get(key)
        if isinstance(entries, list):
            deeper = 0 if key in _SAME_VALUE else 1
            found += [(f"{key}/{index}", entry, deeper) for index, entry in enumerate(entries)]
    return found


def _check_node(node: dict[str, Any], where: str, size: SchemaSize) -> None:
    for key in ("minLength", "maxLength"):
        _check_bound(node, key, MAX_STRING_LENGTH, where, characters=True)
    for key in _COUNTS:
        _check_bound(node, key, MAX_COUNT, where, characters=False)
    if isinstance(node.get("enum"), list):
        size.enum_values += len(node["enum"])
    if "const" in node:
        size.enum_values += 1
    properties = node.get("properties")
    if isinstance(properties, dict):
        required = node.get("required")
        needed = set(required) if isinstance(required, list) else set()
        optional = sum(1 for name in properties if name not in needed)
        if optional > MAX_OPTIONAL_PROPERTIES:
            _refuse(
                tr(
                    "The JSON schema's object at {where} has {count} optional properties; at "
                    "most {limit} are allowed (list more of them under 'required')."
                ).format(where=_pointer(where), count=optional, limit=MAX_OPTIONAL_PROPERTIES)
            )
    patterns = [node["pattern"]] if isinstance(node.get("pattern"), str) else []
    if isinstance(node.get("patternProperties"), dict):
        patterns += [key for key in node["patternProperties"] if isinstance(key, str)]
    for pattern in patterns:
        size.pattern_repeats += pattern_repeats(pattern, _pointer(where))
    if "pattern" not in node and ("minLength" in node or "maxLength" in node):
        # GenAI's converter ignores length bounds beside a pattern (it says so on stderr).
        low, high = node.get("minLength", 0), node.get("maxLength", 0)
        if isinstance(low, int) and isinstance(high, int) and max(low, high) > 0:
            size.length_bounds.add((low, high))


def _check_bound(
    node: dict[str, Any], key: str, limit: int, where: str, *, characters: bool
) -> None:
    value = node.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= limit:
        return
    if characters:
        message = tr(
            "The JSON schema's {keyword} is {value} (at {where}); at most {limit} characters "
            "are allowed."
        )
    else:
        message = tr(
            "The JSON schema's {keyword} is {value} (at {where}); at most {limit} are allowed."
        )
    _refuse(
        message.format(
            keyword=key, value=f"{value:,.0f}", where=_pointer(where), limit=f"{limit:,}"
        )
    )


def _pointer(where: str) -> str:
    return "#" + where


def _refuse(message: str) -> None:
    raise InvalidInputError(message, field=FIELD)
