"""Source code: declaration starts per language, and chunks cut there with their line ranges."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.rag.chunking import Chunker
from pipelines.rag.loaders import load_document
from pipelines.rag.source_code import declaration_starts

PYTHON = '''"""A module."""
import os

# Reads the settings.
@cache
def settings():
    return os.environ


class Parser:
    def parse(self, text):
        return text.split()

    @staticmethod
    def name():
        return "parser"
LIMIT = 3
'''

JAVASCRIPT = """const limit = 3;

function parse(text) {
  if (text) {
    return text.split('{');
  }

  return [];
}

// A class.
class Parser {
  parse(text) {
    return "}" + text;
  }

  name() { return `x${1}`; }
}
"""


def test_python_units_are_its_definitions_with_decorators_and_comments() -> None:
    assert declaration_starts(PYTHON, ".py") == ((4, 0), (10, 0), (11, 1), (14, 1), (17, 0))


def test_brace_units_skip_strings_comments_and_closing_lines() -> None:
    # Level 0: the function and the class (its comment line with it); level 1: a paragraph
    # inside the function and the class's second method — where a unit too big is cut.
    # The "{" in a string, the "}" in another and the template's braces change no depth.
    assert declaration_starts(JAVASCRIPT, ".js") == ((3, 0), (8, 1), (11, 0), (17, 1))


def test_python_that_does_not_parse_is_read_by_indentation() -> None:
    text = "print 'old'\n\ndef f():\n    pass\n\n    return\nx = 1\n"
    assert declaration_starts(text, ".py") == ((3, 0), (6, 1), (7, 0))


def test_other_languages_are_read_by_blank_lines_and_indentation() -> None:
    ruby = "require 'x'\n\ndef a\n  1\nend\n\ndef b\n  2\nend\n"
    assert declaration_starts(ruby, ".rb") == ((3, 0), (7, 0))


@pytest.fixture(scope="module")
def chunker(embedding_model_dir: Path) -> Chunker:
    return Chunker(embedding_model_dir / "tokenizer.json", max_tokens=64, overlap=8)


def _function(name: str, body_lines: int) -> str:
    body = "".join(f"    total += {name}_value_{n} * {n}\n" for n in range(body_lines))
    return f"def {name}():\n    total = 0\n{body}    return total\n"


def test_code_chunks_follow_functions_and_carry_their_lines(
    chunker: Chunker, tmp_path: Path
) -> None:
    small = [_function(name, 2) for name in ("alpha", "beta", "gamma")]
    big = _function("huge", 40)
    path = tmp_path / "calc.py"
    path.write_text("\n\n".join([*small, big]))
    chunks = chunker.split(load_document(path).pages)
    lines = path.read_text().splitlines()
    for chunk in chunks:
        assert chunk.lines is not None and chunk.page is None
        first, last = chunk.lines
        # The range is exactly the chunk's text (pieces of the big function may overlap).
        assert chunk.text.splitlines()[0].strip() == lines[first - 1].strip()
        assert chunk.text.splitlines()[-1].strip() == lines[last - 1].strip()
    # Whole small functions, never cut: each starts a chunk or sits wholly inside one.
    starts = [number for number, line in enumerate(lines, 1) if line.startswith("def ")]
    for start in starts[:3]:
        holding = [c for c in chunks if c.lines and c.lines[0] <= start <= c.lines[1]]
        assert len(holding) == 1 and holding[0].lines is not None
        assert holding[0].lines[1] >= start + 4
    # The big function is cut by text, within its own lines.
    huge = [c for c in chunks if c.lines and c.lines[0] >= starts[3]]
    assert len(huge) > 2 and huge[0].lines is not None and huge[0].lines[0] == starts[3]
    assert huge[-1].lines is not None and huge[-1].lines[1] == len(lines)


def test_a_header_is_repeated_on_every_chunk_of_its_page(chunker: Chunker) -> None:
    from pipelines.rag.loaders import Page

    rows = "\n".join(f"Item {n} | {n * 10} euros | shelf {n % 7}" for n in range(200))
    chunks = chunker.split([Page(2, rows, header="Sheet: Stock\nItem | Price | Shelf")])
    assert len(chunks) > 5
    assert all(c.text.startswith("Sheet: Stock\nItem | Price | Shelf\n") for c in chunks)
    assert all(c.page == 2 and c.lines is None for c in chunks)
    assert "Item 199 | 1990 euros" in chunks[-1].text


def test_a_chunk_opening_with_its_header_does_not_say_it_twice(chunker: Chunker) -> None:
    # An e-book chapter's title is its first heading: the first chunk starts with it already.
    from pipelines.rag.loaders import Page

    prose = " ".join(f"The ferry leaves Halvard Point at {n}:40 on weekdays." for n in range(60))
    chunks = chunker.split([Page(3, f"Halvard Point\n{prose}", header="Halvard Point")])
    assert len(chunks) > 2
    assert all(c.text.startswith("Halvard Point") for c in chunks)
    assert not any(c.text.startswith("Halvard Point\nHalvard Point") for c in chunks)
    assert chunks[-1].text.startswith("Halvard Point\nThe ferry")  # later chunks get the title
