"""A GGUF file's metadata, read from the real SmolLM2-135M-Instruct (Q4_1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipelines.gguf import read_gguf_info

pytestmark = pytest.mark.integration


def test_the_metadata_says_what_the_file_holds(real_gguf: Path) -> None:
    info = read_gguf_info(real_gguf)
    assert (info.architecture, info.quantization, info.context_length) == ("llama", "Q4_1", 8192)
    assert 130e6 < info.parameters < 140e6  # SmolLM2-135M
    assert info.size_bytes == real_gguf.stat().st_size
    assert info.has_tokenizer and info.has_chat_template
    assert info.weight_types[0] == "Q4_1"
