"""The in-app Kokoro conversion on the real int8 ONNX: what it writes, and that a failure, a
damaged file or a cancel leaves nothing that looks converted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, ModelLoadError
from pipelines.voice.kokoro_convert import (
    CONFIG_FILE,
    CONVERSION_VERSION,
    KokoroSource,
    convert_kokoro,
    is_converted,
)
from pipelines.voice.kokoro_voices import read_voice_packs

pytestmark = pytest.mark.integration
MODEL = "kokoro-v1.0.int8.onnx"


def copy_source(kokoro_model_dir: Path, folder: Path) -> Path:
    folder.mkdir()
    for path in kokoro_model_dir.iterdir():
        if not path.name.startswith("."):
            shutil.copyfile(path, folder / path.name)
    return folder


def left_in(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_the_conversion_rewrites_every_integer_product(converted_kokoro: Path) -> None:
    assert is_converted(converted_kokoro)
    config = json.loads((converted_kokoro / CONFIG_FILE).read_text(encoding="utf-8"))
    conversion = config["conversion"]
    assert conversion["version"] == CONVERSION_VERSION
    # The export has 235 integer MatMul/Conv, 6 scaled resizes and 48 Snake activations.
    assert conversion["dequantized_products"] == 235
    assert conversion["exact_resizes"] == 6
    assert conversion["snakes"] == 48 and conversion["polynomial_snakes"] == 0
    assert config["model_type"] == "kokoro" and config["sample_rate"] == 24_000
    assert len(read_voice_packs(converted_kokoro / "voices.npz")) == 5
    xml = (converted_kokoro / "openvino_model.xml").read_text(encoding="utf-8")
    assert "ReduceMin" not in xml  # no dynamic quantiser is left


def test_progress_comes_before_each_step_and_ends_complete(
    kokoro_model_dir: Path, tmp_path: Path
) -> None:
    steps = list(convert_kokoro(KokoroSource.in_folder(kokoro_model_dir), tmp_path / "out"))
    assert [step.done for step in steps] == [0, 1, 2, 3, 4, 5]
    assert steps[-1].fraction == 1.0
    assert left_in(tmp_path) == ["out"]


@pytest.mark.parametrize("after_step", [0, 2, 4])
def test_a_cancel_between_steps_leaves_nothing(
    kokoro_model_dir: Path, tmp_path: Path, after_step: int
) -> None:
    cancel = CancelToken()
    with pytest.raises(Cancelled):
        for progress in convert_kokoro(
            KokoroSource.in_folder(kokoro_model_dir), tmp_path / "out", cancel=cancel
        ):
            if progress.done == after_step:
                cancel.cancel()
    assert left_in(tmp_path) == []


def test_a_damaged_model_is_one_sentence_and_nothing_is_written(
    kokoro_model_dir: Path, tmp_path: Path
) -> None:
    source = copy_source(kokoro_model_dir, tmp_path / "source")
    model = source / MODEL
    model.write_bytes(model.read_bytes()[: model.stat().st_size // 2])
    with pytest.raises(ModelLoadError) as refused:
        list(convert_kokoro(KokoroSource.in_folder(source), tmp_path / "out"))
    assert "\n" not in str(refused.value) and refused.value.field == "model"
    assert left_in(tmp_path) == ["source"]


def test_a_model_that_is_not_kokoro_is_refused(kokoro_model_dir: Path, tmp_path: Path) -> None:
    source = copy_source(kokoro_model_dir, tmp_path / "source")
    (source / MODEL).write_bytes(b"\x08\x07garbage that is not an ONNX graph" * 1000)
    with pytest.raises(ModelLoadError):
        list(convert_kokoro(KokoroSource.in_folder(source), tmp_path / "out"))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        ("no-model", "not a Kokoro model folder"),
        ("no-vocab", "not a Kokoro model folder"),
        ("bad-vocab", "not a Kokoro vocabulary"),
        ("nan-voice", "damaged"),
    ],
)
def test_missing_or_damaged_source_files_are_one_sentence(
    kokoro_model_dir: Path, tmp_path: Path, damage: str, words: str
) -> None:
    source = copy_source(kokoro_model_dir, tmp_path / "source")
    if damage == "no-model":
        (source / MODEL).unlink()
    elif damage == "no-vocab":
        (source / "vocab.json").unlink()
    elif damage == "bad-vocab":
        (source / "vocab.json").write_text('{"vocab": {"ab": -1}}', encoding="utf-8")
    else:
        packs = dict(np.load(source / "voices_ja.npz"))
        packs["jm_kumo"][0, 0, 0] = np.nan
        np.savez(source / "voices_ja.npz", **packs)
    with pytest.raises(ModelLoadError, match=words):
        list(convert_kokoro(KokoroSource.in_folder(source), tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_an_existing_target_is_not_overwritten(kokoro_model_dir: Path, tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()
    (target / "mine.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(InvalidInputError, match="exists already"):
        list(convert_kokoro(KokoroSource.in_folder(kokoro_model_dir), target))
    assert left_in(target) == ["mine.txt"]
    assert not is_converted(target)
