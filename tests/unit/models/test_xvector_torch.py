"""The x-vector speaker encoder rebuilt in torch for conversion, against speechbrain's numbers."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.pipelines.voice.test_fbank import golden

__all__ = ["golden"]  # fixtures, imported for the tests below


def test_rebuilt_xvector_matches_speechbrain(golden: dict[str, np.ndarray]) -> None:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    from app.models.xvector_torch import from_state_dict

    state = {
        key.removeprefix("xvector."): torch.from_numpy(np.array(value))
        for key, value in golden.items()
        if key.startswith("xvector.")
    }
    model = from_state_dict(state)
    with torch.no_grad():
        output = model(torch.from_numpy(golden["fbank_output_0"])).numpy()
    assert output.shape == (1, 1, 512)
    # speechbrain adds 1e-5 noise to the pooled mean; everything else is identical.
    assert np.abs(output - golden["xvector_output"]).max() < 1e-3


def test_xvector_checkpoint_with_wrong_layout_is_refused() -> None:
    torch = pytest.importorskip("torch", reason="the conversion extra is not installed")
    from app.models.xvector_torch import CheckpointError, from_state_dict

    with pytest.raises(CheckpointError, match="TDNN"):
        from_state_dict({"encoder.weight": torch.zeros(3, 3)})
