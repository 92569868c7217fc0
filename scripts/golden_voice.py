"""Regenerate tests/unit/pipelines/voice/data/voice_golden.npz from speechbrain itself (run once,
by hand).

The voice pipeline computes speechbrain's filterbank in numpy and rebuilds speechbrain's x-vector
network in torch for conversion; the golden file pins both to the reference implementation:

* ``fbank_input_N`` / ``fbank_output_N``: 16 kHz clips and speechbrain's
  ``Fbank(n_mels=24)`` + sentence mean normalisation of them, ``[1, T, 24]``;
* ``xvector_state``: a small random speechbrain ``Xvector`` (channels 16/16/16/16/48, 512-d),
  its weights flattened as ``xvector.<key>`` entries, and ``xvector_output`` its embedding of
  ``fbank_output_0`` — the converted model must give the same vector.

speechbrain needs torchaudio, which is not installed here (it would pull a CUDA torch); its
feature code does not use it, so a stand-in module is enough:

    pip install --no-deps --target /tmp/sbpkg speechbrain==1.1.2 hyperpyyaml ruamel.yaml joblib
    mkdir -p /tmp/sbstub/torchaudio && printf 'def list_audio_backends(): return []\\n' \\
        > /tmp/sbstub/torchaudio/__init__.py
    PYTHONPATH=/tmp/sbpkg:/tmp/sbstub .venv/bin/python scripts/golden_voice.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.audio_samples import speech_like

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "unit" / "pipelines" / "voice" / "data" / "voice_golden.npz"


def main() -> None:
    import torch
    from speechbrain.lobes.features import Fbank
    from speechbrain.lobes.models.Xvector import Xvector
    from speechbrain.processing.features import InputNormalization

    clips = [
        speech_like(1.3, pitch=120.0, seed=1),
        # A tone with silence around it: exercises the 80 dB floor.
        np.concatenate(
            [
                np.zeros(3000, np.float32),
                0.5 * np.sin(2 * np.pi * 440 * np.arange(8000) / 16000).astype(np.float32),
                np.zeros(2001, np.float32),
            ]
        ),
        speech_like(0.61, pitch=210.0, seed=2) * 0.01,
    ]
    fbank = Fbank(n_mels=24)
    norm = InputNormalization(norm_type="sentence", std_norm=False).eval()
    entries: dict[str, np.ndarray] = {}
    for index, clip in enumerate(clips):
        wave = torch.from_numpy(clip.astype(np.float32))[None]
        with torch.no_grad():
            features = norm(fbank(wave), torch.ones(1))
        entries[f"fbank_input_{index}"] = clip.astype(np.float32)
        entries[f"fbank_output_{index}"] = features.numpy().astype(np.float32)

    torch.manual_seed(0)
    model = Xvector(in_channels=24, tdnn_channels=[16, 16, 16, 16, 48], lin_neurons=512).eval()
    with torch.no_grad():
        for module in model.modules():  # non-trivial batch-norm statistics
            if isinstance(module, torch.nn.BatchNorm1d):
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 2.0)
        # StatisticsPooling adds Gaussian noise of scale 1e-5 to the mean; negligible here.
        output = model(torch.from_numpy(entries["fbank_output_0"]))
    for key, value in model.state_dict().items():
        entries[f"xvector.{key}"] = value.numpy()
    entries["xvector_output"] = output.numpy().astype(np.float32)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, **entries)
    sys.stdout.write(f"wrote {OUT} ({OUT.stat().st_size / 1024:.0f} KiB)\n")


if __name__ == "__main__":
    main()
