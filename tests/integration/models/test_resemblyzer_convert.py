"""resemblyzer's encoder converted to IR without torch: the same numbers as torch's LSTM.

Random weights in resemblyzer's layout, saved by torch as resemblyzer's 2019 file was (the
legacy format) inside a wheel-shaped zip; the IR must compute what ``VoiceEncoder.forward``
computes. The real weights are checked against resemblyzer itself by the fixture and
``tests/integration/pipelines/voice/test_speaker_similarity.py``.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pytest

from app.models.resemblyzer_convert import WEIGHTS_MEMBER, ConversionError, convert, main

pytestmark = pytest.mark.integration


def _wheel(folder: Path, state: dict[str, object], *, member: str = WEIGHTS_MEMBER) -> Path:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    buffer = io.BytesIO()
    torch.save(state, buffer, _use_new_zipfile_serialization=False)
    wheel = folder / "Resemblyzer-0.1.4-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr(member, buffer.getvalue())
    return wheel


def _folder(path: Path) -> Path:
    path.mkdir()
    return path


def _encoder() -> tuple[object, dict[str, object]]:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(40, 256, 3, batch_first=True)
    linear = torch.nn.Linear(256, 256)
    state = {f"lstm.{key}": value for key, value in lstm.state_dict().items()}
    state |= {f"linear.{key}": value for key, value in linear.state_dict().items()}
    state["similarity_weight"] = torch.tensor([10.0])

    def forward(mels: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            _, (hidden, _) = lstm(torch.from_numpy(mels))
            raw = torch.relu(linear(hidden[-1]))
            return (raw / raw.norm(dim=1, keepdim=True)).numpy()

    return forward, {"step": 1, "model_state": state, "optimizer_state": {}}


def test_the_ir_computes_resemblyzers_forward(tmp_path: Path) -> None:
    import openvino as ov

    forward, state = _encoder()
    xml = convert(_wheel(tmp_path, state), tmp_path / "model")
    assert xml.is_file() and (tmp_path / "model" / "speaker_similarity.json").is_file()
    mels = np.random.default_rng(0).random((3, 160, 40)).astype(np.float32) ** 4 * 5
    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    embeddings = compiled(mels)[0]
    np.testing.assert_allclose(embeddings, forward(mels), atol=1e-5)  # type: ignore[operator]


def test_sources_without_the_encoder_are_refused_and_nothing_is_written(tmp_path: Path) -> None:
    _, state = _encoder()
    model_state = state["model_state"]
    assert isinstance(model_state, dict)
    model_state.pop("lstm.weight_hh_l2")
    cases = {
        "lstm.weight_hh_l2 is missing": _wheel(_folder(tmp_path / "a"), state),
        "not a resemblyzer wheel": _wheel(_folder(tmp_path / "b"), {}, member="x/y.pt"),
        "does not exist": tmp_path / "absent.pt",
        "holds no resemblyzer": tmp_path,
    }
    for words, source in cases.items():
        with pytest.raises(ConversionError, match=words):
            convert(source, tmp_path / "model")
        assert not (tmp_path / "model").exists()


def test_an_occupied_output_folder_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "model"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    assert main([str(tmp_path / "absent.whl"), str(out)]) == 2
    assert main([str(tmp_path), str(out)]) == 2
    assert "not an empty folder" in capsys.readouterr().err.splitlines()[-1]
    assert [path.name for path in out.iterdir()] == ["keep.txt"]
