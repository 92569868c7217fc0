"""A small matcher for the EBNF that :mod:`pipelines.json_grammar` writes (xgrammar syntax:
rules, literals, character classes, groups, ``? * +`` and ``{m,n}``), for tests only.

xgrammar itself has no Python package here, so to ask "does the grammar accept this text?"
the tests parse the grammar and match text against it, with sets of end positions (so every
alternative is tried: no backtracking surprises).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

Node = tuple[Any, ...]
_TOKEN = re.compile(
    r'\s*(?:(?P<lit>"(?:[^"\\]|\\.)*")|(?P<cls>\[(?:[^\]\\]|\\.)*\])|(?P<name>[A-Za-z_][\w]*)'
    r"|(?P<rep>\{\d+(?:,\d+)?\})|(?P<op>[()|?*+]))"
)


def _tokens(body: str) -> list[str]:
    tokens: list[str] = []
    index = 0
    while body[index:].strip():
        found = _TOKEN.match(body, index)
        assert found, f"cannot read the grammar at {body[index : index + 30]!r}"
        tokens.append(found.group().strip())
        index = found.end()
    return tokens


def _unescape(text: str, index: int) -> tuple[str, int]:
    """The character at ``text[index]`` (after a backslash) and the next index."""
    char = text[index]
    if char == "u":
        return chr(int(text[index + 1 : index + 5], 16)), index + 5
    if char == "x":
        return chr(int(text[index + 1 : index + 3], 16)), index + 3
    return {"n": "\n", "t": "\t", "r": "\r"}.get(char, char), index + 1


def _literal(token: str) -> str:
    body, out, index = token[1:-1], [], 0
    while index < len(body):
        if body[index] == "\\":
            char, index = _unescape(body, index + 1)
        else:
            char, index = body[index], index + 1
        out.append(char)
    return "".join(out)


def _char_class(token: str) -> Node:
    body = token[1:-1]
    negated = body.startswith("^")
    body = body[1:] if negated else body
    chars: list[str] = []
    index = 0
    while index < len(body):
        if body[index] == "\\":
            char, index = _unescape(body, index + 1)
        else:
            char, index = body[index], index + 1
        chars.append(char)
        # A "-" between two characters makes a range (marked by a placeholder).
        if index < len(body) - 1 and body[index] == "-":
            chars.append("\0range")
            index += 1
    ranges: list[tuple[str, str]] = []
    position = 0
    while position < len(chars):
        if position + 2 < len(chars) and chars[position + 1] == "\0range":
            ranges.append((chars[position], chars[position + 2]))
            position += 3
        else:
            ranges.append((chars[position], chars[position]))
            position += 1
    return ("class", negated, tuple(ranges))


@dataclass
class Grammar:
    """A parsed grammar: ``accepts(text)`` tells whether ``root`` matches all of ``text``."""

    rules: dict[str, Node]
    _memo: dict[tuple[int, int], frozenset[int]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> Grammar:
        rules: dict[str, Node] = {}
        for line in text.split("\n"):
            if line.strip():
                name, body = line.split("::=", 1)
                tokens = _tokens(body)
                node, rest = _Parser(tokens).expression(0)
                assert rest == len(tokens), f"unparsed tail in {line!r}"
                rules[name.strip()] = node
        return cls(rules)

    def accepts(self, text: str) -> bool:
        self._memo.clear()
        return len(text) in self._ends(self.rules["root"], text, 0)

    def _ends(self, node: Node, text: str, pos: int) -> frozenset[int]:
        key = (id(node), pos)
        if key not in self._memo:
            self._memo[key] = self._match(node, text, pos)
        return self._memo[key]

    def _match(self, node: Node, text: str, pos: int) -> frozenset[int]:
        kind = node[0]
        if kind == "lit":
            return frozenset({pos + len(node[1])}) if text.startswith(node[1], pos) else frozenset()
        if kind == "class":
            if pos >= len(text):
                return frozenset()
            inside = any(low <= text[pos] <= high for low, high in node[2])
            return frozenset({pos + 1}) if inside != node[1] else frozenset()
        if kind == "rule":
            return self._ends(self.rules[node[1]], text, pos)
        if kind == "alt":
            return frozenset().union(*(self._ends(option, text, pos) for option in node[1]))
        if kind == "seq":
            current = frozenset({pos})
            for part in node[1]:
                current = frozenset().union(*(self._ends(part, text, p) for p in current))
            return current
        _, inner, low, high = node  # "rep"
        ends: set[int] = set()
        current, seen = frozenset({pos}), set()
        for count in range(high + 1):
            if count >= low:
                ends |= current
            if count == high or not current:
                break
            current = frozenset().union(*(self._ends(inner, text, p) for p in current))
            if count >= low and current <= seen:
                break
            seen |= current
        return frozenset(ends)


@dataclass
class _Parser:
    tokens: list[str]

    def expression(self, index: int) -> tuple[Node, int]:
        options: list[Node] = []
        while True:
            node, index = self.sequence(index)
            options.append(node)
            if index < len(self.tokens) and self.tokens[index] == "|":
                index += 1
                continue
            return (options[0] if len(options) == 1 else ("alt", tuple(options))), index

    def sequence(self, index: int) -> tuple[Node, int]:
        parts: list[Node] = []
        while index < len(self.tokens) and self.tokens[index] not in ("|", ")"):
            node, index = self.atom(index)
            while index < len(self.tokens) and self.tokens[index][0] in "?*+{":
                node = _repeat(node, self.tokens[index])
                index += 1
            parts.append(node)
        return ("seq", tuple(parts)), index

    def atom(self, index: int) -> tuple[Node, int]:
        token = self.tokens[index]
        if token == "(":
            node, index = self.expression(index + 1)
            assert self.tokens[index] == ")"
            return node, index + 1
        if token.startswith('"'):
            return ("lit", _literal(token)), index + 1
        if token.startswith("["):
            return _char_class(token), index + 1
        return ("rule", token), index + 1


def _repeat(node: Node, token: str) -> Node:
    many = 10**9
    if token == "?":
        return ("rep", node, 0, 1)
    if token == "*":
        return ("rep", node, 0, many)
    if token == "+":
        return ("rep", node, 1, many)
    numbers = [int(part) for part in token[1:-1].split(",")]
    return ("rep", node, numbers[0], numbers[-1])
