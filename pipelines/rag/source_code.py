"""Source code: where its declarations start, so chunks follow functions and classes and a
citation can say "lines 40–72".

The boundary finder is light and language-aware, not a compiler:

- Python is read with :mod:`ast`: each top-level function or class (its decorators and the
  comment lines right above it included) starts a unit at level 0, the statements between them
  form units of their own, and a class's methods start units at level 1.
- Every other language is read by its nesting: braces for the C family (C, C++, C#, Java,
  JavaScript/TypeScript, Go, Rust, Kotlin, Swift, PHP …), with strings and comments skipped;
  indentation for the rest (Ruby, shell, Lua …, and Python that does not parse). A line at
  depth 0 or 1 starts a unit when it follows a blank line or the end of a deeper block.

The chunker (:mod:`pipelines.rag.code_chunks`) packs whole units up to its token budget and
cuts a unit too big for one chunk at its level-1 starts, then by text.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pipelines.rag.loaders import Page, decode_text

BRACE_SUFFIXES = frozenset(
    {
        ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".java", ".c", ".h", ".cc", ".cpp",
        ".cxx", ".hpp", ".hh", ".cs", ".go", ".rs", ".php", ".kt", ".kts", ".swift", ".scala",
        ".dart", ".m",
    }
)  # fmt: skip
PYTHON_SUFFIXES = frozenset({".py", ".pyi"})
AST_MAX_CHARS = 2_000_000
"""Larger Python files are read by their indentation: ``ast`` holds a tree many times the
text's size."""

Units = tuple[tuple[int, int], ...]
_CLOSING = re.compile(r"^\s*([})\]]|(end|fi|done|esac)\b)")
"""A line that closes a block ends a unit; it never starts one."""


def code_pages(path: Path, data: bytes) -> list[Page]:
    """The file's text as one page carrying its declaration starts (see the module doc).

    Raises:
        InvalidInputError: binary data or an unrecognisable encoding.
    """
    text = decode_text(path, data)
    return [Page(None, text, code_units=declaration_starts(text, path.suffix.lower()))]


def declaration_starts(text: str, suffix: str) -> Units:
    """(first line, level) of each unit of ``text``, lines counted from 1, in order."""
    lines = text.splitlines()
    if suffix in PYTHON_SUFFIXES and len(text) <= AST_MAX_CHARS:
        units = _python_units(text, lines)
        if units is not None:
            return units
    depths = _brace_depths(lines) if suffix in BRACE_SUFFIXES else _indent_depths(lines)
    return _nesting_units(lines, depths)


def _python_units(text: str, lines: list[str]) -> Units | None:
    try:
        module = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    definitions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    units: list[tuple[int, int]] = []
    after_definition = False
    for node in module.body:
        if isinstance(node, definitions):
            units.append((_with_comments(lines, _first_line(node)), 0))
            if isinstance(node, ast.ClassDef):
                units += [
                    (_with_comments(lines, _first_line(member)), 1)
                    for member in node.body
                    if isinstance(member, definitions)
                ]
            after_definition = True
        elif after_definition:  # code between definitions is a unit of its own
            units.append((_with_comments(lines, _first_line(node)), 0))
            after_definition = False
    return tuple(units)


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(decorator.lineno for decorator in decorators)])


def _with_comments(lines: list[str], first: int) -> int:
    """``first`` moved up over the comment lines directly above it."""
    while first > 1 and lines[first - 2].lstrip().startswith("#"):
        first -= 1
    return first


def _nesting_units(lines: list[str], depths: list[int]) -> Units:
    units = []
    for index in range(1, len(lines)):
        depth = depths[index]
        if depth > 1 or not lines[index].strip() or _CLOSING.match(lines[index]):
            continue
        previous_blank = not lines[index - 1].strip()
        if previous_blank or depths[index - 1] > depth:
            units.append((index + 1, depth))
    return tuple(units)


def _indent_depths(lines: list[str]) -> list[int]:
    """0 for a line starting at the margin, 1 for an indented one (blank lines: the next's)."""
    depths = [0 if line[:1] not in (" ", "\t") else 1 for line in lines]
    for index in range(len(lines) - 2, -1, -1):
        if not lines[index].strip():
            depths[index] = depths[index + 1]
    return depths


def _brace_depths(lines: list[str]) -> list[int]:
    """Brace depth at the start of each line, strings and comments skipped."""
    depths = []
    depth = 0
    in_block_comment = False
    in_template = False
    for line in lines:
        depths.append(depth)
        index = 0
        quote = ""
        while index < len(line):
            char = line[index]
            pair = line[index : index + 2]
            if in_block_comment:
                if pair == "*/":
                    in_block_comment = False
                    index += 1
            elif in_template:
                if char == "\\":
                    index += 1
                elif char == "`":
                    in_template = False
            elif quote:
                if char == "\\":
                    index += 1
                elif char == quote:
                    quote = ""
            elif pair == "//":
                break
            elif pair == "/*":
                in_block_comment = True
                index += 1
            elif char in "\"'":
                quote = char  # strings end at the line's end (a Rust lifetime is no string)
            elif char == "`":
                in_template = True
            elif char == "{":
                depth += 1
            elif char == "}":
                depth = max(0, depth - 1)
            index += 1
    return depths
