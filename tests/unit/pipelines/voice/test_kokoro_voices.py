"""Kokoro style packs: checked shapes and values, blends, damaged voice files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipelines.core import InvalidInputError, ModelLoadError
from pipelines.voice.kokoro_voices import (
    PACK_SHAPE,
    VoiceBlend,
    check_pack,
    read_voice_packs,
    resolve_voice,
    style_for,
)


def pack(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(PACK_SHAPE).astype(np.float32)


def test_a_pack_is_checked_and_a_flat_one_gets_its_middle_axis() -> None:
    assert check_pack(pack()).shape == PACK_SHAPE
    assert check_pack(pack().reshape(510, 256)).shape == PACK_SHAPE
    assert check_pack(pack().astype(np.float64)).dtype == np.float32


@pytest.mark.parametrize(
    "damaged",
    [
        np.zeros((256,), np.float32),  # one style row, not a pack
        np.zeros((510, 1, 128), np.float32),
        np.zeros((511, 1, 256), np.float32),
        np.zeros(PACK_SHAPE, np.int32),
        np.array("jm_kumo"),
    ],
)
def test_a_pack_of_another_shape_is_one_sentence(damaged: np.ndarray) -> None:
    with pytest.raises(InvalidInputError) as refused:
        check_pack(damaged)
    assert refused.value.field == "voice"
    assert "not a Kokoro voice" in str(refused.value)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_a_pack_with_values_that_are_not_numbers_is_refused(bad: float) -> None:
    damaged = pack()
    damaged[100, 0, 7] = bad
    with pytest.raises(InvalidInputError, match="damaged") as refused:
        check_pack(damaged)
    assert refused.value.field == "voice"


def test_a_blend_mixes_two_packs_row_by_row() -> None:
    first, second = pack(1), pack(2)
    assert np.array_equal(resolve_voice(VoiceBlend(first, second, 0.0)), first)
    assert np.array_equal(resolve_voice(VoiceBlend(first, second, 1.0)), second)
    middle = resolve_voice(VoiceBlend(first, second, 0.25))
    np.testing.assert_allclose(middle, 0.75 * first + 0.25 * second, rtol=1e-6)


@pytest.mark.parametrize("weight", [-0.1, 1.5, float("nan")])
def test_a_blend_weight_outside_zero_to_one_is_refused(weight: float) -> None:
    with pytest.raises(InvalidInputError, match="weight"):
        resolve_voice(VoiceBlend(pack(1), pack(2), weight))


def test_a_blend_with_a_damaged_pack_names_which_one() -> None:
    damaged = pack(2)
    damaged[0, 0, 0] = np.nan
    with pytest.raises(InvalidInputError, match="second voice"):
        resolve_voice(VoiceBlend(pack(1), damaged, 0.5))


def test_the_style_row_follows_the_phoneme_count() -> None:
    voice = pack()
    assert np.array_equal(style_for(voice, 1), voice[0])
    assert np.array_equal(style_for(voice, 40), voice[39])
    assert np.array_equal(style_for(voice, 510), voice[509])
    assert np.array_equal(style_for(voice, 9999), voice[509])  # never past the pack
    assert style_for(voice, 40).shape == (1, 256)


def test_a_voice_file_is_read_by_name(tmp_path: Path) -> None:
    path = tmp_path / "voices.npz"
    np.savez(path, af_one=pack(1), am_two=pack(2))
    packs = read_voice_packs(path)
    assert sorted(packs) == ["af_one", "am_two"]
    assert np.array_equal(packs["am_two"], pack(2))


def test_damaged_voice_files_are_one_sentence_each(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    np.savez(good, af_one=pack(1))
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    text = tmp_path / "text.npz"
    text.write_text("not a zip at all")
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, af_one=pack(1), broken=np.zeros((510, 256, 2), np.float32))
    nan = tmp_path / "nan.npz"
    bad = pack(3)
    bad[5] = np.nan
    np.savez(nan, af_nan=bad)
    empty = tmp_path / "empty.npz"
    np.savez(empty)
    for path, words in [
        (tmp_path / "missing.npz", "missing"),
        (cut, "not a Kokoro voice file"),
        (text, "not a Kokoro voice file"),
        (wrong, "“broken”"),
        (nan, "“af_nan”"),
        (empty, "no voices"),
    ]:
        with pytest.raises(ModelLoadError, match=words) as refused:
            read_voice_packs(path)
        assert refused.value.field == "voice"
        assert "\n" not in str(refused.value)
