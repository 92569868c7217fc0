"""What a listing knows of a GGUF file: nothing until it is read (reading takes seconds),
then the real SmolLM2's facts, or the one sentence why a hostile file cannot be read; and,
without reading, what the conversion cache kept when the file was first loaded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.models import GgufFacts
from pipelines.gguf import GgufInfo
from tests import gguf_variants

pytestmark = pytest.mark.integration


def test_a_file_is_read_once_per_version(real_gguf: Path, tmp_path: Path) -> None:
    facts = GgufFacts(tmp_path / "no-cache")
    assert facts.known(real_gguf) is None  # never reads: a window asks while drawing
    info = facts.read(real_gguf)
    assert isinstance(info, GgufInfo)
    assert (info.architecture, info.quantization) == ("llama", "Q4_1")
    assert (info.parameters, info.context_length) == (134_515_008, 8192)
    assert facts.known(real_gguf) == info


def test_a_hostile_file_gives_one_sentence_remembered_until_it_changes(
    real_gguf: Path, tmp_path: Path
) -> None:
    bad = gguf_variants.absurd_array(real_gguf, tmp_path / "bad.gguf")
    facts = GgufFacts(None)
    why = "bad.gguf is damaged or cut short (a download that did not finish?); download it again."
    assert facts.read(bad) == why and facts.known(bad) == why
    stat = bad.stat()
    os.utime(bad, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # rewritten since
    assert facts.known(bad) is None


def test_a_converted_file_is_known_from_the_cache_without_reading_it(
    real_model_folder: Path, real_chat_model: Path, converted_gguf_cache: Path
) -> None:
    facts = GgufFacts(converted_gguf_cache)
    known = facts.known(real_chat_model)
    assert isinstance(known, GgufInfo) and known.parameters == 134_515_008
    assert facts.converted_size(real_chat_model) > 50_000_000  # the IR of its 135M weights
    assert real_model_folder.parent == converted_gguf_cache
