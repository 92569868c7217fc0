"""A GGUF file's metadata, read from the real SmolLM2-135M-Instruct (Q4_1); hostile headers
made from it are refused in one sentence (or read), never a hang or a crash."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.gguf import read_gguf_info
from tests import gguf_variants

pytestmark = pytest.mark.integration

SMOLLM2_PARAMETERS = 134_515_008
"""What llama.cpp and the local server report for this file (134.52M)."""


def test_the_metadata_says_what_the_file_holds(real_gguf: Path) -> None:
    info = read_gguf_info(real_gguf)
    assert (info.architecture, info.quantization, info.context_length) == ("llama", "Q4_1", 8192)
    assert info.parameters == SMOLLM2_PARAMETERS
    assert info.size_bytes == real_gguf.stat().st_size
    assert info.has_tokenizer and info.has_chat_template
    assert info.weight_types[0] == "Q4_1"


@pytest.mark.parametrize(
    "make",
    [gguf_variants.absurd_array, gguf_variants.absurd_tensor_count, gguf_variants.truncated],
    ids=["array-of-2**40-items", "2**60-tensors", "cut-short"],
)
def test_a_header_claiming_more_than_the_file_holds_is_refused_in_one_sentence(
    real_gguf: Path, tmp_path: Path, make: Callable[[Path, Path], Path]
) -> None:
    # Before the reader was bounded, the array of 2**40 items looped for ever.
    bad = make(real_gguf, tmp_path / "bad.gguf")
    with pytest.raises(InvalidInputError) as refused:
        read_gguf_info(bad)
    assert str(refused.value) == (
        "bad.gguf is damaged or cut short (a download that did not finish?); download it again."
    )


def test_a_name_that_is_not_utf8_is_read_with_its_bad_bytes_replaced(
    real_gguf: Path, tmp_path: Path
) -> None:
    bad = gguf_variants.not_utf8_name(real_gguf, tmp_path / "odd-name.gguf")
    info = read_gguf_info(bad)
    assert info.name.startswith("\ufffd\ufffd") and (info.architecture, info.context_length) == (
        "llama",
        8192,
    )
