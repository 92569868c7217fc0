"""The sampling a model recommends: generation_config.json of a folder, general.sampling.* of a
GGUF file; what is kept, what is dropped and why."""

from __future__ import annotations

import json
from pathlib import Path

import gguf
import pytest

from pipelines.model_sampling import (
    MAX_CONFIG_BYTES,
    ModelSampling,
    sampling_from_folder,
    sampling_from_gguf,
)

QWEN3 = {"do_sample": True, "temperature": 0.6, "top_k": 20, "top_p": 0.95, "eos_token_id": 1}
"""Qwen3's generation_config.json (the sampling part, as its makers ship it)."""


def _folder(root: Path, config: object | bytes) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    raw = config if isinstance(config, bytes) else json.dumps(config).encode()
    (root / "generation_config.json").write_bytes(raw)
    return root


def test_a_folder_recommends_what_its_generation_config_says(tmp_path: Path) -> None:
    sampling = sampling_from_folder(_folder(tmp_path / "qwen3", QWEN3))
    assert sampling.values() == {"temperature": 0.6, "top_p": 0.95, "top_k": 20}


def test_a_hugging_face_repetition_penalty_is_kept(tmp_path: Path) -> None:
    # Hugging Face penalises prompt and answer alike, as GenAI does: the same recommendation.
    qwen25 = {"do_sample": True, "repetition_penalty": 1.05, "temperature": 0.7, "top_p": 0.8}
    sampling = sampling_from_folder(_folder(tmp_path / "qwen2.5", qwen25))
    assert sampling.repetition_penalty == 1.05


def test_do_sample_false_means_greedy(tmp_path: Path) -> None:
    sampling = sampling_from_folder(_folder(tmp_path / "m", {"do_sample": False, "top_k": 5}))
    assert sampling.values() == {"temperature": 0.0, "top_k": 5}


@pytest.mark.parametrize(
    "config",
    [
        {"bos_token_id": 1, "eos_token_id": 2},  # SmolLM2's: no sampling at all
        {"temperature": 7.5, "top_p": 0.0, "top_k": -3, "repetition_penalty": 0.1},
        {"temperature": "hot", "top_p": None, "top_k": 2.5, "repetition_penalty": True},
        {"temperature": float("nan")},
        [0.7, 0.9],
    ],
)
def test_values_outside_the_bounds_or_not_numbers_are_dropped(
    tmp_path: Path, config: object
) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    # json.dumps writes NaN as a bare token, which Python's reader takes back.
    (folder / "generation_config.json").write_text(json.dumps(config), encoding="utf-8")
    assert sampling_from_folder(folder) == ModelSampling()


@pytest.mark.parametrize(
    "raw",
    [b"", b"{not json", b"\xff\xfe\x00garbage", b" " * (MAX_CONFIG_BYTES + 1)],
    ids=["empty", "not-json", "not-utf8", "huge"],
)
def test_an_unreadable_generation_config_recommends_nothing(tmp_path: Path, raw: bytes) -> None:
    assert sampling_from_folder(_folder(tmp_path / "m", raw)) == ModelSampling()


def test_a_folder_without_a_generation_config_recommends_nothing(tmp_path: Path) -> None:
    assert sampling_from_folder(tmp_path) == ModelSampling()
    assert sampling_from_folder(tmp_path / "missing") == ModelSampling()


def _gguf_fields(path: Path, values: dict[str, float | int]) -> dict[str, object]:
    """The metadata fields of a GGUF file written with ``values`` (floats as f32)."""
    writer = gguf.GGUFWriter(path, "llama")
    for key, value in values.items():
        if isinstance(value, int):
            writer.add_int32(key, value)
        else:
            writer.add_float32(key, value)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return dict(gguf.GGUFReader(path).fields)


def test_a_gguf_recommends_its_sampling_keys(tmp_path: Path) -> None:
    keys = {"temp": 0.6, "top_p": 0.95, "top_k": 20}
    fields = _gguf_fields(
        tmp_path / "m.gguf", {f"general.sampling.{k}": v for k, v in keys.items()}
    )
    # f32 0.6 reads 0.6000000238: kept as the number that was meant.
    assert sampling_from_gguf(fields).values() == {"temperature": 0.6, "top_p": 0.95, "top_k": 20}


def test_a_gguf_repetition_penalty_over_the_last_tokens_only_is_not_taken(
    tmp_path: Path,
) -> None:
    # llama.cpp penalises the last 64 tokens (its default window); GenAI would penalise the
    # whole conversation, which breaks long answers: not the recommendation the file makes.
    windowed = _gguf_fields(tmp_path / "a.gguf", {"general.sampling.penalty_repeat": 1.1})
    assert sampling_from_gguf(windowed).repetition_penalty is None
    explicit = _gguf_fields(
        tmp_path / "b.gguf",
        {"general.sampling.penalty_repeat": 1.1, "general.sampling.penalty_last_n": 64},
    )
    assert sampling_from_gguf(explicit).repetition_penalty is None
    whole = _gguf_fields(
        tmp_path / "c.gguf",
        {"general.sampling.penalty_repeat": 1.1, "general.sampling.penalty_last_n": -1},
    )
    assert sampling_from_gguf(whole).repetition_penalty == 1.1
