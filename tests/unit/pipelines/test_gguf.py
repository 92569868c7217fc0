"""A GGUF file's record: its recommended sampling survives the cache; older records have none."""

from __future__ import annotations

import json

from pipelines.gguf import GgufInfo
from pipelines.model_sampling import ModelSampling


def test_a_gguf_records_sampling_survives_the_cache_and_old_records_have_none() -> None:
    info = GgufInfo("m", "llama", "Q4_1", 8192, 1, 2, ("Q4_1",), True, True, ModelSampling(0.3))
    assert GgufInfo.from_dict(json.loads(json.dumps(info.to_dict()))) == info
    old = info.to_dict()
    del old["sampling"]  # kept by a version that did not read it
    assert GgufInfo.from_dict(old).sampling == ModelSampling()
