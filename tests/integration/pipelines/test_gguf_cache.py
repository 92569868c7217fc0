"""GGUF files as chat models, on the real SmolLM2-135M-Instruct (Q4_1) and faulty copies of it:
the converted-model cache, and bad files refused before OpenVINO sees them."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from pipelines.gguf_cache import SOURCE_FILE

pytestmark = pytest.mark.integration

GREEDY = GenerationSettings(max_new_tokens=16, temperature=0.0)
CAPITAL = [Message("user", "What is the capital of France?")]

# What each faulty file must be refused with (one sentence, the same in the CLI and the GUI).
REFUSALS = {
    "cut-short": "is damaged or cut short",
    "mamba": "is a “mamba” model; this OpenVINO reads GGUF files of llama, qwen2 and qwen3",
    "no-tokenizer": "has no tokenizer inside",
    "q5_0": "stores weights as Q5_0, which this OpenVINO cannot read",
    "not-gguf": "is not a GGUF model file",
    "empty": "is empty (0 bytes)",
}


def _answer(pipe: ChatPipeline) -> str:
    return pipe.generate(CAPITAL, GREEDY, CancelToken(), lambda _text: None).text


def test_the_first_load_converts_and_the_next_comes_from_the_cache(
    real_gguf: Path, tmp_path: Path
) -> None:
    converted = tmp_path / "gguf"
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)) as first:
        first.load()
        assert not first.from_cache and first.notes == ()
        assert "Paris" in _answer(first)
    [entry] = [folder for folder in converted.iterdir() if not folder.name.startswith(".")]
    assert {"openvino_model.xml", "openvino_tokenizer.xml", SOURCE_FILE} <= {
        path.name for path in entry.iterdir()
    }
    assert not any(path.suffix == ".gguf" for path in entry.iterdir())  # the link is gone
    with ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)) as second:
        second.load()
        assert second.from_cache
        assert second.gguf is not None and second.gguf.architecture == "llama"
        assert "Paris" in _answer(second)


def test_a_copy_of_a_converted_file_is_found_by_its_hash(real_gguf: Path, tmp_path: Path) -> None:
    converted = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load()
    copy = tmp_path / "elsewhere" / "renamed.gguf"
    copy.parent.mkdir()
    shutil.copyfile(real_gguf, copy)  # another path and modification time, the same bytes
    pipe = ChatPipeline(ChatModelConfig(copy, converted_dir=converted))
    pipe.load()
    assert pipe.from_cache
    [record] = [json.loads(p.read_text()) for p in converted.glob(f"*/{SOURCE_FILE}")]
    assert {Path(known["path"]).name for known in record["files"]} == {
        real_gguf.name,
        "renamed.gguf",
    }


def test_a_damaged_cache_entry_is_converted_again(real_gguf: Path, tmp_path: Path) -> None:
    converted = tmp_path / "gguf"
    ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load()
    [weights] = converted.glob("*/openvino_model.bin")
    weights.write_bytes(b"")  # damaged behind the app's back
    pipe = ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted))
    pipe.load()
    assert not pipe.from_cache
    assert "Paris" in _answer(pipe)
    assert ChatPipeline(ChatModelConfig(real_gguf, converted_dir=converted)).load() > 0


def test_an_unwritable_cache_still_loads_and_says_the_next_start_converts_again(
    real_gguf: Path, unwritable_folder: Path
) -> None:
    pipe = ChatPipeline(ChatModelConfig(real_gguf, converted_dir=unwritable_folder / "gguf"))
    pipe.load()
    [note] = pipe.notes
    assert note.startswith("The converted model could not be kept in ")
    assert note.endswith(f"the next start converts {real_gguf.name} again.")
    assert "Paris" in _answer(pipe)


@pytest.mark.parametrize("fault", sorted(REFUSALS))
def test_a_faulty_gguf_is_refused_before_openvino_sees_it(
    fault: str, gguf_variants: dict[str, Path], tmp_path: Path
) -> None:
    # A file cut short would crash the process inside OpenVINO: reaching this assert at all
    # shows it never got there.
    pipe = ChatPipeline(ChatModelConfig(gguf_variants[fault], converted_dir=tmp_path / "gguf"))
    with pytest.raises(InvalidInputError, match=re.escape(REFUSALS[fault])) as raised:
        pipe.load()
    assert raised.value.field == "model"
    assert not pipe.loaded
    assert not [p for p in (tmp_path / "gguf").glob("*") if p.is_dir()]  # no stage left
