"""How the JSON grammar's EBNF is spelt: values written the one compact way, strings of
bounded length, counted repetitions, sequences and alternatives, and the limits on them.

:mod:`pipelines.json_grammar` walks a schema and writes its rules with these; the digits of
numbers are in :mod:`pipelines.json_grammar_numbers`.
"""

from __future__ import annotations

import json
from typing import Any

from pipelines.json_grammar_numbers import MAX_INTEGER_DIGITS, NUMBER

MAX_LENGTH_IN_GRAMMAR = 128
"""The longest string length bound the grammar keeps. xgrammar matches a counted repetition of
up to about this many characters as fast as an open one, and a longer one slowly at every token
of the string (``benchmarks/bench_json_decode.py``, SmolLM2-135M, greedy, CPU a token:
``{0,128}`` 67 ms, open 69 ms, ``{0,2000}`` 2,073 ms; free text 54 ms; ``{0,200}`` took 0.9 s
a token on a busy machine). A longer bound is left to the check of the whole
answer against the schema (``app.chat.structured.check_answer``), and a string without one is open:
the answer's token limit ends it."""
MAX_REPEAT = 100_000
"""A ``minLength``/``minItems`` above this is not converted (GenAI's own conversion is used)."""


class NotConvertibleError(Exception):
    """The schema uses something the grammar does not express (the message names it)."""


BASE_RULES = (
    'jstr ::= "\\"" jchr* "\\""',
    'jchr ::= [^"\\\\\\x00-\\x1f] | "\\\\" (["\\\\/bfnrt] | "u" [0-9a-fA-F]{4})',
    "jnum ::= " + NUMBER,
    'jint ::= "0" | "-"? [1-9] [0-9]{0,' + str(MAX_INTEGER_DIGITS - 1) + "}",
)
"""The rules every grammar holds: a JSON string and its characters, a number, an integer."""


def literal(text: str) -> str:
    """``text`` as an EBNF string literal."""
    out = ['"']
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif not char.isprintable() and ord(char) < 0x10000:
            # Control and separator characters (a line break, U+0085, U+2028…) escaped: the
            # grammar is read line by line.
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def compact(value: Any) -> str:
    """``value`` as JSON with no white space — the one spelling the grammar allows."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def string_rule(low: int, high: Any) -> str:
    """A JSON string of ``low`` to ``high`` (None: any number of) characters, its bounds kept
    up to :data:`MAX_LENGTH_IN_GRAMMAR`."""
    if max(low, int(high or 0)) > MAX_REPEAT or (high is not None and int(high) < low):
        raise NotConvertibleError("a length beyond what is converted")
    low = low if low <= MAX_LENGTH_IN_GRAMMAR else 0
    if high is None or int(high) > MAX_LENGTH_IN_GRAMMAR:
        if low == 0:
            return "jstr"
        return '"\\"" ' + sequence(repeat("jchr", low, low), "jchr*") + ' "\\""'
    return '"\\"" ' + repeat("jchr", low, int(high)) + ' "\\""'


def repeat(expr: str, low: int, high: int) -> str:
    """``expr`` ``low`` to ``high`` times."""
    if high > MAX_REPEAT or low > high:
        raise NotConvertibleError("a length beyond what is converted")
    if high == 0:
        return ""
    if low == high == 1:
        return expr
    single = expr.isidentifier()
    target = expr if single else f"({expr})"
    return f"{target}{{{low}}}" if low == high else f"{target}{{{low},{high}}}"


def sequence(*parts: str) -> str:
    """``parts`` one after the other (empty ones left out)."""
    return " ".join(part for part in parts if part)


def alternatives(options: list[str]) -> str:
    """Any one of ``options`` (each once)."""
    unique = list(dict.fromkeys(options))
    return unique[0] if len(unique) == 1 else "(" + " | ".join(unique) + ")"
