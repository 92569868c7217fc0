"""Chunking with pages: the token budget respected, short pages kept apart, bad settings refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.rag.chunking import Chunker
from pipelines.rag.loaders import Page


@pytest.fixture(scope="module")
def chunker(embedding_model_dir: Path) -> Chunker:
    return Chunker(embedding_model_dir / "tokenizer.json", max_tokens=64, overlap=8)


def test_chunks_respect_the_token_budget_and_pages(
    chunker: Chunker, embedding_model_dir: Path
) -> None:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(embedding_model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    pages = [
        Page(1, "Lisbon has yellow trams. " * 40),
        Page(2, "Porto has a famous bridge. " * 40),
    ]
    chunks = chunker.split(pages)
    assert [c.ord for c in chunks] == list(range(len(chunks)))
    assert all(len(tokenizer.encode(c.text, add_special_tokens=False).ids) <= 64 for c in chunks)
    assert {c.page for c in chunks} == {1, 2}
    # No chunk crosses a page: page 1 holds only Lisbon, page 2 only Porto.
    assert all("Porto" not in c.text for c in chunks if c.page == 1)
    assert all("Lisbon" not in c.text for c in chunks if c.page == 2)


def test_short_pages_stay_separate(chunker: Chunker) -> None:
    chunks = chunker.split([Page(1, "Bridges."), Page(2, "Bread.")])
    assert [(c.page, c.text) for c in chunks] == [(1, "Bridges."), (2, "Bread.")]


def test_short_text_is_one_chunk(chunker: Chunker) -> None:
    [chunk] = chunker.split([Page(None, "Just one sentence.")])
    assert chunk.text == "Just one sentence." and chunk.page is None


def test_bad_chunk_settings_are_refused(embedding_model_dir: Path) -> None:
    with pytest.raises(InvalidInputError):
        Chunker(embedding_model_dir / "tokenizer.json", max_tokens=8)
